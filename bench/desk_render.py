"""Render times of the desk: the polled status partial and the full result page of a finished draft.

A finished run with 20 claims (two sentences cut, so the diff has work to do), its events and LLM
calls, on a throwaway SQLite database; each page is rendered through the Django test client, i.e.
URL routing, middleware, session, queries, diff and templates, as a browser would get it.

    uv run python bench/desk_render.py [--renders 200]
Targets: status partial p50 ≤ 20 ms, full result page ≤ 60 ms.
"""

from __future__ import annotations

import argparse
import statistics
import time
from decimal import Decimal

from _django import setup

setup()

from django.test import Client  # noqa: E402
from django.test.utils import setup_test_environment  # noqa: E402
from django.utils import timezone  # noqa: E402

from agents.models import Article, LLMCall, Run, VerificationIssue  # noqa: E402
from agents.work import runs  # noqa: E402
from newsdesk.models import Reporter  # noqa: E402
from tests.factories import ReporterFactory  # noqa: E402
from tests.fixtures.press import BODY, HEADLINE  # noqa: E402

SOURCE = "보도자료 서울시는 3일 청년 월세 지원 대상을 올해 1만5000가구에서 2만 가구로 늘린다고 밝혔다."
EXTRA = " 시는 내년까지 지원 규모를 1,500억원으로 늘릴 계획이다. 또 2030년까지 10만 가구로 넓힌다."


def finished_run(reporter: Reporter) -> Run:
    now = timezone.now()
    run = Run.objects.create(
        reporter=reporter,
        kind=Run.Kind.DRAFT,
        status=Run.Status.DONE,
        stage="done",
        input={"press_release": "…", "department": "사회부"},
        timings={"draft_seconds": 12.3, "verify_seconds": 8.7, "turns": 1},
        started_at=now,
        finished_at=now,
    )
    article = Article.objects.create(
        run=run,
        reporter=reporter,
        headline=HEADLINE,
        draft_body=BODY + EXTRA,
        body=BODY,
        verdict=Article.Verdict.REVISED,
        sources=[{"title": f"관련 기사 {n}", "url": f"https://www.yna.co.kr/view/{n}"} for n in range(1, 4)],
        length=len(BODY),
    )
    VerificationIssue.objects.bulk_create(
        VerificationIssue(
            article=article,
            claim=f"주장 {n} 2만 가구",
            status="not_found" if n >= 18 else "confirmed",
            kind="number",
            source=SOURCE,
            origin="code" if n % 2 else "llm",
            sentence_index=9 if n >= 18 else n % 9 + 1,
            action="deleted" if n >= 18 else "kept",
        )
        for n in range(1, 21)
    )
    for stage in ("analyze", "search", "write", "verify"):
        runs.event_add(run=run, kind="stage", message=f"{stage} 중")
    runs.event_add(run=run, kind="done", message="완료 · 사실 확인 17건 확인, 1문장 수정")
    for purpose in ("writing", "verify_article"):
        LLMCall.objects.create(
            run=run, purpose=purpose, model="claude-haiku-4-5", status="ok", cost_usd=Decimal("0.002")
        )
    return run


def running_run(reporter: Reporter) -> Run:
    run = Run.objects.create(
        reporter=reporter, kind=Run.Kind.DRAFT, status=Run.Status.RUNNING, stage="write", input={}
    )
    for stage in ("analyze", "search", "write"):
        runs.event_add(run=run, kind="stage", message=f"{stage} 중")
    return run


def timed(client: Client, url: str, renders: int, **headers: str) -> list[float]:
    for _ in range(10):  # warm-up: template cache, connections
        client.get(url, **headers)
    times = []
    for _ in range(renders):
        started = time.perf_counter()
        response = client.get(url, **headers)
        times.append((time.perf_counter() - started) * 1000)
        assert response.status_code == 200, response.status_code
    return sorted(times)


def report(label: str, times: list[float], target: float) -> None:
    p50, p95 = statistics.median(times), times[int(len(times) * 0.95) - 1]
    verdict = "within" if p50 <= target else "OVER"
    figures = f"p50 {p50:.1f} ms, p95 {p95:.1f} ms (n={len(times)}"
    print(f"{label}: {figures}; target p50 ≤ {target:.0f} ms, {verdict})")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--renders", type=int, default=200)
    args = parser.parse_args()
    setup_test_environment()  # lets the test client's "testserver" host through ALLOWED_HOSTS
    reporter = ReporterFactory(user__username="bench-desk", anthropic_key="sk-ant-bench-0000")
    run = finished_run(reporter)
    client = Client()
    client.force_login(reporter.user)
    live = running_run(reporter)
    polling = timed(client, f"/desk/drafts/{live.pk}/status/", args.renders, HTTP_HX_REQUEST="true")
    status = timed(client, f"/desk/drafts/{run.pk}/status/", args.renders, HTTP_HX_REQUEST="true")
    page = timed(client, f"/desk/drafts/{run.pk}/", args.renders)
    report("status partial while the run goes (the 1 s poll)", polling, 20)
    report("status partial of a finished run with 20 claims", status, 20)
    report("full result page", page, 60)


if __name__ == "__main__":
    main()

"""LLM round trips, tokens and orchestration overhead of a press-release draft.

Runs the real draft task body (writing loop, Naver search, scraping, code guard, verification,
saving) against the scripted fake Anthropic, fake Naver and fake article pages on loopback, all
answering at once, so what is timed is our own work: everything except the model and the network.

    uv run python bench/draft.py [--runs 30]
"""

from __future__ import annotations

import argparse
import statistics
import time

from _django import setup

setup()

from django.conf import settings  # noqa: E402

from agents import tasks  # noqa: E402
from agents.llm import client as llm  # noqa: E402
from agents.models import LLMCall, Run  # noqa: E402
from agents.services import draft_create  # noqa: E402
from tests.factories import ReporterFactory  # noqa: E402
from tests.fakes.anthropic import FakeAnthropic  # noqa: E402
from tests.fakes.naver import FakeNaver, item  # noqa: E402
from tests.fakes.pages import FakePages, generic_article_html, korean_paragraphs  # noqa: E402
from tests.fixtures.press import BODY, HEADLINE, PRESS_RELEASE  # noqa: E402


def serve_news(naver: FakeNaver, pages: FakePages) -> None:
    entries = []
    for n in range(1, 16):
        pages.add_page(f"/news/{n}", generic_article_html(f"청년 월세 기사 {n}", korean_paragraphs(n)))
        entries.append(
            item(
                f"청년 월세 지원 기사 {n}",
                f"https://www.yna.co.kr/view/{n}",
                pages.url(f"/news/{n}"),
                f"서울시 청년 월세 지원 관련 보도 {n}",
                minutes_ago=n * 5,
            )
        )
    naver.add("청년 월세", entries)


def script(fake: FakeAnthropic, *, with_keywords: bool) -> None:
    if not with_keywords:
        fake.tool("fetch_articles", {"keywords": ["청년 월세"]}, forced=False)
    fake.tool("select_articles", {"selected_indices": [1, 2, 3]}, forced=False)
    fake.tool("submit_article", {"headline": HEADLINE, "body": BODY, "source_indices": [1, 2]}, forced=False)
    fake.tool(
        "verify_article",
        {
            "thinking": "대조 완료",
            "verdict": "pass",
            "revisions": [],
            "issues": [
                {
                    "claim": "2만 가구로 확대",
                    "status": "confirmed",
                    "kind": "number",
                    "sentence": 2,
                    "source": "자료 1",
                }
            ],
        },
    )


def one_draft(reporter, fake: FakeAnthropic, *, with_keywords: bool) -> tuple[float, Run]:  # type: ignore[no-untyped-def]
    script(fake, with_keywords=with_keywords)
    keywords = ["청년 월세"] if with_keywords else []
    run = draft_create(reporter=reporter, press_release=PRESS_RELEASE, search_news=True, keywords=keywords)
    started = time.perf_counter()
    tasks.draft_run.apply(args=[run.pk])
    elapsed = time.perf_counter() - started
    run.refresh_from_db()
    assert run.status == Run.Status.DONE, run.error
    return elapsed, run


def usage(run: Run) -> tuple[int, int, int]:
    calls = LLMCall.objects.filter(run=run)
    return calls.count(), sum(c.input_tokens for c in calls), sum(c.output_tokens for c in calls)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=30)
    args = parser.parse_args()
    fake, naver, pages = FakeAnthropic(), FakeNaver(), FakePages()
    settings.ANTHROPIC_BASE_URL = fake.base_url
    settings.NAVER_API_BASE_URL = naver.base_url
    settings.NAVER_CLIENT_ID, settings.NAVER_CLIENT_SECRET = naver.client_id, naver.client_secret
    settings.NEWSDESK_SCRAPE_ALLOW_PRIVATE = True
    llm._new_client.cache_clear()
    serve_news(naver, pages)
    reporter = ReporterFactory(user__username="bench", anthropic_key="sk-ant-bench-0000")
    try:
        for with_keywords in (True, False):
            _, run = one_draft(reporter, fake, with_keywords=with_keywords)
            calls, tokens_in, tokens_out = usage(run)
            label = "keywords given" if with_keywords else "model picks keywords"
            print(
                f"draft with news search ({label}): {calls} LLM round trips, "
                f"{tokens_in} input + {tokens_out} output tokens (estimated from the requests)"
            )
        one_draft(reporter, fake, with_keywords=True)  # warm-up
        times = sorted(one_draft(reporter, fake, with_keywords=True)[0] * 1000 for _ in range(args.runs))
        p50, p95 = statistics.median(times), times[int(len(times) * 0.95) - 1]
        print(
            f"orchestration overhead per draft (SQLite, zero-latency fakes, n={args.runs}): "
            f"p50 {p50:.0f} ms, p95 {p95:.0f} ms, min {times[0]:.0f} ms"
        )
        fake.assert_complete()
    finally:
        fake.close()
        naver.close()
        pages.close()


if __name__ == "__main__":
    main()

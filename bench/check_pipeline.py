"""End-to-end /check: 300 Naver results, 60 pages scraped, a zero-latency fake model.

The real task (`agents.tasks.monitor_check`) runs against loopback fakes: the Naver client
against FakeNaver (5 keywords × 60 whitelisted results = 300), the scraper against FakePages
(Naver layout, served as n.news.naver.com through a patched resolver), the Anthropic SDK against
FakeAnthropic, which answers `filter_news` by keeping 60 of the numbered articles and
`submit_analysis` by reporting 10 and skipping the rest, computed from the list it was sent.
Everything else is real: the database (a fresh SQLite in a temporary NEWSDESK_VAR_DIR, migrated
here), the lock, the pipeline, back-mapping and the save. The figures include v1's 0.5 s pause
between Naver keyword batches (5 keywords = 2 batches).

    uv run python bench/check_pipeline.py [--runs 3] [--latency 0.0]

Peak RSS is the whole process, fake servers included (they are threads here).
"""

from __future__ import annotations

import argparse
import atexit
import os
import re
import resource
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
_VAR = tempfile.mkdtemp(prefix="newsdesk-bench-")
atexit.register(shutil.rmtree, _VAR, ignore_errors=True)
os.environ["DJANGO_SETTINGS_MODULE"] = "newsdesk.settings"
os.environ["NEWSDESK_VAR_DIR"] = _VAR
os.environ["CELERY_BROKER_URL"] = "memory://"  # nothing leaves the process
os.environ["NEWSDESK_SCRAPE_ALLOW_PRIVATE"] = "1"  # the fake pages live on loopback
os.environ.setdefault("NEWSDESK_LOG_LEVEL", "WARNING")

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402
from django.core.management import call_command  # noqa: E402

from agents import tasks  # noqa: E402
from agents.llm import client as llm  # noqa: E402
from agents.models import LLMCall, MonitorItem, MonitorResult, Run  # noqa: E402
from agents.monitoring import common  # noqa: E402
from agents.monitoring import services as monitoring  # noqa: E402
from newsdesk.models import Reporter  # noqa: E402
from newsdesk.services import reporter_create  # noqa: E402
from tests.fakes.anthropic import FakeAnthropic, Recorded, tool_use  # noqa: E402
from tests.fakes.naver import FakeNaver, item  # noqa: E402
from tests.fakes.pages import FakePages, fake_dns, korean_paragraphs, naver_article_html  # noqa: E402

KEYWORDS = ["서울시", "경찰청", "서부지검", "서울중앙지법", "교육청"]
PER_KEYWORD = 60
SCRAPED = 60
REPORTED = 10
OUTLETS = ["www.yna.co.kr", "www.donga.com", "www.hani.co.kr", "news.kbs.co.kr", "www.mk.co.kr"]
NAVER_HOST = "n.news.naver.com"
_FILTER_LINE = re.compile(r"^\[(\d+)\] ", re.MULTILINE)
_ARTICLE_LINE = re.compile(r"^(\d+)\. \[.*?\] (.*)$", re.MULTILINE)


def build_site(naver: FakeNaver, pages: FakePages, latency: float) -> None:
    n = 0
    for keyword in KEYWORDS:
        entries = []
        for k in range(PER_KEYWORD):
            n += 1
            title = f"{keyword} 관련 주요 사안 {k}번째 보도: 정책 발표와 후속 조치"
            path = f"/mnews/article/001/{n:010d}"
            pages.add_page(path, naver_article_html(title, korean_paragraphs(n, chars=1500)), delay=latency)
            entries.append(
                item(
                    title,
                    f"https://{OUTLETS[n % len(OUTLETS)]}/view/{n}",
                    link=pages.url(path, host=NAVER_HOST),
                    description=f"{keyword} 관련 검색 요약 {k}",
                    minutes_ago=1 + k * 2,
                )
            )
        naver.add(keyword, entries)


def script_model(fake: FakeAnthropic) -> None:
    def keep_sixty(request: Recorded) -> list[dict[str, Any]]:
        numbers = [int(m.group(1)) for m in _FILTER_LINE.finditer(_prompt(request))]
        return [tool_use("filter_news", {"selected_indices": numbers[::5][:SCRAPED]})]

    def analyse(request: Recorded) -> list[dict[str, Any]]:
        listing = [(int(m.group(1)), m.group(2)) for m in _ARTICLE_LINE.finditer(_prompt(request))]
        results = [
            {
                "category": "important",
                "topic_cluster": f"사안 {n}",
                "source_indices": [n],
                "merged_indices": [],
                "title": title,
                "summary": f"{title}. 관계 기관이 2일 세부 계획을 밝혔다.",
                "reason": "후속 보도 가능성",
            }
            for n, title in listing[:REPORTED]
        ]
        skipped = [
            {"topic_cluster": f"제외 {n}", "source_indices": [n], "title": title, "reason": "s3: 단순 통계"}
            for n, title in listing[REPORTED:]
        ]
        return [tool_use("submit_analysis", {"thinking": "", "results": results, "skipped": skipped})]

    fake.respond_with(keep_sixty, expect="filter_news")
    fake.respond_with(analyse, expect="submit_analysis")


def _prompt(request: Recorded) -> str:
    content = request.messages[0]["content"]
    return content if isinstance(content, str) else "".join(b.get("text", "") for b in content)


def one_check(
    reporter: Reporter, naver: FakeNaver, fake: FakeAnthropic, scrape_times: list[float]
) -> dict[str, Any]:
    MonitorResult.objects.all().delete()  # every run starts from the same state
    MonitorItem.objects.all().delete()
    reporter.last_check_at = None
    reporter.save(update_fields=["last_check_at"])
    naver.requests.clear()
    script_model(fake)
    started = time.perf_counter()
    run = monitoring.check_request(reporter=reporter, channel=Run.Channel.API)
    tasks.monitor_check.apply(args=[run.pk])
    wall = time.perf_counter() - started
    run.refresh_from_db()
    if run.status != Run.Status.DONE:
        raise SystemExit(f"check failed: {run.error}")
    result = MonitorResult.objects.get(run=run)
    return {
        "wall": wall,
        "scrape": scrape_times[-1],
        "naver_calls": len(naver.requests),
        "llm_calls": LLMCall.objects.filter(run=run).count(),
        "searched": result.searched,
        "analysed": result.analysed,
        "not_scraped": result.not_scraped,
        "items": MonitorItem.objects.filter(run=run).count(),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--latency", type=float, default=0.0, help="server delay per page, seconds")
    args = parser.parse_args()

    call_command("migrate", verbosity=0)
    naver, pages, fake = FakeNaver(), FakePages(), FakeAnthropic()
    settings.NAVER_API_BASE_URL = naver.base_url
    settings.NAVER_CLIENT_ID, settings.NAVER_CLIENT_SECRET = naver.client_id, naver.client_secret
    settings.ANTHROPIC_BASE_URL = fake.base_url
    llm._new_client.cache_clear()
    scrape_times: list[float] = []
    real_scrape = common.scrape

    def timed_scrape(candidates: Any) -> Any:
        started = time.perf_counter()
        try:
            return real_scrape(candidates)
        finally:
            scrape_times.append(time.perf_counter() - started)

    common.scrape = timed_scrape  # type: ignore[assignment]
    # The bench runs the task itself; the request's own enqueue would only publish to nowhere.
    tasks.monitor_check.delay_on_commit = lambda *args, **kwargs: None  # type: ignore[attr-defined]
    try:
        build_site(naver, pages, args.latency)
        reporter = reporter_create(
            username="bench",
            password="bench-password-1",  # noqa: S106
            department="사회부",
            keywords=KEYWORDS,
            anthropic_key="sk-ant-bench-0000",
        )
        with fake_dns({NAVER_HOST: "127.0.0.1"}):
            figures = [one_check(reporter, naver, fake, scrape_times) for _ in range(args.runs)]
        fake.assert_complete()
    finally:
        naver.close()
        pages.close()
        fake.close()

    walls = [f["wall"] for f in figures]
    scrape = statistics.median(f["scrape"] for f in figures)
    last = figures[-1]
    peak_rss_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB on Linux
    print(f"/check end to end    {args.runs} runs: " + ", ".join(f"{w:.2f}" for w in walls) + " s")
    median = statistics.median(walls)
    print(f"median wall time     {median:.2f} s (target ≤ 5 s; includes v1's 0.5 s batch pause)")
    print(f"search results       {last['searched']} unique from {len(KEYWORDS)} keywords")
    print(f"Naver calls / check  {last['naver_calls']} (target ≤ 10)")
    print(f"LLM calls / check    {last['llm_calls']} (target 2: filter_news + submit_analysis)")
    print(f"scraped pages        {last['analysed']} ({last['not_scraped']} fell back to the description)")
    print(
        f"scraping             {scrape:.2f} s median, {last['analysed'] / scrape:.1f} pages/s (concurrency 8)"
    )
    print(f"items stored         {last['items']} ({REPORTED} reported, the rest skipped)")
    print(f"peak RSS             {peak_rss_mb:.1f} MB (whole process, fake servers included)")


if __name__ == "__main__":
    main()

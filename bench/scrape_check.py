"""Wall time, throughput and memory of `scrape_many` over 60 fake article pages.

Half the pages use the Naver News layout (served as n.news.naver.com through a patched resolver,
so the real BeautifulSoup path runs), half are ordinary outlet pages (trafilatura), each with
about 1,500 characters of Korean text. The whole real fetch path runs: URL vetting, pinned
connection, streaming read, extraction. Pages are served from loopback, so the figures are
CPU-bound parsing plus local HTTP; `--latency` adds a server-side delay per page to mimic the
network.

    uv run python bench/scrape_check.py [--runs 5] [--pages 60] [--latency 0.0]
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "newsdesk.settings")
os.environ["NEWSDESK_SCRAPE_ALLOW_PRIVATE"] = "1"  # the fake pages live on loopback

import django

django.setup()

from agents.sources.scraper import scrape_many  # noqa: E402
from tests.fakes.pages import (  # noqa: E402
    FakePages,
    fake_dns,
    generic_article_html,
    korean_paragraphs,
    naver_article_html,
)

NAVER_HOST = "n.news.naver.com"
OUTLET_HOST = "www.outlet.example"


def build_site(pages: FakePages, count: int, latency: float) -> list[tuple[str, str]]:
    targets = []
    for n in range(count):
        paragraphs = korean_paragraphs(n, chars=1500)
        title = f"벤치마크 기사 {n}"
        if n % 2 == 0:
            path = f"/mnews/article/001/{n:010d}"
            pages.add_page(path, naver_article_html(title, paragraphs), delay=latency)
            url = pages.url(path, host=NAVER_HOST)
        else:
            path = f"/news/articleView.html?idxno={n}"
            pages.add_page(path, generic_article_html(title, paragraphs), delay=latency)
            url = pages.url(path, host=OUTLET_HOST)
        targets.append((url, paragraphs[0][:80]))
    return targets


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--pages", type=int, default=60)
    parser.add_argument("--latency", type=float, default=0.0, help="server delay per page, seconds")
    args = parser.parse_args()

    pages = FakePages()
    try:
        targets = build_site(pages, args.pages, args.latency)
        with fake_dns({NAVER_HOST: "127.0.0.1", OUTLET_HOST: "127.0.0.1"}):
            scrape_many(targets[:2])  # warm-up: imports, trafilatura's first-call setup
            times = []
            for _ in range(args.runs):
                started = time.perf_counter()
                results = scrape_many(targets, concurrency=8)
                times.append(time.perf_counter() - started)
    finally:
        pages.close()

    ok = sum(result.ok for result in results)
    by_method = {m: sum(r.method == m for r in results) for m in ("naver", "generic", "description")}
    median = statistics.median(times)
    peak_rss_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB on Linux
    print(f"pages per run      {len(targets)} (concurrency 8, latency {args.latency:.3f} s)")
    print(f"runs               {args.runs}: " + ", ".join(f"{t:.3f}" for t in times) + " s")
    print(f"median wall time   {median:.3f} s")
    print(f"throughput         {len(targets) / median:.1f} pages/s")
    print(f"extracted ok       {ok}/{len(results)} {by_method}")
    print(f"peak RSS           {peak_rss_mb:.1f} MB")


if __name__ == "__main__":
    main()

"""A small newsroom for monitoring tests: Naver results, their article pages, and a model that
answers from the numbered list it was actually sent (so tests never hard-code numbers).

    world = World(fake_naver, pages)
    a = world.article("서울시", "서울시, 전세사기 피해 지원 확대", minutes_ago=10)
    answer_filter(fake_llm)                       # keep every listed article
    answer_analysis(fake_llm, report={a.title: "important"})
    run = run_check(reporter)

Article links are Naver News URLs served by the fake pages (the scraper reaches them through a
patched resolver: use the `naver_dns` context or the `world` fixture's `dns`).
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from agents import tasks
from agents.models import Run
from agents.monitoring import services as monitoring
from tests.fakes.anthropic import FakeAnthropic, Recorded, tool_use
from tests.fakes.naver import FakeNaver, item
from tests.fakes.pages import FakePages, fake_dns, korean_paragraphs, naver_article_html

NAVER_HOST = "n.news.naver.com"
_numbers = itertools.count(1)
_FILTER_LINE = re.compile(r"^\[(\d+)\] (.*?) \| (.*?) \| ", re.MULTILINE)
_ARTICLE_LINE = re.compile(r"^(\d+)\. \[(.*?)\] (.*)$", re.MULTILINE)


@dataclass(frozen=True)
class Article:
    title: str
    link: str
    originallink: str
    description: str
    paragraphs: list[str]


class World:
    def __init__(self, naver: FakeNaver, pages: FakePages) -> None:
        self.naver = naver
        self.pages = pages

    def article(
        self,
        query: str,
        title: str,
        *,
        minutes_ago: float = 5,
        outlet: str = "www.yna.co.kr",
        page: bool = True,
        description: str = "",
        paragraphs: list[str] | None = None,
    ) -> Article:
        """One search result for `query`, with its Naver page (or a 404 when page=False)."""
        n = next(_numbers)
        path = f"/mnews/article/001/{n:010d}"
        text = paragraphs if paragraphs is not None else korean_paragraphs(n, chars=1200)
        if page:
            self.pages.add_page(path, naver_article_html(title, text))
        link = self.pages.url(path, host=NAVER_HOST)
        original = f"https://{outlet}/view/{n}"
        description = description or f"{title} 관련 검색 요약 {n}"
        self.naver.add(
            query, [item(title, original, link=link, description=description, minutes_ago=minutes_ago)]
        )
        return Article(title, link, original, description, text)


@contextmanager
def naver_dns() -> Iterator[Any]:
    with fake_dns({NAVER_HOST: "127.0.0.1"}) as dns:
        yield dns


# --- reading what the model was sent --------------------------------------------------------------
def prompt_of(request: Recorded) -> str:
    """The first user message: the list and history (a re-ask appends the error after it)."""
    content = request.messages[0]["content"]
    return content if isinstance(content, str) else "".join(b.get("text", "") for b in content)


def filter_list(request: Recorded) -> dict[int, str]:
    """{number: title} of a filter_news request."""
    return {int(m.group(1)): m.group(3) for m in _FILTER_LINE.finditer(prompt_of(request))}


def article_list(request: Recorded) -> dict[int, str]:
    """{number: title} of a submit_analysis / submit_report request."""
    text = prompt_of(request).split("<articles>", 1)[1].split("</articles>", 1)[0]
    return {int(m.group(1)): m.group(3) for m in _ARTICLE_LINE.finditer(text)}


def number_of(listing: dict[int, str], title: str) -> int:
    for number, listed in listing.items():
        if listed == title:
            return number
    raise AssertionError(f"{title!r} was not in the list sent to the model: {listing}")


# --- scripted answers -----------------------------------------------------------------------------
def answer_filter(fake: FakeAnthropic, keep: Callable[[str], bool] = lambda title: True) -> None:
    """filter_news keeps the listed articles whose title passes `keep`."""

    def respond(request: Recorded) -> list[dict[str, Any]]:
        chosen = [n for n, title in filter_list(request).items() if keep(title)]
        return [tool_use("filter_news", {"selected_indices": chosen})]

    fake.respond_with(respond, expect="filter_news")


def answer_analysis(
    fake: FakeAnthropic,
    *,
    report: dict[str, str] | None = None,
    skip: dict[str, str] | None = None,
    merged: dict[str, list[str]] | None = None,
    summaries: dict[str, str] | None = None,
) -> None:
    """submit_analysis: `report` {title: category}, `skip` {title: reason}; numbers from the list."""

    def respond(request: Recorded) -> list[dict[str, Any]]:
        listing = article_list(request)
        results = [
            {
                "category": category,
                "topic_cluster": f"사안 {title[:10]}",
                "source_indices": [number_of(listing, title)],
                "merged_indices": [number_of(listing, m) for m in (merged or {}).get(title, [])],
                "title": title,
                "summary": (summaries or {}).get(title, f"{title} 요약 문장."),
                "reason": "보고 이유",
            }
            for title, category in (report or {}).items()
        ]
        skipped = [
            {
                "topic_cluster": f"제외 {title[:10]}",
                "source_indices": [number_of(listing, title)],
                "title": title,
                "reason": reason,
            }
            for title, reason in (skip or {}).items()
        ]
        return [
            tool_use(
                "submit_analysis", {"thinking": "기사1: s1:pass", "results": results, "skipped": skipped}
            )
        ]

    fake.respond_with(respond, expect="submit_analysis")


def answer_report(fake: FakeAnthropic, results: list[dict[str, Any]]) -> None:
    """submit_report: each result names its article by `title`; numbers are filled in."""

    def respond(request: Recorded) -> list[dict[str, Any]]:
        listing = article_list(request)
        filled = []
        for entry in results:
            data = {
                "summary": f"{entry['title']} 요약.",
                "reason": "데스크 참고",
                "exclusive": False,
                **entry,
            }
            data.setdefault("source_indices", [number_of(listing, entry["title"])])
            data.setdefault("merged_indices", [])
            filled.append(data)
        return [tool_use("submit_report", {"thinking": "기사1: s1:pass", "results": filled})]

    fake.respond_with(respond, expect="submit_report")


# --- running --------------------------------------------------------------------------------------
def run_check(reporter: Any) -> Run:
    run = monitoring.check_request(reporter=reporter, channel=Run.Channel.WEB)
    tasks.monitor_check.apply(args=[run.pk])
    run.refresh_from_db()
    reporter.refresh_from_db()
    return run


def run_report(reporter: Any) -> Run:
    run = monitoring.report_request(reporter=reporter, channel=Run.Channel.WEB)
    tasks.monitor_report.apply(args=[run.pk])
    run.refresh_from_db()
    reporter.refresh_from_db()
    return run

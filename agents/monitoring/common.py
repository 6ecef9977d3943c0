"""What /check and /report share: the time window, search → whitelist, scraping, history reads."""

from __future__ import annotations

import logging
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from django.utils import timezone

from agents import messages as msg
from agents.models import MONITOR_RETENTION, MonitorItem, MonitorResult, Run
from agents.monitoring.material import Candidate
from agents.sources import naver, publishers, scraper, titles
from agents.work import runs

log = logging.getLogger(__name__)
KST = ZoneInfo("Asia/Seoul")
MAX_WINDOW = timedelta(hours=3)  # v1: CHECK_MAX_WINDOW_SECONDS / REPORT_MAX_WINDOW_SECONDS
# Naver indexes an article some minutes after its pubDate: a window that starts exactly at the
# previous run misses articles published just before it but indexed just after.
# The overlap is safe because articles analysed before are dropped by URL (`seen_urls`).
WINDOW_OVERLAP = timedelta(minutes=5)
SEARCH_CAP = 300  # v1 passed max_results=300 in both pipelines
BODY_CHARS = 800  # v1's analysis cap per article body
TITLE_CHARS = 500
TEXT_CHARS = 4000


@dataclass(frozen=True)
class Window:
    start: datetime
    end: datetime


def window_for(*, last_at: datetime | None, now: datetime) -> Window:
    """v1's adaptive window: since the last successful run, at most 3 h, plus a small overlap."""
    earliest = now - MAX_WINDOW
    if last_at is None or last_at > now:
        return Window(start=earliest, end=now)
    return Window(start=max(last_at - WINDOW_OVERLAP, earliest), end=now)


def kst_day(moment: datetime) -> date:
    return moment.astimezone(KST).date()


@dataclass
class Tally:
    """Counts for the header and the web page (v1's "전체 N건" adds the pre-filter drops)."""

    searched: int = 0
    candidates: int = 0
    filtered_out: int = 0


def newest_first(item: MonitorItem) -> tuple[bool, float]:
    """Sort key: full datetimes, newest first, undated last (v1 sorted "HH:MM" strings, which put
    00:10 after 23:50)."""
    return (item.pub_time is None, -(item.pub_time.timestamp() if item.pub_time else 0.0))


@dataclass(frozen=True)
class Gathered:
    searched: int  # unique Naver results in the window
    items: list[tuple[naver.NewsItem, str]]  # (item, publisher) after every code filter


def gather(*, keywords: Sequence[str], since: datetime, seen: set[str], check_titles: bool) -> Gathered:
    """Naver search → publisher whitelist → (check) title tags → drop articles analysed before."""
    found = naver.search_news(keywords=keywords, since=since, max_results=SEARCH_CAP)
    kept = publishers.filter_by_publisher(found)
    if check_titles:
        kept = [(item, name) for item, name in kept if not titles.is_skipped_for_check(item.title)]
    fresh = [(item, name) for item, name in kept if not ({item.link, item.originallink} & seen)]
    log.info(
        "monitor gather: %d found, %d whitelisted, %d new (%d seen before)",
        len(found),
        len(kept),
        len(fresh),
        len(kept) - len(fresh),
    )
    return Gathered(searched=len(found), items=fresh)


def as_candidates(items: Sequence[tuple[naver.NewsItem, str]]) -> list[Candidate]:
    return [
        Candidate(
            title=item.title,
            publisher=name,
            description=item.description,
            link=item.link,
            originallink=item.originallink,
            pub_date=item.pub_date,
        )
        for item, name in items
    ]


def scrape(candidates: Sequence[Candidate]) -> list[Candidate]:
    """Bodies (≤ 800 chars) from the Naver link; a failed page keeps its description, flagged."""
    targets = [(c.url, c.description) for c in candidates]
    pages = scraper.scrape_many(targets, max_chars=BODY_CHARS)
    return [
        Candidate(
            title=c.title,
            publisher=c.publisher,
            description=c.description,
            link=c.link,
            originallink=c.originallink,
            pub_date=c.pub_date,
            body=page.text,
            scraped=page.ok,
        )
        for c, page in zip(candidates, pages, strict=True)
    ]


def scrape_for(run: Run, candidates: Sequence[Candidate]) -> list[Candidate]:
    """`scrape` with the run's stage and a warning event for pages read from their description."""
    stage(run, "scrape", msg.STAGE_MONITOR_SCRAPE.format(count=len(candidates)))
    scraped = scrape(candidates)
    missing = sum(not c.scraped for c in scraped)
    if missing:
        runs.event_add(run=run, kind="warning", message=msg.MONITOR_NOT_SCRAPED.format(count=missing))
    return scraped


def seen_urls(*, reporter_id: int, kind: str, since: datetime) -> set[str]:
    """URLs of every article analysed by this reporter's successful runs of `kind` since then."""
    rows = MonitorResult.objects.filter(
        run__reporter_id=reporter_id, run__kind=kind, created_at__gte=since
    ).values_list("seen_urls", flat=True)
    return {url for urls in rows for url in (urls or []) if url}


def urls_of(candidates: Iterable[Candidate]) -> list[str]:
    return list(dict.fromkeys(url for c in candidates for url in (c.link, c.originallink) if url))


def retention_cutoff() -> datetime:
    return timezone.now() - MONITOR_RETENTION


def stage(run: Run, name: str, message: str) -> None:
    runs.stage_set(run=run, stage=name, message=message)


def info(run: Run, message: str) -> None:
    runs.event_add(run=run, kind="info", message=message)


def clip(text: Any, limit: int = TEXT_CHARS) -> str:
    return str(text or "").strip()[:limit]

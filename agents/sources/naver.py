"""The one seam for the Naver News Search API (`GET /v1/search/news.json`).

v1's rules: `sort=date`, up to 2 pages of 100 per keyword,
keywords in batches of 3 run concurrently with 0.5 s between batches, dedup by `originallink`,
newest first, capped at 300, tags stripped and entities unescaped, `pubDate` as an aware
datetime, client-side window filter on `since`.

Differences from v1, on purpose:
- A 429 means Naver's *daily* quota is gone (Naver's error guide), so we stop at once, remember
  it in `NaverUsage.exhausted` for the rest of the KST day and never retry-loop it.
- Every call is counted in `NaverUsage` (shared by all processes) and refused from 24,500 on,
  below Naver's 25,000/day, so one busy day cannot starve the whole service mid-run.
- Timeouts, connection errors and 5xx get one retry, then a typed error; other 4xx are typed
  errors too (v1 aborted the pipeline with a raw httpx exception).
- Explicit 5 s timeout (v1 had none).

Database access (the usage counter) stays on the caller's thread: the worker threads only do
HTTP. That keeps Django's per-thread connections out of the picture (tests run inside one
transaction, Celery workers hold one connection).
"""

from __future__ import annotations

import html
import logging
import re
import time
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import date, datetime
from email.utils import parsedate_to_datetime
from typing import Any, Literal
from zoneinfo import ZoneInfo

import httpx
from django.conf import settings
from django.db.models import F
from django.utils import timezone

from agents.models import NaverUsage

NAVER_CREDENTIALS_MISSING = (
    "서버에 네이버 검색 API 키(NAVER_CLIENT_ID, NAVER_CLIENT_SECRET)가 설정되어 있지 않습니다. "
    "관리자에게 문의해 주세요."
)
NAVER_CREDENTIALS_REJECTED = (
    "네이버 검색 API가 서버의 API 키를 거부했습니다(401). 관리자에게 키 설정을 확인해 달라고 요청해 주세요."
)
NAVER_QUOTA_EXHAUSTED = "오늘 네이버 뉴스 검색 호출 한도를 모두 사용했습니다. 내일 다시 시도해 주세요."
NAVER_UNAVAILABLE = "네이버 뉴스 검색이 일시적으로 응답하지 않습니다. 잠시 후 다시 시도해 주세요."
NAVER_BAD_REQUEST = "네이버 뉴스 검색이 요청을 거부했습니다. 키워드를 확인한 뒤 다시 시도해 주세요."

log = logging.getLogger(__name__)

KST = ZoneInfo("Asia/Seoul")
SEARCH_PATH = "/v1/search/news.json"
PAGE_SIZE = 100
MAX_PAGES_PER_KEYWORD = 2
BATCH_SIZE = 3
BATCH_PAUSE_SECONDS = 0.5
RETRY_PAUSE_SECONDS = 0.3
TIMEOUT_SECONDS = 5.0
DAILY_CALL_LIMIT = 24_500  # Naver allows 25,000 search calls per app and day; keep a margin
MAX_RESULTS_DEFAULT = 300

_TAG = re.compile(r"<[^>]+>")
_RETRYABLE_STATUS = frozenset({500, 502, 503, 504})

# Module-level so tests can replace it with a recorder instead of sleeping.
_sleep: Callable[[float], None] = time.sleep
# One pooled client for the process (thread-safe). The URL and keys are read from settings on
# every call so tests can point it at a fake server.
_client = httpx.Client(headers={"Accept": "application/json"})

ErrorCode = Literal["credentials", "quota", "unavailable", "bad_request"]


@dataclass(frozen=True)
class NewsItem:
    title: str
    description: str
    originallink: str
    link: str
    pub_date: datetime  # aware, Asia/Seoul

    @property
    def key(self) -> str:
        """Identity for dedup: the publisher URL, or Naver's link when Naver gave none."""
        return self.originallink or self.link


class NaverError(Exception):
    """A search could not be done. `user_message` is Korean and safe to show the reporter."""

    def __init__(self, code: ErrorCode, user_message: str, detail: str = "") -> None:
        super().__init__(f"naver {code}: {detail or code}")
        self.code: ErrorCode = code
        self.user_message = user_message
        self.detail = detail

    def __reduce__(self) -> tuple[type[NaverError], tuple[ErrorCode, str, str]]:
        # Celery and multiprocessing pickle exceptions; keep all three fields across the trip.
        return (type(self), (self.code, self.user_message, self.detail))


# --- public API -------------------------------------------------------------------------------
def search_news(
    *, keywords: Sequence[str], since: datetime | None = None, max_results: int = MAX_RESULTS_DEFAULT
) -> list[NewsItem]:
    """Newest articles for the keywords, deduplicated, newest first, at most `max_results`."""
    queries = _clean_keywords(keywords)
    if not queries:
        return []
    _require_aware(since)
    credentials = _credentials()
    per_keyword: dict[str, list[NewsItem]] = {}
    batches = [queries[i : i + BATCH_SIZE] for i in range(0, len(queries), BATCH_SIZE)]
    for number, batch in enumerate(batches):
        if number:
            _sleep(BATCH_PAUSE_SECONDS)  # v1's rate-limit courtesy between batches
        per_keyword.update(_search_batch(batch, since=since, credentials=credentials))
    merged = _dedup(item for query in queries for item in per_keyword[query])
    merged.sort(key=lambda item: item.pub_date, reverse=True)
    log.info("naver search: %d keywords, %d unique items", len(queries), len(merged))
    return merged[:max_results]


def search_one(*, query: str, display: int = 20, since: datetime | None = None) -> list[NewsItem]:
    """One call (sort=date, start=1) for the writing agent's news lookup."""
    if not query.strip():
        return []
    _require_aware(since)
    credentials = _credentials()
    request = _PageRequest(query=query.strip(), start=1, display=max(1, min(display, PAGE_SIZE)))
    (page,) = _fetch_pages([request], credentials=credentials)
    return _dedup(_within(page, since))


# --- paging and batching ----------------------------------------------------------------------
@dataclass(frozen=True)
class _PageRequest:
    query: str
    start: int
    display: int = PAGE_SIZE


@dataclass
class _Outcome:
    request: _PageRequest
    items: list[NewsItem] = field(default_factory=list)
    status: int | None = None  # HTTP status when Naver answered with an error
    transport_error: str = ""  # timeout / connection failure


def _search_batch(
    queries: Sequence[str], *, since: datetime | None, credentials: tuple[str, str]
) -> dict[str, list[NewsItem]]:
    """Pages through up to 3 keywords at once: page 1 of each, then page 2 where still needed."""
    collected: dict[str, list[NewsItem]] = {query: [] for query in queries}
    pending = [_PageRequest(query=query, start=1) for query in queries]
    for _ in range(MAX_PAGES_PER_KEYWORD):
        if not pending:
            break
        pages = _fetch_pages(pending, credentials=credentials)
        next_round: list[_PageRequest] = []
        for request, page in zip(pending, pages, strict=True):
            collected[request.query].extend(_within(page, since))
            if _wants_next_page(page, since):
                next_round.append(_PageRequest(query=request.query, start=request.start + PAGE_SIZE))
        pending = next_round
    return collected


def _wants_next_page(page: list[NewsItem], since: datetime | None) -> bool:
    # v1: stop on an empty or short page, or once the page reaches back past the window
    # (sort=date, so everything on later pages is older still).
    if len(page) < PAGE_SIZE:
        return False
    return not (since is not None and min(item.pub_date for item in page) < since)


def _fetch_pages(requests: Sequence[_PageRequest], *, credentials: tuple[str, str]) -> list[list[NewsItem]]:
    """Runs the requests concurrently; transient failures get exactly one more try."""
    outcomes = _run_concurrently(requests, credentials=credentials)
    _raise_on_permanent_failure(outcomes)
    failed = [index for index, outcome in enumerate(outcomes) if _is_transient(outcome)]
    if failed:
        log.warning("naver: %d transient failures, retrying once", len(failed))
        _sleep(RETRY_PAUSE_SECONDS)
        retried = _run_concurrently([requests[i] for i in failed], credentials=credentials)
        _raise_on_permanent_failure(retried)
        for index, outcome in zip(failed, retried, strict=True):
            if _is_transient(outcome):
                raise NaverError("unavailable", NAVER_UNAVAILABLE, _describe(outcome))
            outcomes[index] = outcome
    return [outcome.items for outcome in outcomes]


def _run_concurrently(requests: Sequence[_PageRequest], *, credentials: tuple[str, str]) -> list[_Outcome]:
    for _ in requests:
        _reserve_call()  # on this thread: the DB connection belongs to the caller
    if len(requests) == 1:
        return [_call(requests[0], credentials)]
    with ThreadPoolExecutor(max_workers=len(requests), thread_name_prefix="naver") as pool:
        return list(pool.map(lambda request: _call(request, credentials), requests))


def _raise_on_permanent_failure(outcomes: Sequence[_Outcome]) -> None:
    statuses = {outcome.status for outcome in outcomes if outcome.status is not None}
    if 429 in statuses:
        _mark_exhausted()
        raise NaverError("quota", NAVER_QUOTA_EXHAUSTED, "HTTP 429: daily quota exceeded")
    if 401 in statuses:
        raise NaverError("credentials", NAVER_CREDENTIALS_REJECTED, "HTTP 401")
    for outcome in outcomes:
        if outcome.status is not None and outcome.status not in _RETRYABLE_STATUS:
            raise NaverError("bad_request", NAVER_BAD_REQUEST, _describe(outcome))


def _is_transient(outcome: _Outcome) -> bool:
    return bool(outcome.transport_error) or outcome.status in _RETRYABLE_STATUS


def _describe(outcome: _Outcome) -> str:
    what = outcome.transport_error or f"HTTP {outcome.status}"
    return f"{what} for query={outcome.request.query!r} start={outcome.request.start}"


# --- one HTTP call (worker threads: no database here) -----------------------------------------
def _call(request: _PageRequest, credentials: tuple[str, str]) -> _Outcome:
    client_id, client_secret = credentials
    params: dict[str, str | int] = {
        "query": request.query,
        "display": request.display,
        "start": request.start,
        "sort": "date",
    }
    headers = {"X-Naver-Client-Id": client_id, "X-Naver-Client-Secret": client_secret}
    url = str(settings.NAVER_API_BASE_URL).rstrip("/") + SEARCH_PATH
    try:
        response = _client.get(url, params=params, headers=headers, timeout=TIMEOUT_SECONDS)
    except httpx.TimeoutException:
        return _Outcome(request, transport_error="timeout")
    except httpx.TransportError as exc:
        return _Outcome(request, transport_error=f"connection failed ({type(exc).__name__})")
    if response.status_code != 200:
        log.warning(
            "naver: HTTP %s for query=%r start=%s: %s",
            response.status_code,
            request.query,
            request.start,
            response.text[:200],
        )
        return _Outcome(request, status=response.status_code)
    try:
        payload = response.json()
    except ValueError:
        return _Outcome(request, status=502)  # a garbled 200 is treated like a gateway error
    return _Outcome(request, items=_parse_items(payload.get("items") or []))


# --- parsing ----------------------------------------------------------------------------------
def _parse_items(raw_items: Iterable[dict[str, Any]]) -> list[NewsItem]:
    items = []
    for raw in raw_items:
        pub_date = _parse_pub_date(str(raw.get("pubDate", "")))
        if pub_date is None:
            log.warning("naver: skipping an item with an unreadable pubDate %r", raw.get("pubDate"))
            continue
        items.append(
            NewsItem(
                title=clean_text(str(raw.get("title", ""))),
                description=clean_text(str(raw.get("description", ""))),
                originallink=str(raw.get("originallink") or "").strip(),
                link=str(raw.get("link") or "").strip(),
                pub_date=pub_date,
            )
        )
    return items


def clean_text(value: str) -> str:
    """Naver marks query terms with <b> and escapes entities (&quot; broke v1's title matching)."""
    return html.unescape(_TAG.sub("", value)).strip()


def _parse_pub_date(value: str) -> datetime | None:
    try:
        parsed = parsedate_to_datetime(value)
    except (TypeError, ValueError, IndexError):
        return None
    if parsed.tzinfo is None:  # "-0000" means "unknown zone": Naver always sends +0900
        parsed = parsed.replace(tzinfo=KST)
    return parsed.astimezone(KST)


def _within(items: Iterable[NewsItem], since: datetime | None) -> list[NewsItem]:
    return [item for item in items if since is None or item.pub_date >= since]


def _dedup(items: Iterable[NewsItem]) -> list[NewsItem]:
    seen: set[str] = set()
    unique = []
    for item in items:
        if item.key and item.key in seen:
            continue
        seen.add(item.key)
        unique.append(item)
    return unique


def _clean_keywords(keywords: Sequence[str]) -> list[str]:
    cleaned = (keyword.strip() for keyword in keywords)
    return list(dict.fromkeys(keyword for keyword in cleaned if keyword))


def _require_aware(since: datetime | None) -> None:
    if since is not None and timezone.is_naive(since):
        raise ValueError("since must be timezone-aware")


# --- credentials and the daily quota ----------------------------------------------------------
def _credentials() -> tuple[str, str]:
    client_id = str(getattr(settings, "NAVER_CLIENT_ID", "") or "")
    client_secret = str(getattr(settings, "NAVER_CLIENT_SECRET", "") or "")
    if not client_id or not client_secret:
        raise NaverError("credentials", NAVER_CREDENTIALS_MISSING, "NAVER_CLIENT_ID/SECRET not set")
    return client_id, client_secret


def _kst_today() -> date:
    return timezone.now().astimezone(KST).date()


def _reserve_call() -> None:
    """Counts one call for today (KST) or refuses it; one conditional UPDATE, so it is atomic."""
    day = _kst_today()
    NaverUsage.objects.get_or_create(day=day)
    counted = NaverUsage.objects.filter(day=day, exhausted=False, calls__lt=DAILY_CALL_LIMIT).update(
        calls=F("calls") + 1
    )
    if not counted:
        log.warning("naver: call refused, daily quota used up for %s", day)
        raise NaverError("quota", NAVER_QUOTA_EXHAUSTED, f"daily limit reached for {day}")


def _mark_exhausted() -> None:
    day = _kst_today()
    NaverUsage.objects.update_or_create(day=day, defaults={"exhausted": True})
    log.warning("naver: HTTP 429, quota marked exhausted for %s", day)

"""A scriptable Naver News Search API (`GET /v1/search/news.json`) on loopback.

The real client (`agents.sources.naver`) talks HTTP to it. Script it per query:

    fake.add("반도체", [item("삼성 반도체 투자", "https://www.yna.co.kr/view/1", minutes_ago=5), ...])
    fake.fail(429)                  # the next request gets Naver's quota error
    fake.fail(500, times=2)         # the next two requests get a 500
    fake.stall(2.0)                 # the next request answers only after 2 s (client timeouts)

Answers are shaped like Naver's: `items` sorted newest first for `sort=date`, sliced by
`start`/`display`; the query term is wrapped in `<b>` in titles and descriptions and text is
HTML-escaped (`&quot;`), `pubDate` is RFC 822 in +0900. Unknown queries get an empty page.
Wrong or missing X-Naver-Client-Id/Secret headers get a 401 like the real API. Every request is
recorded (`requests`) with its query, start, display, sort and headers.
"""

from __future__ import annotations

import html
import json
import threading
import time
import zlib
from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from email.utils import format_datetime, parsedate_to_datetime
from typing import Any
from urllib.parse import parse_qs, urlsplit
from zoneinfo import ZoneInfo

from tests.fakes.server import Loopback, QuietHandler

KST = ZoneInfo("Asia/Seoul")
CLIENT_ID = "fake-naver-id"
CLIENT_SECRET = "fake-naver-secret"
ERROR_BODIES = {
    400: ("SE01", "Incorrect query request (잘못된 쿼리요청입니다.)"),
    401: ("024", "Authentication failed (인증에 실패했습니다.)"),
    403: ("SE05", "Invalid API Key"),
    429: ("010", "Rate limit exceeded. (호출 한도를 초과했습니다.)"),
    500: ("SE99", "System Error (시스템 에러)"),
}


def item(
    title: str,
    originallink: str,
    link: str | None = None,
    description: str = "",
    *,
    minutes_ago: float = 0,
    now: datetime | None = None,
) -> dict[str, Any]:
    """One Naver-shaped item; text is HTML-escaped like the API's (`"` becomes `&quot;`).

    `link` defaults to a Naver News URL; pass "" to model an outlet Naver does not host.
    """
    published = (now or datetime.now(KST)).astimezone(KST) - timedelta(minutes=minutes_ago)
    return {
        "title": html.escape(title),
        "originallink": originallink,
        "link": f"https://n.news.naver.com/mnews/article/001/{zlib.crc32(originallink.encode()):010d}"
        if link is None
        else link,
        "description": html.escape(description),
        "pubDate": format_datetime(published.replace(microsecond=0)),
    }


def items_between(
    prefix: str,
    count: int,
    *,
    first_minutes_ago: float = 0,
    step_minutes: float = 1,
    domain: str = "www.yna.co.kr",
) -> list[dict[str, Any]]:
    """`count` distinct items, one every `step_minutes`, the newest `first_minutes_ago` old."""
    return [
        item(
            f"{prefix} 기사 {n}",
            f"https://{domain}/view/{prefix}-{n}",
            description=f"{prefix} 관련 설명 {n}",
            minutes_ago=first_minutes_ago + n * step_minutes,
        )
        for n in range(count)
    ]


@dataclass
class NaverRequest:
    query: str
    start: int
    display: int
    sort: str
    headers: dict[str, str]
    at: float


@dataclass
class _Failure:
    status: int
    delay: float = 0.0


@dataclass
class FakeNaver:
    client_id: str = CLIENT_ID
    client_secret: str = CLIENT_SECRET
    results: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    requests: list[NaverRequest] = field(default_factory=list)
    latency: float = 0.0

    def __post_init__(self) -> None:
        self._lock = threading.Lock()
        self._failures: deque[_Failure] = deque()
        fake = self

        class Handler(QuietHandler):
            def do_GET(self) -> None:
                status, payload, delay = fake._handle(self.path, dict(self.headers.items()))
                if delay:
                    time.sleep(delay)
                data = json.dumps(payload, ensure_ascii=False).encode()
                self.send_body(status, data, "application/json; charset=UTF-8")

        self.http = Loopback(Handler)

    # --- scripting ------------------------------------------------------------------------------
    @property
    def base_url(self) -> str:
        return self.http.origin

    def add(self, query: str, items: Iterable[dict[str, Any]]) -> None:
        """Adds items answered for `query` (kept newest first when sort=date)."""
        with self._lock:
            self.results.setdefault(query, []).extend(_highlight(query, entry) for entry in items)

    def add_many(self, mapping: dict[str, Iterable[dict[str, Any]]]) -> None:
        for query, items in mapping.items():
            self.add(query, items)

    def fail(self, status: int, *, times: int = 1) -> None:
        """The next `times` requests (whatever their query) get this HTTP error."""
        with self._lock:
            self._failures.extend(_Failure(status) for _ in range(times))

    def stall(self, seconds: float, *, times: int = 1) -> None:
        """The next `times` requests answer (normally) only after `seconds`."""
        with self._lock:
            self._failures.extend(_Failure(200, delay=seconds) for _ in range(times))

    def queries(self) -> list[str]:
        return [request.query for request in self.requests]

    def calls_for(self, query: str) -> list[NaverRequest]:
        return [request for request in self.requests if request.query == query]

    def close(self) -> None:
        self.http.close()

    # --- serving --------------------------------------------------------------------------------
    def _handle(self, path: str, headers: dict[str, str]) -> tuple[int, dict[str, Any], float]:
        parts = urlsplit(path)
        params = {key: values[0] for key, values in parse_qs(parts.query).items()}
        lowered = {key.lower(): value for key, value in headers.items()}
        request = NaverRequest(
            query=params.get("query", ""),
            start=int(params.get("start", "1")),
            display=int(params.get("display", "10")),
            sort=params.get("sort", "sim"),
            headers=lowered,
            at=time.monotonic(),
        )
        with self._lock:
            self.requests.append(request)
            failure = self._failures.popleft() if self._failures else None
        if parts.path != "/v1/search/news.json":
            return 404, _error(404), 0.0
        if failure is not None and failure.status != 200:
            return failure.status, _error(failure.status), 0.0
        if lowered.get("x-naver-client-id") != self.client_id or (
            lowered.get("x-naver-client-secret") != self.client_secret
        ):
            return 401, _error(401), 0.0
        if not request.query or not 1 <= request.display <= 100 or not 1 <= request.start <= 1000:
            return 400, _error(400), 0.0
        delay = (failure.delay if failure else 0.0) or self.latency
        return 200, self._page(request), delay

    def _page(self, request: NaverRequest) -> dict[str, Any]:
        with self._lock:
            found = list(self.results.get(request.query, []))
        if request.sort == "date":
            found.sort(key=_published, reverse=True)
        page = found[request.start - 1 : request.start - 1 + request.display]
        return {
            "lastBuildDate": format_datetime(datetime.now(KST).replace(microsecond=0)),
            "total": len(found),
            "start": request.start,
            "display": len(page),
            "items": page,
        }


def _published(entry: dict[str, Any]) -> float:
    try:
        return parsedate_to_datetime(entry["pubDate"]).timestamp()
    except (TypeError, ValueError):
        return float("-inf")  # unreadable dates sort last (tests of the client's parser use them)


def _highlight(query: str, entry: dict[str, Any]) -> dict[str, Any]:
    escaped = html.escape(query)
    marked = dict(entry)
    for key in ("title", "description"):
        if escaped and escaped in marked[key] and "<b>" not in marked[key]:
            marked[key] = marked[key].replace(escaped, f"<b>{escaped}</b>")
    return marked


def _error(status: int) -> dict[str, Any]:
    code, message = ERROR_BODIES.get(status, ("SE99", "error"))
    return {"errorMessage": message, "errorCode": code}

"""Fake article pages on loopback, for the scraper and everything that scrapes.

`FakePages` is a threaded HTTP server on 127.0.0.1 with a set of built-in pages (paths below)
and `add_page` / `add_redirect` / `add_huge` / `add_drip` for more. It records every request
(path, headers) and the highest number of requests in flight at once (`max_in_flight`), so
tests can check the scraper's concurrency cap.

Loopback is itself a private address: tests must set `NEWSDESK_SCRAPE_ALLOW_PRIVATE=True`,
which lets the scraper reach 127.0.0.0/8 and ::1 only (never 10/8, 169.254/16…). To serve a
page under a real-looking host name (the Naver rules apply on n.news.naver.com only), use
`fake_dns({"n.news.naver.com": "127.0.0.1"})` and `pages.url(path, host="n.news.naver.com")`:
the scraper resolves the name through the patched `socket.getaddrinfo` and connects to the
pinned address, sending `Host: n.news.naver.com:<port>`.

Built-in pages:
    NAVER_PATH            Naver layout: #dic_area with a photo caption, a summary box, a bold
                          subheading, marker lines; byline outside the body
    NAVER_P_PATH          Naver layout with <p> paragraphs (v1's paragraph pass)
    GENERIC_PATH          an outlet page: nav, ads, related links, the story in <article>
    CP949_NO_CHARSET_PATH CP949 bytes, no charset in the header, no <meta charset>
    CP949_WRONG_CHARSET_PATH  CP949 bytes served as "charset=iso-8859-1"
    REDIRECT_PRIVATE_PATH 302 to http://10.0.0.1/x
    REDIRECT_METADATA_PATH 302 to http://169.254.169.254/latest/meta-data/
    HUGE_PATH             64 MB of HTML, generated while streaming (see `bytes_sent`)
    SLOW_PATH             answers after 5 s
    MISSING_PATH          404 (so does any unknown path)
"""

from __future__ import annotations

import html
import ipaddress
import itertools
import socket
import threading
import time
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler
from typing import Any
from unittest import mock

from tests.fakes.server import Loopback, QuietHandler

NAVER_PATH = "/mnews/article/001/0015000001"
NAVER_P_PATH = "/mnews/article/001/0015000002"
GENERIC_PATH = "/news/articleView.html"
CP949_NO_CHARSET_PATH = "/cp949/no-charset"
CP949_WRONG_CHARSET_PATH = "/cp949/wrong-charset"
REDIRECT_PRIVATE_PATH = "/redirect/private"
REDIRECT_METADATA_PATH = "/redirect/metadata"
HUGE_PATH = "/huge"
SLOW_PATH = "/slow"
MISSING_PATH = "/missing"
HUGE_SIZE = 64 * 1024 * 1024
SLOW_SECONDS = 5.0

# --- realistic Korean article text --------------------------------------------------------------
_SUBJECTS = (
    "정부는",
    "서울시는",
    "금융위원회는",
    "한국은행은",
    "국토교통부는",
    "산업통상자원부는",
    "경찰청은",
    "교육부는",
    "보건복지부는",
    "공정거래위원회는",
)
_TOPICS = (
    "전세 사기 피해 지원 대책",
    "반도체 수출 회복 방안",
    "기준금리 동결 배경",
    "청년 주거 안정 정책",
    "의대 정원 조정 계획",
    "소상공인 금융 지원책",
    "전기요금 인상 여부",
    "저출생 대응 예산안",
    "대중교통 요금 체계 개편",
    "플랫폼 독과점 규제안",
)
_CLAIMS = (
    "관련 예산 {n}억원을 추가로 투입하기로 했다고 밝혔다",
    "올해 상반기 대비 {p}% 늘어난 규모라고 설명했다",
    "다음 달 {d}일부터 시행할 예정이라고 덧붙였다",
    "전문가 {n}명의 의견을 수렴해 세부안을 마련했다고 전했다",
    "지난해 같은 기간보다 {p}% 감소한 수치라고 분석했다",
    "현장 점검을 거쳐 {d}월 중 최종안을 확정할 방침이다",
)


def korean_paragraphs(seed: int, *, chars: int = 1500) -> list[str]:
    """Deterministic news-style paragraphs totalling about `chars` characters."""
    paragraphs: list[str] = []
    total = 0
    for index in itertools.count():
        subject = _SUBJECTS[(seed + index) % len(_SUBJECTS)]
        topic = _TOPICS[(seed * 3 + index) % len(_TOPICS)]
        numbers = {
            "n": 10 + (seed * 7 + index * 13) % 900,
            "p": 1 + (seed + index * 5) % 40,
            "d": 1 + index % 28,
        }
        first = _CLAIMS[(seed + index) % len(_CLAIMS)].format(**numbers)
        second = _CLAIMS[(seed + index + 2) % len(_CLAIMS)].format(**numbers)
        paragraph = (
            f"{subject} {index + 1}일 {topic}에 대한 브리핑을 열고 {first}. "
            f"담당 관계자는 기자들과 만나 이번 조치가 현장의 요구를 반영한 결과라며 {second}."
        )
        paragraphs.append(paragraph)
        total += len(paragraph)
        if total >= chars:
            return paragraphs
    raise AssertionError("unreachable")


# --- page builders ------------------------------------------------------------------------------
NAVER_CAPTION = "서울 여의도 정부서울청사에서 열린 브리핑 모습. 연합뉴스 자료사진"
NAVER_SUMMARY = "정부, 전세 사기 대책 발표 요약 박스"
NAVER_SUBHEADING = "피해자 지원 어떻게 달라지나"
NAVER_MARKER_LINE = "▶ 관련 기사 더 보기"
NAVER_BYLINE = "홍길동 기자 hong@example.co.kr"


def naver_article_html(
    title: str,
    paragraphs: Sequence[str],
    *,
    use_p_tags: bool = False,
    caption: str = NAVER_CAPTION,
    summary: str = NAVER_SUMMARY,
    subheading: str = NAVER_SUBHEADING,
    marker_line: str = NAVER_MARKER_LINE,
    byline: str = NAVER_BYLINE,
) -> str:
    """A page shaped like n.news.naver.com/mnews/article/… (2024–2026 layout)."""
    half = max(1, len(paragraphs) // 2)
    if use_p_tags:
        body = "\n".join(f"<p>{html.escape(p)}</p>" for p in paragraphs[:half])
        body += f"\n<p><strong>{html.escape(subheading)}</strong></p>\n<p>{html.escape(marker_line)}</p>\n"
        body += "\n".join(f"<p>{html.escape(p)}</p>" for p in paragraphs[half:])
    else:
        body = "<br><br>\n".join(html.escape(p) for p in paragraphs[:half])
        body += (
            f"<br><br>\n<strong>{html.escape(subheading)}</strong><br><br>\n{html.escape(marker_line)}<br>\n"
        )
        body += "<br><br>\n".join(html.escape(p) for p in paragraphs[half:])
    return f"""<!doctype html>
<html lang="ko"><head><meta charset="utf-8"><title>{html.escape(title)} : 네이버 뉴스</title></head>
<body>
<div id="ct" class="newsct">
  <div class="media_end_head">
    <h2 id="title_area" class="media_end_head_headline"><span>{html.escape(title)}</span></h2>
    <span class="media_end_head_info_datestamp_time _ARTICLE_DATE_TIME"
          data-date-time="2026-03-02 09:15:00">2026.03.02. 오전 9:15</span>
  </div>
  <div id="newsct_article" class="newsct_article _article_body">
    <article id="dic_area" class="go_trans _article_content">
      <strong class="media_end_summary">{html.escape(summary)}</strong>
      <span class="end_photo_org"><img src="https://imgnews.pstatic.net/x.jpg" alt="">
        <em class="img_desc">{html.escape(caption)}</em></span>
      {body}
    </article>
  </div>
  <div class="byline"><p class="byline_p"><span class="byline_s">{html.escape(byline)}</span></p></div>
  <div class="copyright"><p>Copyright ⓒ 연합뉴스. All rights reserved. 무단 전재-재배포 금지.</p></div>
</div>
</body></html>"""


GENERIC_NAV = "전체기사 정치 경제 사회 국제 문화 스포츠 로그인 회원가입"
GENERIC_AD = "지금 가입하면 최대 50% 할인 혜택을 드립니다"
GENERIC_RELATED = "[관련기사] 다른 언론사 단독 인터뷰 모음"


def generic_article_html(title: str, paragraphs: Sequence[str], *, outlet: str = "데일리뉴스") -> str:
    """An ordinary outlet page: navigation, ads and related links around an <article>."""
    story = "\n".join(f"<p>{html.escape(p)}</p>" for p in paragraphs)
    menu = "".join(f"<li><a href='#'>{word}</a></li>" for word in GENERIC_NAV.split())
    related = "\n".join(
        f'<li><a href="/news/{n}">{html.escape(GENERIC_RELATED)} {n}</a></li>' for n in range(1, 6)
    )
    return f"""<!doctype html>
<html lang="ko"><head><meta charset="utf-8">
<title>{html.escape(title)} - {html.escape(outlet)}</title></head>
<body>
<header><nav class="gnb"><ul>{menu}</ul></nav></header>
<div class="ad-banner"><a href="/ad">{html.escape(GENERIC_AD)}</a></div>
<main>
  <article class="article-view">
    <h1 class="headline">{html.escape(title)}</h1>
    <div class="byline">김기자 기자 입력 2026.03.02 09:15</div>
    <div id="article-body">
{story}
    </div>
  </article>
  <aside class="related"><h3>관련기사</h3><ul>{related}</ul></aside>
  <div class="ad-bottom"><a href="/ad2">{html.escape(GENERIC_AD)}</a></div>
</main>
<footer><p>{html.escape(outlet)} | 서울특별시 중구 세종대로 | 대표전화 02-000-0000
 | 무단전재 및 재배포 금지</p></footer>
</body></html>"""


NAVER_PARAGRAPHS = korean_paragraphs(1, chars=1200)
GENERIC_PARAGRAPHS = korean_paragraphs(2, chars=1200)
CP949_PARAGRAPHS = korean_paragraphs(3, chars=900)
CP949_TITLE = "지방 공항 활성화 방안 발표"


def _cp949_page() -> bytes:
    # No <meta charset>: only the bytes tell the encoding.
    story = "\n".join(f"<p>{html.escape(p)}</p>" for p in CP949_PARAGRAPHS)
    page = (
        "<html><head><title>" + CP949_TITLE + "</title></head><body>"
        "<nav><a href='/'>홈</a> <a href='/politics'>정치</a></nav>"
        f"<article><h1>{CP949_TITLE}</h1>{story}</article>"
        "<footer>지역신문 | 무단전재 금지</footer></body></html>"
    )
    return page.encode("cp949")


# --- the server ---------------------------------------------------------------------------------
@dataclass
class Page:
    body: bytes = b""
    status: int = 200
    content_type: str = "text/html; charset=utf-8"
    headers: dict[str, str] = field(default_factory=dict)
    delay: float = 0.0  # seconds before the status line
    stream_size: int = 0  # > 0: generate this many bytes while sending (body unused)
    drip_interval: float = 0.0  # > 0: send the body one byte at a time with this pause


@dataclass
class SeenRequest:
    path: str
    headers: dict[str, str]
    at: float


class FakePages:
    def __init__(self, *, tls_context: Any = None) -> None:
        self.pages: dict[str, Page] = {}
        self.requests: list[SeenRequest] = []
        self.bytes_sent: dict[str, int] = {}
        self.in_flight = 0
        self.max_in_flight = 0
        self._lock = threading.Lock()
        self._add_builtins()
        fake = self

        class Handler(QuietHandler):
            def do_GET(self) -> None:
                fake._serve(self)

        self.http = Loopback(Handler, tls=tls_context)
        self.scheme = self.http.scheme

    # --- scripting ------------------------------------------------------------------------------
    @property
    def port(self) -> int:
        return self.http.port

    def url(self, path: str, *, host: str = "127.0.0.1") -> str:
        return f"{self.scheme}://{host}:{self.port}{path}"

    def add_page(
        self,
        path: str,
        html: str | bytes,
        *,
        charset: str | None = "utf-8",
        status: int = 200,
        headers: Mapping[str, str] | None = None,
        delay: float = 0.0,
    ) -> None:
        """Serves `html` at `path`; str is encoded with `charset` (utf-8 when None).

        `charset=None` sends "text/html" without a charset parameter. To lie about the charset,
        pass bytes and set the header yourself: headers={"Content-Type": "text/html; charset=..."}.
        """
        body = html if isinstance(html, bytes) else html.encode(charset or "utf-8")
        content_type = f"text/html; charset={charset}" if charset else "text/html"
        extra = dict(headers or {})
        content_type = extra.pop("Content-Type", extra.pop("content-type", content_type))
        self.pages[path] = Page(
            body=body, status=status, content_type=content_type, headers=extra, delay=delay
        )

    def add_redirect(self, path: str, location: str, *, status: int = 302) -> None:
        self.pages[path] = Page(status=status, headers={"Location": location})

    def add_huge(self, path: str, *, size: int = HUGE_SIZE) -> None:
        """A page of `size` bytes generated while sending; `bytes_sent[path]` says how far it got."""
        self.pages[path] = Page(stream_size=size)

    def add_drip(self, path: str, html: str, *, interval: float) -> None:
        """Sends the page one byte every `interval` seconds (headers at once)."""
        self.pages[path] = Page(body=html.encode(), drip_interval=interval)

    def paths_requested(self) -> list[str]:
        return [request.path for request in self.requests]

    def close(self) -> None:
        self.http.close()

    # --- serving --------------------------------------------------------------------------------
    def _add_builtins(self) -> None:
        self.add_page(NAVER_PATH, naver_article_html("정부, 전세 사기 피해 지원 확대", NAVER_PARAGRAPHS))
        self.add_page(
            NAVER_P_PATH,
            naver_article_html("정부, 전세 사기 피해 지원 확대", NAVER_PARAGRAPHS, use_p_tags=True),
        )
        self.add_page(GENERIC_PATH, generic_article_html("반도체 수출 석 달 연속 증가", GENERIC_PARAGRAPHS))
        self.add_page(CP949_NO_CHARSET_PATH, _cp949_page(), charset=None)
        self.add_page(
            CP949_WRONG_CHARSET_PATH,
            _cp949_page(),
            headers={"Content-Type": "text/html; charset=iso-8859-1"},
        )
        self.add_redirect(REDIRECT_PRIVATE_PATH, "http://10.0.0.1/x")
        self.add_redirect(REDIRECT_METADATA_PATH, "http://169.254.169.254/latest/meta-data/")
        self.add_huge(HUGE_PATH)
        self.add_page(SLOW_PATH, generic_article_html("늦은 기사", GENERIC_PARAGRAPHS), delay=SLOW_SECONDS)
        self.add_page(MISSING_PATH, "<html><body>찾을 수 없습니다</body></html>", status=404)

    def _serve(self, handler: BaseHTTPRequestHandler) -> None:
        path = handler.path
        headers = {key.lower(): value for key, value in handler.headers.items()}
        with self._lock:
            self.requests.append(SeenRequest(path=path, headers=headers, at=time.monotonic()))
            self.in_flight += 1
            self.max_in_flight = max(self.max_in_flight, self.in_flight)
        try:
            page = self.pages.get(path) or self.pages.get(path.split("?", 1)[0])
            self._respond(handler, path, page or Page(body=b"not found", status=404))
        except OSError:
            pass  # the client went away (timeouts, size cap)
        finally:
            with self._lock:
                self.in_flight -= 1

    def _respond(self, handler: BaseHTTPRequestHandler, path: str, page: Page) -> None:
        if page.delay:
            time.sleep(page.delay)
        size = page.stream_size or len(page.body)
        handler.send_response(page.status)
        handler.send_header("Content-Type", page.content_type)
        handler.send_header("Content-Length", str(size))
        for key, value in page.headers.items():
            handler.send_header(key, value)
        handler.end_headers()
        if page.stream_size:
            self._stream_generated(handler, path, page.stream_size)
        elif page.drip_interval:
            for index in range(len(page.body)):
                handler.wfile.write(page.body[index : index + 1])
                handler.wfile.flush()
                time.sleep(page.drip_interval)
        else:
            handler.wfile.write(page.body)

    def _stream_generated(self, handler: BaseHTTPRequestHandler, path: str, size: int) -> None:
        chunk = ("<p>" + "아주 긴 기사 본문입니다. " * 200 + "</p>\n").encode()
        head = b"<html><head><meta charset='utf-8'></head><body><article>"
        sent = 0
        handler.wfile.write(head)
        sent += len(head)
        while sent < size:
            piece = chunk[: size - sent]
            handler.wfile.write(piece)
            sent += len(piece)
            with self._lock:
                self.bytes_sent[path] = sent


# --- DNS ----------------------------------------------------------------------------------------
class FakeDNS:
    """Answers `socket.getaddrinfo` for chosen names; IP literals pass through, other names fail.

    `add(host, *addresses)` queues one answer; when a host has several queued answers they are
    used in turn and the last one repeats (for DNS-rebinding tests). `lookups` records names.
    """

    def __init__(self, mapping: Mapping[str, str | Sequence[str]] | None = None) -> None:
        self.answers: dict[str, list[list[str]]] = {}
        self.lookups: list[str] = []
        self._real = socket.getaddrinfo
        for host, addresses in (mapping or {}).items():
            self.add(host, *([addresses] if isinstance(addresses, str) else addresses))

    def add(self, host: str, *addresses: str) -> None:
        self.answers.setdefault(host.lower(), []).append(list(addresses))

    def getaddrinfo(self, host: Any, port: Any, *args: Any, **kwargs: Any) -> list[Any]:
        name = host.decode() if isinstance(host, bytes) else str(host)
        try:
            ipaddress.ip_address(name.split("%", 1)[0])
            return self._real(host, port, *args, **kwargs)  # numeric: no network involved
        except ValueError:
            pass
        self.lookups.append(name)
        queued = self.answers.get(name.lower())
        if not queued:
            raise socket.gaierror(socket.EAI_NONAME, f"FakeDNS: unknown host {name}")
        answer = queued.pop(0) if len(queued) > 1 else queued[0]
        return [self._info(address, port) for address in answer]

    @staticmethod
    def _info(address: str, port: Any) -> tuple[Any, ...]:
        number = int(port or 0)
        if ":" in address:
            return (socket.AF_INET6, socket.SOCK_STREAM, 6, "", (address, number, 0, 0))
        return (socket.AF_INET, socket.SOCK_STREAM, 6, "", (address, number))


@contextmanager
def fake_dns(mapping: Mapping[str, str | Sequence[str]] | None = None) -> Iterator[FakeDNS]:
    """Patches `socket.getaddrinfo` for the block: no real DNS query can happen inside it."""
    dns = FakeDNS(mapping)
    with mock.patch("socket.getaddrinfo", dns.getaddrinfo):
        yield dns

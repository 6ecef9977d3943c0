"""The one seam for article pages: SSRF-safe fetching and body extraction.

Extraction: Naver News pages (n.news.naver.com and friends) are parsed with BeautifulSoup on
`#dic_area` (then `#newsct_article`, then the legacy `#articleBodyContents`) using v1's rules;
every other outlet goes through trafilatura on the response *bytes*
(`favor_precision=True`) so EUC-KR/CP949 pages are decoded by content, not by a lying header.
`scrape_many` falls back to the search description (flagged `ok=False`) when a page is
unreachable, unsafe or yields under ~100 characters.

SSRF (a page URL comes from outside, so the scraper must reach public hosts only):
- only http/https; no credentials in URLs; backslashes, control characters and non-canonical
  numeric hosts (2130706433, 0x7f000001, 0177.0.0.1, 127.1) are refused outright;
- the host is resolved ONCE with `socket.getaddrinfo`, and the URL is refused if ANY address is
  not a public unicast address (private, loopback, link-local, multicast, reserved,
  unspecified, CGNAT 100.64/10, site-local, and IPv4-mapped / 6to4 / NAT64 forms of those);
- the request then goes to the vetted IP itself (pinning): the URL's host is replaced by the IP,
  the `Host` header keeps the real name and, for https, httpx's documented `sni_hostname`
  request extension makes TLS send SNI and verify the certificate for the real name. Nothing
  re-resolves the name between the check and the connection, so DNS rebinding cannot swap the
  address in between;
- redirects are followed by hand (at most 5), every hop vetted the same way;
- the body is streamed and cut at 5 MB, identity encoding is requested (no gzip bombs), and
  the whole fetch (all hops, body included) has a 10 s budget;
- no proxies from the environment (they would bypass the pinning), no cookie jar, no
  keep-alive (a pooled TLS connection to a shared CDN IP must not serve another host name).
Residual risk: `getaddrinfo` itself has no timeout (the OS resolver's own limits apply).

`NEWSDESK_SCRAPE_ALLOW_PRIVATE` (read at call time) exists for tests and local benches whose
pages live on loopback. It lifts the address check for loopback only — 127.0.0.0/8 and ::1 —
and nothing else: RFC 1918, link-local (cloud metadata 169.254.169.254), CGNAT and the rest
stay refused, so redirect-to-private tests still prove the check fires. It never relaxes the
scheme, credential or numeric-host rules.

Layout: `safety` (address checks, URL vetting), `fetch` (one pinned HTTP hop: status, type, size
and time caps), `extract` (Naver rules, trafilatura) and `errors`; this module holds the public
API, the redirect loop, the shared HTTP client and the fallback to the search description.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Literal
from urllib.parse import urljoin

from django.conf import settings

from agents.sources.scraper.errors import ScrapeFailed, UnsafeURL
from agents.sources.scraper.extract import (
    BOLD_HEADING_MAX,
    CHARSET_ALIASES,
    MARKERS,
    NAVER_CONTAINERS,
    NAVER_HOSTS,
    NAVER_NOISE,
    NOISE_CLASS_PARTS,
    UNTRUSTED_CHARSETS,
    generic_body,
    naver_body,
)
from agents.sources.scraper.fetch import (
    HTML_TYPES,
    MAX_BYTES,
    REDIRECT_STATUSES,
    USER_AGENT,
    _build_client,
    _get,
    _Page,
)
from agents.sources.scraper.safety import IPAddress, VettedURL, address_refusal, vet_url

__all__ = [
    "BOLD_HEADING_MAX",
    "CHARSET_ALIASES",
    "HTML_TYPES",
    "MARKERS",
    "MAX_BYTES",
    "MAX_CONCURRENCY",
    "MAX_REDIRECTS",
    "MIN_BODY_CHARS",
    "NAVER_CONTAINERS",
    "NAVER_HOSTS",
    "NAVER_NOISE",
    "NOISE_CLASS_PARTS",
    "REDIRECT_STATUSES",
    "TOTAL_TIMEOUT_SECONDS",
    "UNTRUSTED_CHARSETS",
    "USER_AGENT",
    "IPAddress",
    "Method",
    "ScrapeFailed",
    "Scraped",
    "UnsafeURL",
    "VettedURL",
    "address_refusal",
    "fetch_text",
    "generic_body",
    "naver_body",
    "scrape_many",
    "vet_url",
]

log = logging.getLogger(__name__)

TOTAL_TIMEOUT_SECONDS = 10.0
MAX_REDIRECTS = 5
MAX_CONCURRENCY = 8
MIN_BODY_CHARS = 100

Method = Literal["naver", "generic", "description"]


@dataclass(frozen=True)
class Scraped:
    url: str
    text: str
    method: Method
    ok: bool  # False when the fallback description was used


# --- public API -------------------------------------------------------------------------------
def fetch_text(url: str, *, max_chars: int | None = None) -> str:
    """The article text of one page; raises UnsafeURL or ScrapeFailed."""
    page = _fetch(url, allow_loopback=_allow_loopback())
    text, _method = _extract(page, max_chars=max_chars)
    return text


def scrape_many(
    targets: Sequence[tuple[str, str]], *, max_chars: int | None = None, concurrency: int = MAX_CONCURRENCY
) -> list[Scraped]:
    """Scrapes (url, fallback description) pairs concurrently (at most 8 at once), in order."""
    if not targets:
        return []
    allow_loopback = _allow_loopback()  # read once, on the caller's thread
    workers = max(1, min(concurrency, MAX_CONCURRENCY, len(targets)))
    with ThreadPoolExecutor(max_workers=workers, thread_name_prefix="scrape") as pool:
        scraped = list(
            pool.map(
                lambda target: _scrape_one(*target, max_chars=max_chars, allow_loopback=allow_loopback),
                targets,
            )
        )
    log.info(
        "scraped %d pages, %d fell back to the description", len(scraped), sum(not s.ok for s in scraped)
    )
    return scraped


# --- one target with fallback -----------------------------------------------------------------
def _scrape_one(url: str, description: str, *, max_chars: int | None, allow_loopback: bool) -> Scraped:
    try:
        page = _fetch(url, allow_loopback=allow_loopback)
        text, method = _extract(page, max_chars=max_chars)
    except UnsafeURL as exc:
        log.warning("scrape refused %s: %s", url, exc)
        return _fallback(url, description, max_chars)
    except ScrapeFailed as exc:
        log.warning("scrape failed %s: %s", url, exc)
        return _fallback(url, description, max_chars)
    except Exception:  # one broken page must never sink a batch
        log.warning("scrape crashed on %s", url, exc_info=True)
        return _fallback(url, description, max_chars)
    if len(text) < min(MIN_BODY_CHARS, max_chars or MIN_BODY_CHARS):
        log.info("scrape of %s too short (%d chars), using the description", url, len(text))
        return _fallback(url, description, max_chars)
    return Scraped(url=url, text=text, method=method, ok=True)


def _fallback(url: str, description: str, max_chars: int | None) -> Scraped:
    text = description.strip()
    return Scraped(url=url, text=text[:max_chars] if max_chars else text, method="description", ok=False)


def _allow_loopback() -> bool:
    return bool(getattr(settings, "NEWSDESK_SCRAPE_ALLOW_PRIVATE", False))


# --- fetching: every hop vetted, redirects followed by hand ----------------------------------
def _fetch(url: str, *, allow_loopback: bool) -> _Page:
    deadline = time.monotonic() + TOTAL_TIMEOUT_SECONDS
    current = url
    for _hop in range(MAX_REDIRECTS + 1):
        target = vet_url(current, allow_loopback=allow_loopback)
        result = _get(_client, target, deadline)
        if isinstance(result, _Page):
            return result
        current = urljoin(str(target.url), result)
        log.debug("scrape redirect %s -> %s", target.url, current)
    raise ScrapeFailed(f"more than {MAX_REDIRECTS} redirects from {url}")


_client = _build_client()


# --- extraction -------------------------------------------------------------------------------
def _extract(page: _Page, *, max_chars: int | None) -> tuple[str, Method]:
    if page.host.rstrip(".") in NAVER_HOSTS:
        text = naver_body(page.body, max_chars=max_chars)
        if text:
            return text, "naver"
        # Sports/entertainment links land on JS apps without #dic_area: try the generic way.
    text = generic_body(page.body, url=page.url, charset=page.charset, max_chars=max_chars)
    if text:
        return text, "generic"
    raise ScrapeFailed("no article text found")

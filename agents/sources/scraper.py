"""The one seam for article pages: SSRF-safe fetching and body extraction.

Extraction: Naver News pages (n.news.naver.com and friends) are parsed with BeautifulSoup on
`#dic_area` (then `#newsct_article`, then the legacy `#articleBodyContents`) using v1's rules
(v1-spec §6.1); every other outlet goes through trafilatura on the response *bytes*
(`favor_precision=True`) so EUC-KR/CP949 pages are decoded by content, not by a lying header.
`scrape_many` falls back to the search description (flagged `ok=False`) when a page is
unreachable, unsafe or yields under ~100 characters.

SSRF (reference/reliability.md §2.2, OWASP case 2):
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
"""

from __future__ import annotations

import http.cookiejar
import ipaddress
import logging
import re
import socket
import ssl
import time
from collections.abc import Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Literal
from urllib.parse import urljoin

import httpx
import trafilatura
from bs4 import BeautifulSoup, Tag
from django.conf import settings

log = logging.getLogger(__name__)

USER_AGENT = "Mozilla/5.0 (compatible; newsdesk/2.0; +https://github.com/wooshikwon/tasa-check)"
TOTAL_TIMEOUT_SECONDS = 10.0
MAX_BYTES = 5 * 1024 * 1024
MAX_REDIRECTS = 5
MAX_CONCURRENCY = 8
MIN_BODY_CHARS = 100
REDIRECT_STATUSES = frozenset({301, 302, 303, 307, 308})
NAVER_HOSTS = frozenset({"n.news.naver.com", "news.naver.com", "m.news.naver.com"})
NAVER_CONTAINERS = ("#dic_area", "#newsct_article", "#articleBodyContents")
# Caption, summary, byline and player boxes inside the Naver body container.
NAVER_NOISE = (
    "script, style, noscript, iframe, .media_end_summary, .byline, .byline_s, .byline_p, "
    ".end_photo_org, .img_desc, .vod_player_wrap, .reporter_area, .copyright"
)
NOISE_CLASS_PARTS = ("photo", "img", "vod")  # v1: skip paragraphs inside photo/video wrappers
MARKERS = frozenset("▶■◆●△▷▲►◇□★☆※➤")  # v1: lines starting with these are headings or links
BOLD_HEADING_MAX = 50  # v1: an all-bold paragraph shorter than this is a subheading
HTML_TYPES = ("html", "xml", "text/plain")
# 8-bit Western charsets decode any bytes, so a header naming them proves nothing for a Korean page.
UNTRUSTED_CHARSETS = frozenset(
    {"iso-8859-1", "latin-1", "latin1", "windows-1252", "cp1252", "us-ascii", "ascii"}
)
# WHATWG maps every EUC-KR label to windows-949 (a superset); Korean pages rely on it.
CHARSET_ALIASES = {"euc-kr": "cp949", "euckr": "cp949", "ks_c_5601-1987": "cp949", "ksc5601": "cp949"}

_CGNAT = ipaddress.ip_network("100.64.0.0/10")
_NAT64 = ipaddress.ip_network("64:ff9b::/96")
_LOCAL_NAT64 = ipaddress.ip_network("64:ff9b:1::/48")
_NUMERIC_LABEL = re.compile(r"^(?:0x[0-9a-f]*|[0-9]+)$", re.IGNORECASE)
_FORBIDDEN_URL_CHARS = re.compile(r"[\x00-\x20\x7f\\]")
_META_CHARSET = re.compile(rb"""<meta[^>]+charset\s*=\s*["']?\s*([a-zA-Z0-9_\-:.]+)""", re.IGNORECASE)
_WHITESPACE = re.compile(r"\s+")

Method = Literal["naver", "generic", "description"]
IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address


class UnsafeURL(Exception):
    """The URL points somewhere we must not fetch (scheme, credentials, private address…)."""


class ScrapeFailed(Exception):
    """The page could not be fetched or held no article text."""


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


def vet_url(url: str, *, allow_loopback: bool = False) -> VettedURL:
    """Parses, resolves and checks a URL; the result carries the addresses it may connect to."""
    parsed = _parse(url)
    host = parsed.raw_host.decode("ascii").lower()
    port = parsed.port or (443 if parsed.scheme == "https" else 80)
    literal = _ip_literal(host)
    if literal is not None:
        addresses: tuple[IPAddress, ...] = (literal,)
    elif _looks_numeric(host):
        raise UnsafeURL(f"non-canonical numeric host {host!r}")
    else:
        addresses = _resolve(host, port)
    for address in addresses:
        reason = address_refusal(address, allow_loopback=allow_loopback)
        if reason:
            raise UnsafeURL(f"{host} resolves to {address} ({reason})")
    return VettedURL(url=parsed, host=host, addresses=tuple(str(address) for address in addresses))


def address_refusal(address: IPAddress, *, allow_loopback: bool = False) -> str:
    """Why this address must not be contacted, or "" when it is a public unicast address."""
    if allow_loopback and address.is_loopback:
        return ""  # only 127.0.0.0/8 and ::1 themselves, never their mapped forms
    for candidate in (address, *_embedded_ipv4(address)):
        reason = _refusal(candidate)
        if reason:
            return reason if candidate is address else f"embeds {candidate}: {reason}"
    return ""


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


# --- URL vetting ------------------------------------------------------------------------------
@dataclass(frozen=True)
class VettedURL:
    url: httpx.URL
    host: str
    addresses: tuple[str, ...]


def _parse(url: str) -> httpx.URL:
    if not isinstance(url, str) or not url or _FORBIDDEN_URL_CHARS.search(url):
        raise UnsafeURL("empty URL or whitespace, control characters or backslashes in it")
    try:
        # httpx's own parser, so the host we check is the host httpx would connect to.
        parsed = httpx.URL(url)
    except (httpx.InvalidURL, TypeError, ValueError) as exc:
        raise UnsafeURL(f"unparsable URL ({exc})") from exc
    if parsed.scheme not in ("http", "https"):
        raise UnsafeURL(f"scheme {parsed.scheme!r} is not http(s)")
    if parsed.userinfo:
        raise UnsafeURL("credentials in URL")  # user@host is a classic parser-confusion trick
    if not parsed.raw_host:
        raise UnsafeURL("no host")
    return parsed


def _ip_literal(host: str) -> IPAddress | None:
    try:
        return ipaddress.ip_address(host)
    except ValueError:
        return None


def _looks_numeric(host: str) -> bool:
    # Browsers (WHATWG) and inet_aton read a host whose last label is numeric as an IPv4 address
    # in decimal, octal or hex; no public name ends that way, so refuse rather than guess.
    last_label = host.rstrip(".").rsplit(".", 1)[-1]
    return bool(_NUMERIC_LABEL.match(last_label))


def _resolve(host: str, port: int) -> tuple[IPAddress, ...]:
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (OSError, UnicodeError) as exc:
        raise ScrapeFailed(f"cannot resolve {host}: {exc}") from exc
    addresses: dict[str, None] = dict.fromkeys(str(info[4][0]) for info in infos)
    if not addresses:
        raise ScrapeFailed(f"{host} has no addresses")
    parsed = []
    for text in addresses:
        try:
            parsed.append(ipaddress.ip_address(text))
        except ValueError as exc:  # e.g. a scoped link-local "fe80::1%eth0"
            raise UnsafeURL(f"{host} resolves to an unusable address {text!r}") from exc
    return tuple(parsed)


def _refusal(address: IPAddress) -> str:
    checks = (
        ("unspecified", address.is_unspecified),
        ("loopback", address.is_loopback),
        ("private", address.is_private),
        ("link-local", address.is_link_local),
        ("multicast", address.is_multicast),
        ("reserved", address.is_reserved),
        ("shared CGNAT", address in _CGNAT),
        ("site-local", isinstance(address, ipaddress.IPv6Address) and address.is_site_local),
        ("local NAT64", address in _LOCAL_NAT64),
        ("not global", not address.is_global),
    )
    return next((name for name, hit in checks if hit), "")


def _embedded_ipv4(address: IPAddress) -> Iterable[ipaddress.IPv4Address]:
    """IPv4 addresses hidden in an IPv6 one (mapped, 6to4, Teredo, NAT64)."""
    if not isinstance(address, ipaddress.IPv6Address):
        return ()
    embedded = [address.ipv4_mapped, address.sixtofour]
    if address.teredo:
        embedded.extend(address.teredo)
    if address in _NAT64:
        embedded.append(ipaddress.IPv4Address(int(address) & 0xFFFFFFFF))
    return [ip for ip in embedded if ip is not None]


# --- fetching ---------------------------------------------------------------------------------
@dataclass(frozen=True)
class _Page:
    url: str  # the final URL, with the real host name
    host: str
    body: bytes
    charset: str | None


def _fetch(url: str, *, allow_loopback: bool) -> _Page:
    deadline = time.monotonic() + TOTAL_TIMEOUT_SECONDS
    current = url
    for _hop in range(MAX_REDIRECTS + 1):
        target = vet_url(current, allow_loopback=allow_loopback)
        result = _get(target, deadline)
        if isinstance(result, _Page):
            return result
        current = urljoin(str(target.url), result)
        log.debug("scrape redirect %s -> %s", target.url, current)
    raise ScrapeFailed(f"more than {MAX_REDIRECTS} redirects from {url}")


def _get(target: VettedURL, deadline: float) -> _Page | str:
    """One hop: the page, or the redirect location. Tries the vetted addresses in order."""
    last_error: Exception | None = None
    for address in target.addresses:
        try:
            return _get_pinned(target, address, deadline)
        except httpx.ConnectError as exc:
            last_error = exc
    raise ScrapeFailed(f"cannot connect to {target.host}: {last_error}")


def _get_pinned(target: VettedURL, address: str, deadline: float) -> _Page | str:
    remaining = deadline - time.monotonic()
    if remaining <= 0:
        raise ScrapeFailed("timed out")
    extensions = {"sni_hostname": target.host} if target.url.scheme == "https" else {}
    request = _client.build_request(
        "GET",
        target.url.copy_with(host=address),  # connect to the vetted IP, never re-resolve
        headers={"Host": target.url.netloc.decode("ascii")},
        extensions=extensions,
        timeout=remaining,
    )
    try:
        response = _client.send(request, stream=True)
    except httpx.ConnectError:
        raise
    except httpx.TimeoutException as exc:
        raise ScrapeFailed(f"timed out ({type(exc).__name__})") from exc
    except httpx.HTTPError as exc:
        raise ScrapeFailed(f"HTTP error {type(exc).__name__}: {exc}") from exc
    try:
        return _handle_response(target, response, deadline)
    finally:
        response.close()


def _handle_response(target: VettedURL, response: httpx.Response, deadline: float) -> _Page | str:
    if response.status_code in REDIRECT_STATUSES:
        location = response.headers.get("location", "")
        if not location:
            raise ScrapeFailed(f"redirect {response.status_code} without a Location")
        return location
    if not 200 <= response.status_code < 300:
        raise ScrapeFailed(f"HTTP {response.status_code}")
    content_type = response.headers.get("content-type", "").lower()
    if content_type and not any(kind in content_type for kind in HTML_TYPES):
        raise ScrapeFailed(f"not an HTML page ({content_type})")
    body = _read_capped(response, deadline)
    return _Page(url=str(target.url), host=target.host, body=body, charset=response.charset_encoding)


def _read_capped(response: httpx.Response, deadline: float) -> bytes:
    """Streams the body; stops at MAX_BYTES (keeps the head) and at the deadline (fails)."""
    body = bytearray()
    try:
        for chunk in response.iter_bytes():
            body += chunk[: MAX_BYTES - len(body)]
            if len(body) >= MAX_BYTES:
                log.warning("scrape of %s cut at %d bytes", response.request.headers.get("host"), MAX_BYTES)
                break
            if time.monotonic() > deadline:
                raise ScrapeFailed("timed out while reading the body")
    except httpx.TimeoutException as exc:
        raise ScrapeFailed("timed out while reading the body") from exc
    except httpx.HTTPError as exc:
        raise ScrapeFailed(f"body read failed: {type(exc).__name__}") from exc
    return bytes(body)


def _build_client(*, verify: ssl.SSLContext | bool = True) -> httpx.Client:
    no_cookies = http.cookiejar.CookieJar(policy=http.cookiejar.DefaultCookiePolicy(allowed_domains=[]))
    return httpx.Client(
        headers={
            "User-Agent": USER_AGENT,
            "Accept": "text/html,application/xhtml+xml;q=0.9,*/*;q=0.5",
            "Accept-Language": "ko-KR,ko;q=0.9,en;q=0.5",
            "Accept-Encoding": "identity",
        },
        follow_redirects=False,
        trust_env=False,
        verify=verify,
        cookies=no_cookies,
        limits=httpx.Limits(max_connections=64, max_keepalive_connections=0),
    )


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


def naver_body(html: bytes | str, *, max_chars: int | None = None) -> str:
    """v1's Naver rules: paragraphs of the body container, captions/markers/bold headings skipped."""
    soup = BeautifulSoup(html, "lxml")
    container = next((found for sel in NAVER_CONTAINERS if (found := soup.select_one(sel))), None)
    if container is None:
        return ""
    _drop_noise(container)
    parts = _paragraphs(container) or _lines(container)
    return _accumulate(parts, max_chars)


def generic_body(
    html: bytes, *, url: str | None = None, charset: str | None = None, max_chars: int | None = None
) -> str:
    text = trafilatura.extract(
        _decode_for_trafilatura(html, charset),
        url=url,
        favor_precision=True,
        include_comments=False,
        include_tables=False,
        include_images=False,
    )
    text = (text or "").strip()
    return text[:max_chars] if max_chars else text


def _drop_noise(container: Tag) -> None:
    doomed = list(container.select(NAVER_NOISE))
    # v1 skipped paragraphs under any element whose class mentions photo/img/vod; here the search
    # stops at the container (v1's was unbounded) and applies to the line fallback too.
    doomed.extend(tag for tag in container.find_all(True) if _has_noise_class(tag))
    for tag in doomed:
        tag.decompose()


def _has_noise_class(tag: Tag) -> bool:
    classes = tag.get("class") or []
    return any(part in str(name).lower() for name in classes for part in NOISE_CLASS_PARTS)


def _paragraphs(container: Tag) -> list[str]:
    parts = []
    for paragraph in container.find_all("p"):
        text = _squash(paragraph.get_text(" ", strip=True))
        if text and not _is_marker_line(text) and not _is_bold_heading(paragraph, text):
            parts.append(text)
    return parts


def _lines(container: Tag) -> list[str]:
    """v1's fallback for bodies without <p> (most real Naver pages): one line per <br>/block."""
    bold = {_squash(tag.get_text(" ", strip=True)) for tag in container.find_all(["b", "strong"])}
    headings = {text for text in bold if text and len(text) < BOLD_HEADING_MAX}
    for br in container.find_all("br"):
        br.replace_with("\n")
    for block in container.find_all(
        ["p", "div", "li", "h1", "h2", "h3", "h4", "h5", "h6", "tr", "blockquote"]
    ):
        block.insert_before("\n")
        block.insert_after("\n")
    lines = (_squash(line) for line in container.get_text().split("\n"))
    return [line for line in lines if line and not _is_marker_line(line) and line not in headings]


def _is_marker_line(text: str) -> bool:
    return text[0] in MARKERS


def _is_bold_heading(paragraph: Tag, text: str) -> bool:
    if len(text) >= BOLD_HEADING_MAX:
        return False
    bold = paragraph.find(["b", "strong"])
    return bold is not None and _squash(bold.get_text(" ", strip=True)) == text


def _accumulate(parts: Sequence[str], max_chars: int | None) -> str:
    """v1's cap: take paragraphs until their total reaches max_chars, then cut hard."""
    if max_chars is None:
        return "\n".join(parts)
    kept: list[str] = []
    total = 0
    for part in parts:
        kept.append(part)
        total += len(part)
        if total >= max_chars:
            break
    return "\n".join(kept)[:max_chars]


def _squash(text: str) -> str:
    return _WHITESPACE.sub(" ", text).strip()


def _decode_for_trafilatura(body: bytes, header_charset: str | None) -> bytes | str:
    """Bytes for trafilatura's own detection, unless a trustworthy declaration decodes cleanly."""
    try:
        body.decode("utf-8")
        return body  # trafilatura's fast path
    except UnicodeDecodeError:
        pass
    meta = _META_CHARSET.search(body[:4096])
    declared = [meta.group(1).decode("ascii", "ignore") if meta else None, header_charset]
    for charset in declared:
        name = _charset_name(charset)
        if not name:
            continue
        try:
            return body.decode(name)
        except (LookupError, UnicodeDecodeError):
            continue
    return body  # no usable declaration: trafilatura guesses from the bytes


def _charset_name(charset: str | None) -> str:
    name = (charset or "").strip().lower()
    if not name or name in UNTRUSTED_CHARSETS:
        return ""
    return CHARSET_ALIASES.get(name, name)

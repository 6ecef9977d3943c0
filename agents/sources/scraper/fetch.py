"""One HTTP hop to a vetted, pinned address: the request, the status and type checks, the body
streamed under a size cap and a deadline, and how the HTTP client is built (the package holds the
one instance every hop goes through, and passes it in)."""

from __future__ import annotations

import http.cookiejar
import logging
import ssl
import time
from dataclasses import dataclass

import httpx

from agents.sources.scraper.errors import ScrapeFailed
from agents.sources.scraper.safety import VettedURL

# The package's logger, so log lines keep the name they had before the package was split.
log = logging.getLogger(__package__)

USER_AGENT = "Mozilla/5.0 (compatible; newsdesk/2.0; +https://github.com/wooshikwon/tasa-check)"
MAX_BYTES = 5 * 1024 * 1024
REDIRECT_STATUSES = frozenset({301, 302, 303, 307, 308})
HTML_TYPES = ("html", "xml", "text/plain")


@dataclass(frozen=True)
class _Page:
    url: str  # the final URL, with the real host name
    host: str
    body: bytes
    charset: str | None


def _get(client: httpx.Client, target: VettedURL, deadline: float) -> _Page | str:
    """One hop: the page, or the redirect location. Tries the vetted addresses in order."""
    last_error: Exception | None = None
    for address in target.addresses:
        try:
            return _get_pinned(client, target, address, deadline)
        except httpx.ConnectError as exc:
            last_error = exc
    raise ScrapeFailed(f"cannot connect to {target.host}: {last_error}")


def _get_pinned(client: httpx.Client, target: VettedURL, address: str, deadline: float) -> _Page | str:
    remaining = deadline - time.monotonic()
    if remaining <= 0:
        raise ScrapeFailed("timed out")
    extensions = {"sni_hostname": target.host} if target.url.scheme == "https" else {}
    request = client.build_request(
        "GET",
        target.url.copy_with(host=address),  # connect to the vetted IP, never re-resolve
        headers={"Host": target.url.netloc.decode("ascii")},
        extensions=extensions,
        timeout=remaining,
    )
    try:
        response = client.send(request, stream=True)
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

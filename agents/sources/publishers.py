"""The publisher whitelist: which outlet an article URL belongs to.

Rows come from the `Publisher` model (active ones, by position; editable in the admin) and are
cached per process for 60 s, so an admin edit applies within a minute without a query per
article. Matching is v1's, exactly: the URL's lower-cased host; a host listed in a publisher's
`exclude_subdomains` never matches that publisher; otherwise the host must equal the domain or
end with "." + domain (dot boundary, so notchosun.com is not chosun.com); first match wins.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from urllib.parse import urlparse

from agents.models import Publisher
from agents.sources.naver import NewsItem

log = logging.getLogger(__name__)

CACHE_SECONDS = 60.0


@dataclass(frozen=True)
class _Entry:
    name: str
    domain: str
    excluded_hosts: frozenset[str]

    def matches(self, host: str) -> bool:
        if host in self.excluded_hosts:
            return False
        return host == self.domain or host.endswith("." + self.domain)


_lock = threading.Lock()
_cache: tuple[float, tuple[_Entry, ...]] | None = None


def publisher_for_url(url: str) -> str | None:
    """The whitelisted publisher's name for this URL, or None."""
    host = _host(url)
    if not host:
        return None
    for entry in _entries():
        if entry.matches(host):
            return entry.name
    return None


def filter_by_publisher(items: Sequence[NewsItem]) -> list[tuple[NewsItem, str]]:
    """Whitelisted items with their publisher name, in input order; matched on originallink only."""
    kept = []
    for item in items:
        if not item.originallink:
            continue  # the Naver link says nothing about the outlet
        name = publisher_for_url(item.originallink)
        if name is not None:
            kept.append((item, name))
    return kept


def clear_cache() -> None:
    """Forget the cached rows (tests, or right after an admin edit)."""
    global _cache
    with _lock:
        _cache = None


def _host(url: str) -> str | None:
    try:
        return urlparse(url).hostname  # lower-cased; None without a scheme ("not-a-url", "")
    except ValueError:  # e.g. an unbalanced "[" in the netloc
        return None


def _entries() -> tuple[_Entry, ...]:
    global _cache
    now = time.monotonic()
    with _lock:
        if _cache is not None and now - _cache[0] < CACHE_SECONDS:
            return _cache[1]
    entries = _load()
    with _lock:
        _cache = (now, entries)
    return entries


def _load() -> tuple[_Entry, ...]:
    rows = Publisher.objects.filter(active=True).order_by("position", "id")
    entries = tuple(
        _Entry(
            name=row.name,
            domain=row.domain.strip().lower(),
            excluded_hosts=frozenset(str(host).strip().lower() for host in row.exclude_subdomains or []),
        )
        for row in rows
    )
    log.debug("publisher whitelist loaded: %d active entries", len(entries))
    return entries

"""The two ways a scrape fails: refused before any request, or fetched without article text."""

from __future__ import annotations


class UnsafeURL(Exception):
    """The URL points somewhere we must not fetch (scheme, credentials, private address…)."""


class ScrapeFailed(Exception):
    """The page could not be fetched or held no article text."""

"""Reading the desk's HTML in tests."""

from __future__ import annotations

from typing import Any

from bs4 import BeautifulSoup, Tag


def parse(response: Any) -> BeautifulSoup:
    return BeautifulSoup(response.content.decode(), "lxml")


def one(response_or_soup: Any, selector: str) -> Tag:
    soup = response_or_soup if isinstance(response_or_soup, Tag) else parse(response_or_soup)
    found = soup.select_one(selector)
    assert found is not None, f"nothing matches {selector!r}"
    return found


def text(response_or_soup: Any, selector: str) -> str:
    return " ".join(one(response_or_soup, selector).get_text(" ").split())


def field_error(response: Any, field_id: str) -> str:
    """The error shown right under a field (the element the field's aria-describedby names)."""
    soup = parse(response)
    field = one(soup, f"#{field_id}")
    assert f"{field_id}-error" in (field.get("aria-describedby") or ""), "the error is not tied to the field"
    return text(soup, f"#{field_id}-error")

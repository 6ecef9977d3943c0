"""Page ranges of a long PDF: which pages a reporter asked for, and what fits the model.

A PDF's text is stored with its page breaks (a line holding only PAGE_BREAK), so the choice of
pages is made when the draft is written, not when the file is read. What reaches the model is
bounded by text size, not by a page count: a 200-page release of short pages may fit whole, a
dense 40-page one may not; either way the warning names the pages that were left out.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from agents.sources.files.messages import MSG_BAD_PAGES, WARN_PAGES_CUT, WARN_PAGES_OUT_OF_RANGE

PAGE_BREAK = "\f"
MODEL_TEXT_CHARS = 80_000  # ~32k tokens of Korean: room for the style guide, news and the reply
_RANGE = re.compile(r"^\s*(\d{1,4})\s*(?:(?:-|~|–|부터)\s*(\d{1,4}))?\s*(?:쪽|페이지|p)?\s*(?:까지)?\s*$")


# In free text ("3~10쪽으로 써줘", "3쪽부터 10쪽까지"): a unit after the last number is required,
# so "19~39세" or a date range is never taken for pages.
_IN_TEXT = re.compile(r"(\d{1,4})\s*(?:쪽|페이지|p)?\s*(?:-|~|–|부터)\s*(\d{1,4})\s*(?:쪽|페이지|p\b)")


def page_range_in_text(text: str) -> str:
    """The page range a chat message asks for, as "3-10", or ""."""
    match = _IN_TEXT.search(text)
    return f"{match.group(1)}-{match.group(2)}" if match else ""


@dataclass(frozen=True)
class PageRange:
    first: int
    last: int

    def label(self) -> str:
        return f"{self.first}~{self.last}" if self.last != self.first else str(self.first)


def parse_page_range(value: str) -> PageRange | None:
    """ "3-10", "3~10", "3~10쪽", "7" → a range (1-based, inclusive); "" → None. ValueError with a
    Korean message for anything else."""
    if not value.strip():
        return None
    match = _RANGE.match(value)
    if not match:
        raise ValueError(MSG_BAD_PAGES)
    first = int(match.group(1))
    last = int(match.group(2) or first)
    if first < 1 or last < first:
        raise ValueError(MSG_BAD_PAGES)
    return PageRange(first, last)


def split_pages(text: str) -> list[str]:
    return text.split(f"\n{PAGE_BREAK}\n")


def pick_pages(
    text: str, *, pages: PageRange | None, max_chars: int = MODEL_TEXT_CHARS
) -> tuple[str, list[str]]:
    """The chosen pages' text, cut at whole pages to fit `max_chars`, and warnings for what was
    left out."""
    all_pages = split_pages(text)
    warnings = []
    first, last = (pages.first, pages.last) if pages else (1, len(all_pages))
    if first > len(all_pages):
        warnings.append(WARN_PAGES_OUT_OF_RANGE.format(total=len(all_pages), first=1, last=len(all_pages)))
        first, last = 1, len(all_pages)
    last = min(last, len(all_pages))
    kept: list[str] = []
    size = 0
    for number in range(first, last + 1):
        page = all_pages[number - 1]
        if kept and size + len(page) > max_chars:
            warnings.append(WARN_PAGES_CUT.format(first=number, last=last, limit=max_chars, kept=number - 1))
            break
        kept.append(page[:max_chars])
        size += len(page)
    return "\n\n".join(kept), warnings

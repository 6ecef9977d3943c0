"""Direct quotations, compared by their words only (spacing and punctuation may differ)."""

from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import dataclass
from functools import cached_property

# (pattern, minimum folded length). Curly and straight double quotes are speech; corner brackets are
# titles and speech. Curly single quotes mark names (a cultivar ‘미래향’, a programme ‘서울 테크
# 스칼러십’) as well as emphasis, so from three letters they count; straight single quotes are
# mostly emphasis in Korean copy, so only long ones count as quotes.
_PATTERNS: tuple[tuple[re.Pattern[str], int], ...] = (
    (re.compile(r"“([^“”\n]*)”"), 4),
    (re.compile(r'"([^"\n]*)"'), 4),
    (re.compile(r"「([^「」\n]*)」"), 2),
    (re.compile(r"『([^『』\n]*)』"), 2),
    (re.compile(r"‘([^‘’\n]*)’"), 3),
    (re.compile(r"(?<![A-Za-z])'([^'\n]*)'(?![A-Za-z])"), 8),
)
_WORD = re.compile(r"[^\W_]+")  # letters and digits of any script; everything else is dropped


@dataclass(frozen=True)
class QuoteHit:
    start: int
    end: int
    text: str  # with the quote marks, as written
    key: str  # the inside, folded


def fold(text: str) -> str:
    """Letters and digits only, lower-cased: the form in which a quote is compared."""
    return "".join(_WORD.findall(text)).lower()


def find_quotes(text: str) -> list[QuoteHit]:
    hits: list[QuoteHit] = []
    for pattern, minimum in _PATTERNS:
        for match in pattern.finditer(text):
            key = fold(match.group(1))
            if len(key) >= minimum:
                hits.append(QuoteHit(match.start(), match.end(), match.group(), key))
    return sorted(hits, key=lambda hit: hit.start)


class FoldedText:
    """A source folded like a quote; the map back to the original is built only when evidence is asked for."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.folded = fold(text)

    def find(self, key: str) -> tuple[int, int] | None:
        """The (start, end) in the original text of the first folded occurrence of key."""
        position = self.folded.find(key)
        if position < 0:
            return None
        return self._original(position), self._original(position + len(key) - 1) + 1

    def _original(self, position: int) -> int:
        run = bisect_right(self._runs[0], position) - 1
        return self._runs[1][run] + position - self._runs[0][run]

    @cached_property
    def _runs(self) -> tuple[list[int], list[int]]:
        """(folded start, original start) of every run of letters and digits."""
        folded_starts, original_starts, length = [], [], 0
        for match in _WORD.finditer(self.text):
            folded_starts.append(length)
            original_starts.append(match.start())
            length += len(match.group().lower())
        return folded_starts, original_starts

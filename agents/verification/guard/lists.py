"""Lists a release writes out: one item a line ("□ A … □ B …" under a heading is a list of two),
or in one sentence ("△A △B △C", "A, B, C와 D").

Korean releases set out their points as lines opened by a bullet (□, ○, ▪ …), deeper points with
another bullet under them, in sections headed "<설명내용>" or "【주요 내용】". An article that says
"두 가지 내용에 대해 설명했다" counts the items of one level of one section.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

_MARK = re.compile(r"[ \t]*(?P<mark>[□■○◦❍▪•●◯])")
_HEADING = re.compile(r"[ \t]*(?:<[^<>\n]{1,30}>|【[^【】\n]{1,30}】|\[[^\[\]\n]{1,30}\])[ \t]*$")
# It starts only where a word starts: a match from inside a word is also one from the word's start,
# which the scan meets first, and trying every letter of a long word would redo that word each time.
_PROSE_LIST = re.compile(
    r"(?<![가-힣A-Za-z])(?:[가-힣A-Za-z]+(?:\([^()]{1,12}\))?(?:, |[와과] )){2,}[가-힣A-Za-z]+"
)
_ITEM_GAP = re.compile(r", |(?<=[가-힣])[와과] ")
_BULLET = re.compile(r"[△▲▴▷▸►◇◆]|[①②③④⑤⑥⑦⑧⑨]")
MAX_ITEMS = 10  # a longer run is a table or an index, not a list a paragraph counts


@dataclass(frozen=True)
class Run:
    start: int
    end: int
    count: int
    lines: str  # the first line of each item: what the list is about


def bullet_runs(text: str) -> Iterator[Run]:
    """Every run of two or more lines opened by the same bullet, within one section."""
    items: dict[str, list[tuple[int, int]]] = {}
    order: list[str] = []
    position = 0
    for line in text.splitlines(keepends=True):
        start, end = position, position + len(line.rstrip("\n"))
        position += len(line)
        if _HEADING.match(line):
            yield from _runs(text, items, order)
            items, order = {}, []
            continue
        marked = _MARK.match(line)
        if marked:
            mark = marked["mark"]
            if mark not in items:
                items[mark], order = [], [*order, mark]
            items[mark].append((start, end))
    yield from _runs(text, items, order)


def _runs(text: str, items: dict[str, list[tuple[int, int]]], order: list[str]) -> Iterator[Run]:
    """The items of the section's first bullet only: the deeper ones (○ under □) belong to an item
    each and are counted with it, not across it."""
    if not order:
        return
    found = items[order[0]]
    if 2 <= len(found) <= MAX_ITEMS:
        lines = "\n".join(text[start:end] for start, end in found)
        yield Run(found[0][0], found[-1][1], len(found), lines)


def sentence_list_length(sentence: str) -> int:
    """ "△A △B △C를 기본 방향으로" is a list of three; else the longest list of three or more
    written out with commas: "요양병원과 정신병원(폐쇄병동), 요양시설, 종교시설을" is four."""
    bullets = len(_BULLET.findall(sentence))
    if bullets:
        return bullets
    # A written-out list has two separators at least; most sentences have fewer and need no scan.
    if sentence.count(", ") + sentence.count("와 ") + sentence.count("과 ") < 2:
        return 0
    best = 0
    for match in _PROSE_LIST.finditer(sentence):
        items = 1 + len(_ITEM_GAP.findall(match.group()))
        best = max(best, items if items >= 3 else 0)
    return best

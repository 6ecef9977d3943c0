"""The direction of a change: "A에서 B로" checked against the order the source states A and B in.

Releases rarely write a change with 에서/로; they list the two figures: "(’20년) 940억 원, (’21년안)
1,314억 원", "28.4%였던 참여율은 66.3%까지", "설비용량(현재 0.35GW)을 25GW까지". Both figures are
then in the source, so each is confirmed on its own and a swapped start and end would pass. When
one source sentence holds both and states the article's end before its start, with nothing that
marks the later one as the earlier value (전년, 현재, 에서, 보다 ...), the change is read backwards.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from itertools import pairwise

from agents.verification.guard.numbers import NumberHit
from agents.verification.guard.occurrences import Occurrence, SourceFigures, stated_together

# After the start of a change in the article: "940억원에서", "(’20년) 940억 → ".
_FROM = re.compile(r"\)?(?:\s?\([^()]{0,12}\))?\s?(?:에서|→|->|⟶)")
# Between two source figures, words that make the second one the earlier value: "25GW(현재 0.35GW)".
_EARLIER = re.compile(r"전년|지난해|작년|이전|기존|종전|당초|현행|현재|에서|보다|대비|부터|→")
_REACH = 40  # the end of a change follows its start closely: "940억원에서 내년 1314억원으로"


def reversed_ends(
    text: str, numbers: Sequence[NumberHit], index: SourceFigures
) -> dict[int, tuple[Occurrence, Occurrence]]:
    """For the end figure of each change the source states the other way round: its position in
    numbers → (the source's first figure, its second)."""
    found: dict[int, tuple[Occurrence, Occurrence]] = {}
    for i, (start, end) in enumerate(pairwise(numbers)):
        if not start.family or start.family != end.family or start.value == end.value:
            continue
        if not _FROM.match(text, start.end) or end.start - start.end > _REACH:
            continue
        order = _source_order(start, end, index)
        if order:
            found[i + 1] = order
    return found


def _source_order(
    start: NumberHit, end: NumberHit, index: SourceFigures
) -> tuple[Occurrence, Occurrence] | None:
    """The (end, start) pair of one source sentence when every such pair puts the end first."""
    pairs = stated_together(start, end, index)
    if not pairs or any(a.start < b.start for a, b in pairs):
        return None
    for a, b in pairs:  # b (the article's end) comes first in the source
        between = index.texts[a.source][b.end : a.start]
        if _EARLIER.search(between) or a.context.role == "from" or b.context.role == "to":
            return None
    a, b = pairs[0]
    return b, a

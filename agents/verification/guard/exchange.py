"""Two subjects exchanged around their figures: "경기(-0.19%), 인천(-0.14%)" for the source's
"인천(-0.19%), 경기(-0.14%)".

No figure moves, so each value is stated and the words around it are the source's words: binding
alone may confirm both. Two figures of one unit in one article sentence are exchanged when one
source sentence states both values and each value's own words there are the words the article gives
the other figure, and not its own.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

from agents.verification.guard.agreement import agreements
from agents.verification.guard.context import Context
from agents.verification.guard.numbers import NumberHit
from agents.verification.guard.occurrences import Occurrence, SourceFigures, stated_together


def exchanged(
    numbers: Sequence[NumberHit], found: Sequence[Context], index: SourceFigures
) -> dict[int, Occurrence]:
    """Position in numbers → the source figure whose words the article gave it, for each figure
    of an exchanged pair."""
    result: dict[int, Occurrence] = {}
    for i, j in combinations(range(len(numbers)), 2):
        first, second = numbers[i], numbers[j]
        if not first.family or first.family != second.family or first.value == second.value:
            continue
        pairs = stated_together(first, second, index)  # once each, in one source sentence
        if len(pairs) == 1 and _swapped(found[i], found[j], *pairs[0]):
            result[i], result[j] = pairs[0][1], pairs[0][0]
    return result


def _swapped(first: Context, second: Context, one: Occurrence, two: Occurrence) -> bool:
    """The first figure's own words name what only the second value is about in the source, and
    nothing only the first value is about; and the other way round."""
    mine, theirs = _own(first), _own(second)
    one_only, two_only = _only(one.context, two.context), _only(two.context, one.context)
    return (
        agreements(mine, two_only) > agreements(mine, one_only) == 0
        and agreements(theirs, one_only) > agreements(theirs, two_only) == 0
    )


def _own(context: Context) -> Context:
    """Only the words right before a figure: the label it is about."""
    return Context.of(frozenset(w for w in context.own if ":" not in w), frozenset(), "")


def _only(this: Context, other: Context) -> Context:
    """What this source figure is about and the other is not: "고등학교" of "고등학교(69.4%)"."""
    return Context.of(this.about - other.about, frozenset(), "")

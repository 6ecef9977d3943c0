"""A figure moved to a thing the release names without it.

"농산업 혁신벨트를 2030년까지 4000개로 늘리고 … 농촌융복합산업 인증사업자 조성도 강화한다", where
the release gives 4000개 to 인증사업자 and names 혁신벨트 only without a figure, or "5번째 환자의
지인 2명과 6번째 환자의 가족 1명", where the release's 2명 are 가족: the value is in the release,
and no other figure fits the article's words better, so binding by context alone confirms it.
It is contradicted when the article ties the value to a thing the release names, no source
sentence stating the value names that thing, and what the release ties the value to stands in the
article's sentence too but not before the figure: the figure was moved away from its owner, not
put in other words.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from agents.verification.guard.agreement import related
from agents.verification.guard.context import Context, words
from agents.verification.guard.numbers import NumberHit
from agents.verification.guard.occurrences import Occurrence, SourceFigures


@dataclass(frozen=True)
class Said:
    """An article sentence: its text, its words, and, by family, the words it ties to more than
    one figure ("5번째 환자의 … 6번째 환자의": 환자 tells the two counts apart not)."""

    text: str
    words: Context
    common: dict[str, frozenset[str]]

    @classmethod
    def of(cls, text: str, numbers: Sequence[NumberHit], found: Sequence[Context]) -> Said:
        seen: dict[str, set[str]] = {}
        common: dict[str, set[str]] = {}
        for number, context in zip(numbers, found, strict=True):
            common.setdefault(number.family, set()).update(seen.get(number.family, set()) & context.own)
            seen.setdefault(number.family, set()).update(context.own)
        return cls(text, bag(words(text)), {family: frozenset(w) for family, w in common.items()})


def named_elsewhere(
    number: NumberHit, context: Context, same: Sequence[Occurrence], index: SourceFigures, said: Said
) -> bool:
    """Whether the article moved the value of same (its source mentions) to another named thing."""
    stated = [index.sentences[(o.source, o.sentence)] for o in same]
    # Pairs joined into one word ("환자지인") would be found by their first word alone.
    own = [w for w in context.own - said.common[number.family] if ":" not in w and not _joins(w, context.own)]
    named = bag(w for w in own if related(bag((w,)), index.vocabulary))
    if not named.own or any(related(named, s) for s in stated):
        return False
    # What every source mention of the value is tied to: a value stated of several things is no clue.
    owners = bag(w for w in frozenset.intersection(*(o.context.own for o in same)) if ":" not in w)
    return bool(owners.own) and related(owners, said.words) and not related(owners, context)


def bag(found: Iterable[str]) -> Context:
    """Words as a context of their own, to ask whether another context holds any of them."""
    return Context.of(frozenset(found), frozenset(), "")


def _joins(word: str, found: frozenset[str]) -> bool:
    return any(other != word and word.startswith(other) for other in found)

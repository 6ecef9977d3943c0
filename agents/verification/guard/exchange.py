"""Two subjects exchanged around their figures: "경기(-0.19%), 인천(-0.14%)" for the source's
"인천(-0.19%), 경기(-0.14%)".

No figure moves, so each value is stated and the words around it are the source's words: binding
alone may confirm both. Two figures of one article sentence are exchanged when one source sentence
states both values and each value's own words there are the words the article gives the other
figure, and not its own; or, read by the one word right before each figure (its label: "경기" of
"경기(-0.19%)", "서울" of "서울은 3.1%"), when the two labels stand crossed. The labels need not
share a unit: "실업자는 3.7%, 실업률은 101만명" exchanges them as well.

A label may also trade places with a word of the sentence that labels no figure: "취업자는 통계청이
2623만명으로" for "통계청은 취업자가 2623만명으로". That reading (`moved`) rests on one figure
alone, so its family is a suspect (guard.rules).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from itertools import combinations

from agents.verification.guard.agreement import agreements, speaks_of
from agents.verification.guard.context import Context, stem
from agents.verification.guard.numbers import NumberHit, format_value
from agents.verification.guard.occurrences import Occurrence, SourceFigures, stated_together

# The word right before a figure, with what may stand between them: a bracket ("경기(-0.19%)"), a
# space, a sign ("▲3.2%"). A word that goes on from a figure or a bracket ("35만명으로 12만명") is
# that figure's unit and particle, no label.
_LABEL = re.compile(r"(?<![\w.,%)）])([가-힣A-Za-z]+)[ \t]?[(（]?[ \t]?[+\-−▲▼△▽]?$")
_REACH = 24
# "평년보다 85.3㎜", "전년에 비해 3%": the base of a comparison, not what the figure is.
_BASE = re.compile(r"(?:보다|대비|비해|비하면|견줘|比)$")
# The particles of a subject or topic: a label moved away from its figure is still the sentence's
# subject ("취업자는 … 통계청이 2623만명"); a word of time or place ("현재", "kWh당") is not.
_PARTICLE = "(?:은|는|이|가)(?![가-힣])"
_AMOUNT = re.compile(r"\d[\d,.]*\s?(?:[십백천만억조]\s?)*$")


def label(text: str, start: int) -> str:
    """The stem of the word right before the figure at start ("서울" of "서울은 3.1%"), or ""."""
    word = _word(text, start)
    return stem(word) if word else ""


def _word(text: str, start: int) -> str:
    """The word right before the figure at start as written ("서울은"), or "" where none labels it."""
    found = _LABEL.search(text, max(0, start - _REACH), start)
    if not found or _AMOUNT.search(text, max(0, found.start() - _REACH), found.start()):
        return ""  # "541억 달러로 3.1%": the word is the unit of the figure before
    return "" if _BASE.search(found.group(1)) else found.group(1)


def _subject(text: str, word: str) -> bool:
    """Whether text names word as a subject: "취업자는", "통계청이"."""
    return bool(re.search(f"(?<![가-힣]){re.escape(word)}{_PARTICLE}", text))


def exchanged(
    text: str, numbers: Sequence[NumberHit], found: Sequence[Context], index: SourceFigures
) -> dict[int, Occurrence]:
    """Position in numbers → the source figure whose words the article gave it, for each figure
    of an exchanged pair."""
    result: dict[int, Occurrence] = {}
    labels = [label(text, n.start) for n in numbers]
    for i, j in combinations(range(len(numbers)), 2):
        first, second = numbers[i], numbers[j]
        if not first.family or not second.family or first.value == second.value:
            continue
        pairs = stated_together(first, second, index)  # once each, in one source sentence
        if len(pairs) != 1:
            continue
        one, two = pairs[0]
        same_unit = first.family == second.family
        if (same_unit and _swapped(found[i], found[j], one, two)) or _crossed(
            labels[i], labels[j], _label_of(one, index), _label_of(two, index)
        ):
            result[i], result[j] = two, one
    return result


def moved(
    text: str, number: NumberHit, context: Context, index: SourceFigures
) -> tuple[Occurrence, str] | None:
    """The source mention of the value whose label the article moved elsewhere in the sentence, and
    that label: the article's subject right before the figure is a word of the sentence that states
    the value, but never of the value itself, and the source's label of the value is a subject of
    the article's sentence, but not among the words of the figure."""
    written = _word(text, number.start)
    mine = stem(written) if written else ""
    stated = index.by_key.get(f"n:{format_value(number.value)}|{number.family}", [])
    if not mine or not stated or not number.family or not re.search(f"{_PARTICLE}$", written):
        return None
    probe = Context.of(frozenset((mine,)), frozenset(), "")
    if any(agreements(probe, o.context) or _alike(mine, _label_of(o, index)) for o in stated):
        return None  # the source says the value of this label somewhere
    for occurrence in stated:
        theirs = _label_of(occurrence, index)
        where = index.sentences.get((occurrence.source, occurrence.sentence))
        if (
            theirs
            and where is not None
            and speaks_of(where, mine)
            and _subject(text, theirs)
            and not speaks_of(_bare(context), theirs)
        ):
            return occurrence, theirs
    return None


def _label_of(occurrence: Occurrence, index: SourceFigures) -> str:
    return label(index.texts[occurrence.source], occurrence.start)


def _crossed(first: str, second: str, one: str, two: str) -> bool:
    """Each article label names the other value's label in the source and not its own."""
    if not (first and second and one and two) or _alike(one, two):
        return False
    return _alike(first, two) and _alike(second, one) and not _alike(first, one) and not _alike(second, two)


def _alike(word: str, other: str) -> bool:
    """Equal, or one begins with the other ("서울" and "서울시"), as agreement reads words."""
    return word.startswith(other) or other.startswith(word)


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


def _bare(context: Context) -> Context:
    """The words a figure is about: those right before it and the nouns it qualifies."""
    return Context.of(context.about, frozenset(), "")


def _only(this: Context, other: Context) -> Context:
    """What this source figure is about and the other is not: "고등학교" of "고등학교(69.4%)"."""
    return Context.of(this.about - other.about, frozenset(), "")

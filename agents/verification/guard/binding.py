"""Numbers bound to their context on both sides, and the verdict for each article figure.

The same reader reads the article and the sources: digits and Hangul numerals with their units,
a unit written once for a list, a table's unit from its "단위: 억원" header. Each source figure is
kept with its context; an article figure is then

- confirmed where a source states the same value in a context that fits at least as well as any
  other figure of the same unit,
- contradicted where another figure of the same unit fits the article's context clearly better
  (the value belongs to something else, or the thing has another value),
- confirmed as derived where a sum, difference, ratio or change of nearby source figures gives it,
- not found otherwise.

The sources' figures are read and indexed in guard.number_index.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from decimal import ROUND_DOWN, ROUND_HALF_UP

from agents.verification.guard import dates, rules, tables
from agents.verification.guard import messages as msg
from agents.verification.guard.agreement import (
    agreements,
    described_alike,
    mentions,
    own_match,
    related,
    score,
)
from agents.verification.guard.changes import reversed_ends
from agents.verification.guard.confirm import stated_alike
from agents.verification.guard.context import Context, contexts
from agents.verification.guard.derived import derive, derive_total, describe
from agents.verification.guard.direction import flipped
from agents.verification.guard.exchange import exchanged, moved
from agents.verification.guard.hangul import said_in_words
from agents.verification.guard.hedges import hedged, steps
from agents.verification.guard.named import Said, named_elsewhere
from agents.verification.guard.number_index import (
    AHEAD,
    Location,
    NumberIndex,
    ahead,
    date_tokens,
    idiom_tokens,
    is_list,
    location_of,
)

# Re-exported: callers read source figures and sentences through this module.
from agents.verification.guard.number_index import read_numbers as read_numbers
from agents.verification.guard.number_index import source_sentences as source_sentences
from agents.verification.guard.numbers import NumberHit, format_value
from agents.verification.guard.occurrences import Occurrence
from agents.verification.guard.rivals import banded_as_stated, names_rival
from agents.verification.guard.within import quantum, rate_of, total_of

MARGIN = 2  # how much better another figure's context must fit before the value is called misplaced


@dataclass(frozen=True)
class Binding:
    status: str
    reason: str
    location: Location | None = None
    formula: str = ""
    rule: str = rules.ABSENT  # the family of the rule that gave the verdict (guard.rules)
    # For a value the source states about something else: where it states it.
    value_at: Location | None = None


def bind(
    text: str,
    numbers: list[NumberHit],
    index: NumberIndex,
    reference: date | None,
    previous: Sequence[NumberHit] = (),
) -> list[Binding]:
    """A verdict for each article number of one sentence; previous are the figures of the sentence
    before it (positions relative to this one), from which a rate or gap may be computed."""
    date_hits = dates.find_dates(text)
    extra = date_tokens(date_hits, reference) + idiom_tokens(text)
    skip = [(h.start, h.end) for h in date_hits]
    article = contexts(text, [(n.start, n.end) for n in numbers], extra, skip, ahead=ahead(numbers))
    said = Said.of(text, numbers, article)
    bindings = [
        _bind_in(number, context, index, numbers, previous, said)
        for number, context in zip(numbers, article, strict=True)
    ]
    for position, owner in exchanged(text, numbers, article, index).items():
        if bindings[position].status == "confirmed":
            where = location_of(owner)
            bindings[position] = Binding("contradicted", msg.EXCHANGED, where, rule=rules.EXCHANGED)
    for position, (number, context) in enumerate(zip(numbers, article, strict=True)):
        if bindings[position].rule == rules.MATCH and _may_move(number, []):
            found = moved(text, number, context, index)
            if found:
                reason = msg.MOVED.format(label=found[1])
                bindings[position] = Binding("contradicted", reason, location_of(found[0]), rule=rules.MOVED)
    for position, number in enumerate(numbers):
        if bindings[position].rule == rules.MATCH and number.unit:
            bindings[position] = _table_cell(text, number, numbers, index) or bindings[position]
    for position, (first, second) in reversed_ends(text, numbers, index).items():
        reason = msg.REVERSED.format(first=first.text, second=second.text)
        where = (first.source, first.start, second.end)
        bindings[position] = Binding("contradicted", reason, where, rule=rules.REVERSED)
    return bindings


# A sentence that speaks of a base period too ("2023년 수출은 전년(6836억 달러)보다 줄어"): its other
# figure may be a cell of another column by right.
_BASE_PERIOD = re.compile(r"전년|전월|전기|전분기|지난해|작년|직전|이전|평년|대비|보다")


def _table_cell(text: str, number: NumberHit, numbers: list[NumberHit], index: NumberIndex) -> Binding | None:
    """The value stands only in table cells of a column (or row) other than the one the sentence
    names, and the named cell holds another figure: "’22년 환급률은 22.8%" where 22.8 is ’18년's.
    Not where the sentence compares with a base period or states the named cell's figure as well:
    then this figure may be the base."""
    if _BASE_PERIOD.search(text):
        return None
    starts: dict[int, list[int]] = {}
    for o in index.by_key.get(f"n:{format_value(number.value)}|{number.family}", []):
        starts.setdefault(o.source, []).append(o.start)
    asked = None
    for source, at in starts.items():
        cell = tables.misplaced(text, index.tables.get(source, ()), at)
        if cell is None:
            return None  # a mention fits what the sentence names, or stands outside a table
        asked = (source, cell)
    if asked is None:
        return None
    source, cell = asked
    # Read as the index reads it (with its table's unit), the named cell's figure in the sentence too.
    named = {
        o.value
        for key, found in index.by_key.items()
        if key.startswith("n:")
        for o in found
        if (o.source, o.start) == (source, cell.start)
    }
    if any(n is not number and n.value in named for n in numbers):
        return None
    reason = msg.TABLE_CELL.format(row=cell.row, column=cell.column, other=cell.number)
    return Binding("contradicted", reason, (source, cell.start, cell.end), rule=rules.TABLE_CELL)


def _bind_in(
    number: NumberHit,
    context: Context,
    index: NumberIndex,
    sentence: list[NumberHit],
    previous: Sequence[NumberHit],
    said: Said,
) -> Binding:
    """A multiple of two figures the sentence itself states is checked against them only: "(2.0%)은
    (0.7%)의 세 배" is 2.0 ÷ 0.7, whatever two other figures of the release happen to give."""
    rates = [n for n in sentence if n is not number and n.family == "%"]
    if number.family == "배" and len(rates) >= 2:
        formula = rate_of(number, sentence)
        if formula:
            return Binding("confirmed", msg.DERIVED_HERE, None, formula, rules.DERIVED)
        return Binding("not_found", msg.NOT_FOUND["number"])
    binding = _bind(number, context, index, said)
    # A flipped change word is wrong whatever figures the value is computed from.
    if binding.status == "confirmed" or binding.rule == rules.DIRECTION:
        return binding
    formula = rate_of(number, [*previous, *sentence]) or total_of(number, sentence, said.text)
    return Binding("confirmed", msg.DERIVED_HERE, None, formula, rules.DERIVED) if formula else binding


def _bind(number: NumberHit, context: Context, index: NumberIndex, said: Said) -> Binding:
    value = format_value(number.value)
    if (
        number.items and number.items == number.value
    ):  # "A와 B 두 업종" is checked against the article's own list
        return Binding("confirmed", msg.LIST_COUNT, rule=rules.LIST_COUNT)
    if not number.unit:  # a bare number says too little about what it counts to bind it
        found = index.by_key.get(f"v:{value}")
        where = location_of(found[0]) if found else index.years.get(f"v:{value}")
        return (
            Binding("confirmed", msg.CONFIRMED, where, rule=rules.MATCH)
            if where
            else Binding("not_found", msg.NOT_FOUND["number"])
        )
    same = [o for o in index.by_key.get(f"n:{value}|{number.family}", []) if _fits(o, context)]
    others = [o for o in index.rivals(number.family, context) if o.value != number.value]
    if same:
        return _stated(number, context, index, said, same, others)
    derived = _derived(number, context, index) or _rounded(number, context, index, said.text)
    if derived:
        return derived
    best_other = max(others, key=lambda o: score(context, o.context), default=None)
    if (
        best_other
        and context.own
        and own_match(context, best_other.context)
        and score(context, best_other.context) >= MARGIN
    ):
        reason = msg.OTHER_VALUE.format(other=best_other.text)
        return Binding("contradicted", reason, location_of(best_other), rule=rules.OTHER_VALUE)
    return Binding("not_found", msg.NOT_FOUND["number"])


def _stated(
    number: NumberHit,
    context: Context,
    index: NumberIndex,
    said: Said,
    same: list[Occurrence],
    others: list[Occurrence],
) -> Binding:
    """A value the source states: confirmed first where a source clause says what the article's
    does (guard.confirm), else judged by binding; its change word is checked either way."""
    best = max(same, key=lambda o: score(context, o.context))
    alike = stated_alike(said.text, number, context, same, others, index.texts)
    misplaced = None if alike else _misplaced(number, context, index, said, same, best, others)
    if misplaced:
        return misplaced
    flip = flipped(said.text, number.start, number.end, same, index.texts)
    if flip:
        return Binding("contradicted", msg.DIRECTION, location_of(flip), rule=rules.DIRECTION)
    return Binding("confirmed", msg.CONFIRMED, location_of(alike or best), rule=rules.MATCH)


def _misplaced(
    number: NumberHit,
    context: Context,
    index: NumberIndex,
    said: Said,
    same: list[Occurrence],
    best: Occurrence,
    others: list[Occurrence],
) -> Binding | None:
    """The value belongs to another subject: another figure fits the article's words clearly
    better, and the article ties the figure to something (words right before it)."""
    best_other = max(others, key=lambda o: score(context, o.context), default=None)
    if (
        best_other
        and context.own
        and own_match(context, best_other.context)
        and score(context, best_other.context) >= score(context, best.context) + MARGIN
        and not _named_as_stated(context, best, best_other)
        and names_rival(context, best, best_other)
        and not banded_as_stated(said.text[: number.start], index.texts, best, best_other)
    ):
        reason = msg.MISPLACED.format(other=best_other.text)
        return Binding(
            "contradicted",
            reason,
            location_of(best_other),
            rule=rules.OTHER_SUBJECT,
            value_at=location_of(best),
        )
    if _may_move(number, same) and named_elsewhere(number, context, same, index, said):
        return Binding("contradicted", msg.NAMED_ELSEWHERE, location_of(best), rule=rules.NAMED_ELSEWHERE)
    return None


def _named_as_stated(context: Context, same: Occurrence, rival: Occurrence) -> bool:
    """The article names what the figure is the way the source does at this value, or never names
    what the rival is: "사업에 7500억원 규모의 대출" (or "…의 자금") is the release's 7500억 원
    대출, not its "3조 4000억 원 전체 사업비", however many words before them the two share."""
    if described_alike(context, same.context) and not described_alike(context, rival.context):
        return True
    return bool(rival.context.described) and not mentions(context, rival.context.described)


def _fits(occurrence: Occurrence, context: Context) -> bool:
    """A list the source writes out counts for an article count only where they share a word: the
    "서울, 인천, 경기도" of one sentence are not the "세 가지" definitions of a family. A count with
    no word before it ("세 분야를 합하면") may be any list."""
    weak = is_list(occurrence) or said_in_words(occurrence.text)  # "시작으로" is anyone's first
    return not weak or not context.near or related(context, occurrence.context)


def _may_move(number: NumberHit, same: list[Occurrence]) -> bool:
    """An ordinal is about what follows it ("제3차 기본계획"); a list count is no one's figure."""
    return number.unit not in AHEAD and not number.text.startswith("제") and not any(map(is_list, same))


def _rounded(number: NumberHit, context: Context, index: NumberIndex, text: str) -> Binding | None:
    """ "568만명" for 5,684,745명: a source figure of the unit that rounds to the article's last digit;
    "약 2870만 명" for 2,867만 8천명: an approximation, to its last non-zero digit (guard.hedges)."""
    candidates = index.neighbours(number.family, context) or index.by_family.get(number.family, [])
    approximate = hedged(text, number)
    for step in steps(number, approximate=approximate):
        if step <= 1 and not approximate:  # "40.6%" for 40.64% is a changed digit unless marked 약
            continue
        for occurrence in candidates:
            ratio = occurrence.value / step
            whole = {ratio.to_integral_value(ROUND_HALF_UP), ratio.to_integral_value(ROUND_DOWN)}
            if occurrence.value != number.value and number.value / step in whole:
                reason = msg.ROUNDED.format(source=occurrence.text)
                return Binding("confirmed", reason, location_of(occurrence), rule=rules.ROUNDED)
    return None


def _derived(number: NumberHit, context: Context, index: NumberIndex) -> Binding | None:
    """A sum, difference, ratio or change of source figures about what the article talks about.

    The start or end of a change ("3000만 원에서 5000만 원으로") is a stated figure, never a derived
    one: a difference there would only hide a changed endpoint.
    """
    if context.role in ("from", "to") and number.family not in ("%", "%p", "배"):
        return None
    families = {number.family}
    if number.family == "%p":
        families = {"%"}
    elif number.family == "%":
        families = {f for f in index.by_family if f not in ("%", "%p", "배")}
    elif number.family == "배":  # "고등학생 2.0%는 중학생 0.7%의 세 배"
        families = {f for f in index.by_family if f not in ("%p", "배")}
    nearby = [
        o
        for f in families
        for o in _operands(
            context, index, f, index.neighbours(f, context) if context.near else index.by_family.get(f, [])
        )
    ]
    step = quantum(number)
    derivation = derive(number.value, number.family, nearby, step)
    if derivation is None and number.value >= step * 100:  # three significant digits at least
        # A total of a listed run needs no shared words: "세 분야를 합하면" names none of them.
        listed = _operands(context, index, number.family, index.by_family.get(number.family, []))
        derivation = derive_total(number.value, number.family, listed, step)
    if derivation is None:
        return None
    first, second = derivation.operands
    where = (first.source, min(first.start, second.start), max(first.end, second.end))
    return Binding("confirmed", msg.DERIVED, where, describe(derivation), rules.DERIVED)


def _operands(
    context: Context, index: NumberIndex, family: str, found: Sequence[Occurrence]
) -> list[Occurrence]:
    """The figures of found (of family) that may go into a sum, gap or rate for the article figure.
    Where the article names what its figure is about, only the figures the index finds by those
    words can agree with it: the rest are passed over without comparing their words one by one."""
    if context.own:
        hopeful = index.owned(family, context)
        found = [o for o in found if id(o) in hopeful]
    return [o for o in found if _operand_of(context, o.context)]


def _operand_of(article: Context, source: Context) -> bool:
    """Whether a source figure may go into a sum, gap or rate given for the article figure: where
    the article says what its figure is about, the source figure must be about the same thing;
    "20대 9만1000명" is not 5만 7천명 (도소매업) + 3만 4천명 (자영업자) of one labour report."""
    if article.own:
        return agreements(article, source) > 0
    return related(article, source) or not article.near

"""Evidence code can check, for a figure the code guard could not find in the sources.

The model's word alone never keeps a figure. It may keep one only with either
- a verbatim span of a source: found in a source after whitespace and number-format
  normalisation, and the guard, reading the figure in its article sentence with that span as the
  only source, confirms it where the span speaks of the same thing (the sentences share a word);
- a derivation from source figures it names (each one found in a source as written, in a source
  sentence that shares a word with the article sentence): code recomputes the sum, difference,
  ratio or change and compares it within the rounding the article's own figure shows. The guard's
  own limits hold: a one-digit count is never a sum or difference (some pair of small counts
  always gives it), and a rate or multiple whose sentence states two figures of its kind is
  computed from those two only.
The figure is read in its sentence because a figure alone has no context: "세 가지" alone is
confirmed by any list of three, and "네 배" by any two figures of a release in that ratio.
Pure Python: no Django, no LLM.
"""

from __future__ import annotations

import re
import unicodedata
from bisect import bisect_right
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from functools import lru_cache
from typing import Literal

from pydantic import BaseModel, Field

from agents.verification.guard import Finding, article_findings
from agents.verification.guard.agreement import related
from agents.verification.guard.binding import read_numbers
from agents.verification.guard.context import Context, words
from agents.verification.guard.dates import find_dates
from agents.verification.guard.numbers import NumberHit, find_numbers, mask

MIN_SPAN_CHARS = 4  # a span of a digit or two proves nothing about its context
DERIVATION_WINDOW = 300  # characters (normalised) within which a derivation's operands must stand
Operation = Literal["sum", "difference", "ratio", "percent_change", "share"]


class Derivation(BaseModel):
    operation: Operation = Field(
        description="sum(합), difference(첫 수 − 나머지), ratio(첫 수 ÷ 둘째 수, 배), "
        "percent_change(첫 수가 둘째 수 대비 몇 % 변했는지), share(첫 수가 둘째 수의 몇 %인지)"
    )
    operands: list[str] = Field(
        min_length=2, max_length=8, description="자료에 적힌 그대로의 수치와 단위 (예: '1,480억원')"
    )


@dataclass(frozen=True)
class Checked:
    """What code confirmed: the source span (1-based source number) or the recomputed formula."""

    source: int
    span: str
    formula: str = ""


_SPACE = re.compile(r"\s+")
_SENTENCE_END = re.compile(r"(?<=[.?!])\s|\n")
_DIGIT_COMMA = re.compile(r"(?<=\d),(?=\d{3})")
AMOUNT_GAP = re.compile(r"(?<=[\d조억만천백]) +(?=[\d조억만천백원])")
_FOLD = str.maketrans({"“": '"', "”": '"', "‘": "'", "’": "'", "ㆍ": "·", "•": "·", "∼": "~", "〜": "~"})


def normalise(text: str) -> str:
    """Compare spans as text with no whitespace, no thousands commas and one form of each mark."""
    text = unicodedata.normalize("NFKC", text).translate(_FOLD)
    return _DIGIT_COMMA.sub("", _SPACE.sub("", text))


def find_span(span: str, sources: Sequence[str]) -> int | None:
    """1-based number of the first source holding span (normalised), or None."""
    needle = normalise(span)
    if len(needle) < MIN_SPAN_CHARS:
        return None
    for number, source in enumerate(sources, start=1):
        if needle in _normalised_source(source):
            return number
    return None


@lru_cache(maxsize=32)
def _normalised_source(source: str) -> str:
    """Sources are normalised once: every claim of an article is looked up in the same few texts."""
    return normalise(source)


def span_supports(
    *, fact: str, span: str, sources: Sequence[str], reference: date | None, sentence: str = ""
) -> Checked | None:
    """The span is in a source and the guard, reading the fact in its sentence (the fact alone when
    none is given) with only the span as source, confirms it about the same thing."""
    number = find_span(span, sources)
    if number is None:
        return None
    # PDF text splits amounts ("1,250 억 원"); the span is also read with those gaps closed.
    readings = [span, AMOUNT_GAP.sub("", span)]
    findings = [
        f
        for f in article_findings(body=sentence or fact, sources=readings, reference=reference)
        if f.fact.text == fact
    ]
    if not findings or not all(f.supported for f in findings):
        return None
    if sentence and not all(_about_same(sentence, _sentence_at(readings, f)) for f in findings):
        return None
    return Checked(number, " ".join(span.split()))


def _sentence_at(readings: Sequence[str], finding: Finding) -> str:
    """The sentence of the span the guard confirmed the figure in; the whole span for a figure the
    article's own figures give (no location)."""
    if finding.source is None:
        return readings[0]
    text = readings[finding.source]
    starts = [m.end() for m in _SENTENCE_END.finditer(text, 0, finding.start)]
    end = _SENTENCE_END.search(text, finding.end)
    return text[max(starts, default=0) : end.start() if end else len(text)]


def _about_same(sentence: str, source_sentence: str) -> bool:
    """Whether a content word of the article sentence is in the source sentence ("서울" and "서울시"
    agree, "서울시" and "서울대" do not)."""
    article = Context.of(content_words(sentence), frozenset(), "")
    return related(article, Context.of(frozenset(), content_words(source_sentence), ""))


@lru_cache(maxsize=1024)
def content_words(text: str) -> frozenset[str]:
    """The words of text outside its figures and dates: the unit of "230억원" says nothing."""
    found = find_dates(text)
    spans = [(h.start, h.end) for h in found] + [(n.start, n.end) for n in read_numbers(text, found)]
    return frozenset(words(mask(text, spans)))


def derivation_supports(
    *, fact: str, derivation: Derivation, sources: Sequence[str], sentence: str = ""
) -> Checked | None:
    """Every operand is a source figure about what the article sentence is about, and the
    operation on them gives the fact's figure within the guard's limits."""
    claimed = _first_number(fact, lenient=False)
    if claimed is None:
        return None
    operands: list[NumberHit] = []
    for operand in derivation.operands:
        hit = _first_number(AMOUNT_GAP.sub("", operand), lenient=True)
        if hit is None:
            return None
        operands.append(hit)
    if not _allowed(derivation.operation, operands, claimed, sentence):
        return None
    if not _near_each_other([normalise(o.text) for o in operands], sources, sentence):
        return None
    compute = _OPERATIONS[derivation.operation]
    result = compute(operands, claimed.unit)
    if result is None or not _rounds_to(result, claimed):
        return None
    symbol = _SYMBOLS[derivation.operation]
    formula = f"{symbol.join(o.text for o in operands)} = {claimed.text}"
    if derivation.operation in ("percent_change", "share"):
        formula = f"{derivation.operation}({', '.join(o.text for o in operands)}) = {claimed.text}"
    return Checked(0, "", formula)


def _allowed(operation: str, operands: list[NumberHit], claimed: NumberHit, sentence: str) -> bool:
    """The guard's own limits on derived figures (guard.derived, guard.binding)."""
    if operation in ("sum", "difference") and claimed.value < 10 and claimed.value == int(claimed.value):
        return False  # 1건 + 2건 = 세 건: small counts add up to any small count
    if claimed.unit not in ("배", "%", "%p") or not sentence:
        return True
    # "증가율(12.6%)은 국내 증가율(2.9%)의 네 배": a rate or multiple of two figures of one unit its
    # sentence states is computed from those two, never from two others of the release.
    stated = [n for n in read_numbers(sentence, find_dates(sentence)) if n.unit and n.unit != claimed.unit]
    units = [n.unit for n in stated]
    if not any(units.count(unit) >= 2 for unit in units):
        return True
    keys = {(n.value, n.unit) for n in stated}
    return all((o.value, o.unit) in keys for o in operands)


def _near_each_other(needles: list[str], sources: Sequence[str], sentence: str = "") -> bool:
    """All operands stand within DERIVATION_WINDOW characters of one another in one source, each in
    a source sentence about what the article sentence is about.

    A release holds dozens of figures, and some pair of them adds up to almost anything; a
    derivation newspapers make combines figures of one passage (this year's and last year's
    budget), so operands scattered over the release, or about something else, are refused.
    """
    for source in sources:
        text = _normalised_source(source)
        places = [[m.start() for m in re.finditer(re.escape(n), text)] for n in needles]
        if sentence:
            places = [[p for p in found if _about_same(sentence, _around(source, p))] for found in places]
        if not all(places):
            continue
        for start in places[0]:
            if all(any(abs(p - start) <= DERIVATION_WINDOW for p in found) for found in places[1:]):
                return True
    return False


def _around(source: str, position: int) -> str:
    """The sentence of source (as written) holding a position of its normalised text."""
    starts, sentences = _sentence_offsets(source)
    return sentences[max(0, bisect_right(starts, position) - 1)]


@lru_cache(maxsize=32)
def _sentence_offsets(source: str) -> tuple[list[int], list[str]]:
    """Each sentence of source with where it starts in the normalised text (sentences end at
    whitespace, which normalising drops, so the normalised sentences run on one after another)."""
    starts, sentences, offset = [], [], 0
    for part in _SENTENCE_END.split(source):
        starts.append(offset)
        sentences.append(part)
        offset += len(normalise(part))
    return starts, sentences


def _first_number(text: str, *, lenient: bool) -> NumberHit | None:
    hits = find_numbers(text, lenient=lenient)
    return hits[0] if hits else None


def _same_units(operands: list[NumberHit], unit: str, *, difference: bool = False) -> bool:
    """One unit throughout; a difference of two percentages is in percentage points, never %."""
    units = {o.unit for o in operands}
    if units == {"%"} and difference:
        return unit == "%p"
    return len(units) == 1 and unit in units


def _sum(operands: list[NumberHit], unit: str) -> Decimal | None:
    return sum((o.value for o in operands), Decimal(0)) if _same_units(operands, unit) else None


def _difference(operands: list[NumberHit], unit: str) -> Decimal | None:
    if not _same_units(operands, unit, difference=True):
        return None
    first, *rest = operands
    return abs(first.value - sum((o.value for o in rest), Decimal(0)))


def _ratio(operands: list[NumberHit], unit: str) -> Decimal | None:
    first, second = operands[0], operands[1]
    if unit != "배" or first.unit != second.unit or not second.value:
        return None
    return first.value / second.value


def _percent_change(operands: list[NumberHit], unit: str) -> Decimal | None:
    first, second = operands[0], operands[1]
    if unit != "%" or first.unit != second.unit or not second.value:
        return None
    return abs(first.value - second.value) / second.value * 100


def _share(operands: list[NumberHit], unit: str) -> Decimal | None:
    first, second = operands[0], operands[1]
    if unit != "%" or first.unit != second.unit or not second.value:
        return None
    return first.value / second.value * 100


_OPERATIONS: dict[str, Callable[[list[NumberHit], str], Decimal | None]] = {
    "sum": _sum,
    "difference": _difference,
    "ratio": _ratio,
    "percent_change": _percent_change,
    "share": _share,
}
_SYMBOLS = {"sum": " + ", "difference": " − ", "ratio": " ÷ ", "percent_change": ", ", "share": ", "}


def _rounds_to(result: Decimal, claimed: NumberHit) -> bool:
    """Within half a unit of the last digit the article shows: 18.4% covers 18.35–18.45."""
    shown = claimed.text
    digits = re.search(r"\d[\d,]*(?:\.(\d+))?", shown)
    decimals = len(digits.group(1) or "") if digits else 0
    tolerance = Decimal(5) * Decimal(10) ** -(decimals + 1) * claimed.scale
    return abs(result - claimed.value) <= tolerance

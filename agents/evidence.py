"""Evidence code can check, for a figure the code guard could not find in the sources (issue 9).

The model's word alone never keeps a figure. It may keep one only with either
- a verbatim span of a source: found in a source after whitespace and number-format
  normalisation, and the guard, reading that span as the only source, supports the figure; or
- a derivation from source figures it names (each one found in a source as written): code
  recomputes the sum, difference, ratio or change and compares it within the rounding the
  article's own figure shows.
Pure Python: no Django, no LLM.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from functools import lru_cache
from typing import Literal

from pydantic import BaseModel, Field

from agents.guard import find_unsupported
from agents.guard.numbers import NumberHit, find_numbers

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
_DIGIT_COMMA = re.compile(r"(?<=\d),(?=\d{3})")
_AMOUNT_GAP = re.compile(r"(?<=[\d조억만천백]) +(?=[\d조억만천백원])")
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


def span_supports(*, fact: str, span: str, sources: Sequence[str], reference: date | None) -> Checked | None:
    """The span is in a source and the guard, reading only the span, finds the fact's value in it."""
    number = find_span(span, sources)
    if number is None:
        return None
    # PDF text splits amounts ("1,250 억 원"); the span is also read with those gaps closed.
    readings = [span, _AMOUNT_GAP.sub("", span)]
    if find_unsupported(text=fact, sources=readings, reference=reference):
        return None
    return Checked(number, " ".join(span.split()))


def derivation_supports(*, fact: str, derivation: Derivation, sources: Sequence[str]) -> Checked | None:
    """Every operand is a source figure and the operation on them gives the fact's figure."""
    claimed = _first_number(fact, lenient=False)
    if claimed is None:
        return None
    operands: list[NumberHit] = []
    for operand in derivation.operands:
        hit = _first_number(_AMOUNT_GAP.sub("", operand), lenient=True)
        if hit is None:
            return None
        operands.append(hit)
    if not _near_each_other([normalise(o.text) for o in operands], sources):
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


def _near_each_other(needles: list[str], sources: Sequence[str]) -> bool:
    """All operands stand within DERIVATION_WINDOW characters of one another in one source.

    A release holds dozens of figures, and some pair of them adds up to almost anything; a
    derivation newspapers make combines figures of one passage (this year's and last year's
    budget), so operands scattered over the release are refused.
    """
    for source in sources:
        text = _normalised_source(source)
        places = [[m.start() for m in re.finditer(re.escape(n), text)] for n in needles]
        if not all(places):
            continue
        for start in places[0]:
            if all(any(abs(p - start) <= DERIVATION_WINDOW for p in found) for found in places[1:]):
                return True
    return False


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

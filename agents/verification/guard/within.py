"""Figures an article computes from its own figures, and the last digit a figure is written to.

A rate, ratio or gap may be computed from two figures of its sentence or the sentence before it
("28.4%에서 66.3%로 … 37.9%포인트 오른 것"), and a total from the figures listed before it ("지인
1명과 가족 2명 등 접촉자 3명"). Those figures are checked against the source on their own.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from decimal import Decimal

from agents.verification.guard.derived import Operand, derive, describe
from agents.verification.guard.numbers import NumberHit, format_value

_TOTAL_WORD = re.compile(r"(?:등|총|모두|합계|합쳐|더해|더하면|합하면)")
_LAST_TOKEN = re.compile(
    r"(?P<num>[\d,]+(?:\.(?P<decimals>\d+))?) ?(?P<small>[천백])?(?P<big>조|억|만)?[^\d]*$"
)
MAGNITUDES = {"천": Decimal(1000), "백": Decimal(100), "조": Decimal(10) ** 12, "억": Decimal(10) ** 8}
MAGNITUDES["만"] = Decimal(10) ** 4


def rate_of(number: NumberHit, numbers: Sequence[NumberHit]) -> str | None:
    """The formula of a rate, ratio or gap computed from two of numbers: "증가율(12.6%)은 국내
    증가율(2.9%)의 네 배를 넘는다"."""
    if number.family not in ("%", "%p", "배"):
        return None
    # The gap of two rates is in %p: a "%" that is one is the classic slip, never a derivation.
    unusable = ("",) if number.family != "%" else ("", "%")
    operands = [
        Operand(n.value, n.family, 0, n.start, n.end, n.text)
        for n in numbers
        if n is not number and n.family not in unusable
    ]
    derivation = derive(number.value, number.family, operands, quantum(number))
    return describe(derivation) if derivation else None


def total_of(number: NumberHit, sentence: Sequence[NumberHit], text: str) -> str | None:
    """The formula of a total of the figures of its unit listed before it in its sentence, with a
    word that sums them up (등, 총, 모두, 합쳐) in between."""
    before = [n for n in sentence if n.end <= number.start and n.family == number.family and n.family]
    if len(before) < 2 or sum((n.value for n in before), Decimal(0)) != number.value:
        return None
    if not _TOTAL_WORD.search(text, before[-1].end, number.start):
        return None
    return " + ".join(n.text for n in before) + f" = {format_value(number.value)}"


def quantum(number: NumberHit) -> Decimal:
    """The last digit the article writes: 0.1 for "40.6%", 1억 for "1,200억원", 1만 for "2만5000명"'s
    neighbour "26억7000만"; 1 for a Hangul numeral."""
    found = _LAST_TOKEN.search(number.text)
    if not found:
        return Decimal(1)
    step = Decimal(1).scaleb(-len(found["decimals"] or ""))
    for part in ("small", "big"):
        step *= MAGNITUDES.get(found[part] or "", Decimal(1))
    return step

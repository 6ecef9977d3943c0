"""A figure written as an approximation: "약 2870만 명", "2860만여 명", "2870만 명가량".

Papers round a release's figure to two or three significant digits and mark it with 약, 여, 가량,
정도 or 안팎; such a figure is confirmed by a source figure that rounds (or, for 여, truncates) to
it at the last non-zero digit it writes, never coarser than two significant digits.
"""

from __future__ import annotations

import re
from decimal import Decimal

from agents.verification.guard.numbers import NumberHit
from agents.verification.guard.within import quantum

_BEFORE = re.compile(r"(?:약|대략|거의|얼추)\s?$")
_AFTER = re.compile(r"^\)?\s?(?:가량|정도|쯤|안팎|내외|남짓|여|이상)")
_SIGNIFICANT = 2  # the coarsest rounding a paper writes: "약 2900만 명" for 2,867만, not "약 3000만"


def hedged(text: str, number: NumberHit) -> bool:
    """Whether the sentence marks the figure as approximate."""
    return (
        "여" in number.text
        or bool(_BEFORE.search(text[max(0, number.start - 4) : number.start]))
        or bool(_AFTER.match(text[number.end : number.end + 4]))
    )


def steps(number: NumberHit, *, approximate: bool) -> list[Decimal]:
    """The roundings the article figure may stand for: its last written digit, and for an
    approximation every power of ten up to its last non-zero digit (at most two significant)."""
    step = quantum(number)
    found = [step]
    if not approximate or number.value <= 0:
        return found
    coarsest = Decimal(10) ** (number.value.adjusted() - _SIGNIFICANT + 1)
    while (
        step * 10 <= coarsest
        and (number.value / (step * 10)) == (number.value / (step * 10)).to_integral_value()
    ):
        step *= 10
        found.append(step)
    return found

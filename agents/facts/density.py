"""Fact density: how much a text says, in checkable facts per 100 characters.

A fact here is what the code guard can check: a distinct figure, date or quote (agents.verification.guard).
Typical published articles of each department carry a measured number of them per 100 characters
(`bench/fact_density.py` on `bench/data/density/`); material with F facts therefore supports an
article of about F / density x 100 characters. Asking the writer for more than that can only be
met with padding or guesses, which verification then cuts, so a longer request is shortened.
"""

from __future__ import annotations

from dataclasses import dataclass

from agents.drafting.material import MIN_LENGTH
from agents.verification.guard import extract_facts

# Median distinct facts per 100 characters of published articles, per department; printed by
# `python bench/fact_density.py` (bench/data/density/articles.json). Update both together.
DENSITY: dict[str, float] = {
    "사회부": 1.82,
    "정치부": 1.24,
    "경제부": 5.01,
    "산업부": 2.64,
    "테크부": 2.15,
    "문화부": 1.47,
    "스포츠부": 2.36,
    "국제부": 1.27,
}
DEFAULT_DENSITY = 2.08  # all 67 articles
SLACK = 1.25  # a request up to 25% over the supportable length is left alone: density varies


def distinct_facts(text: str) -> int:
    return len({fact.key for fact in extract_facts(text)})


def department_density(department: str) -> float:
    return DENSITY.get(department, DEFAULT_DENSITY)


@dataclass(frozen=True)
class LengthAdvice:
    requested: int
    supportable: int
    facts: int

    @property
    def shortened(self) -> bool:
        return self.supportable < self.requested


def advise_length(*, requested: int, material: list[str], department: str) -> LengthAdvice:
    """The length the material can honestly support, when the request asks for more than that."""
    facts = distinct_facts("\n\n".join(material))
    density = department_density(department)
    supportable = round(facts / density * 100, -1) if density else requested
    if requested <= supportable * SLACK:
        return LengthAdvice(requested, requested, facts)
    return LengthAdvice(requested, int(max(MIN_LENGTH, supportable)), facts)

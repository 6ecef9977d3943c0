"""The one module that reaches into the product: the guard's sentence splitter, its article check
and the missing-facts list. When the product's import paths move,
this file is the only one to change.

A finding is reduced to what the bench scores: its fact's kind, surface and sentence, its status,
and a rule family. Findings carry a `rule` field once the guard names its families; until then the
family is derived here from the Korean reason the guard gives (one template per rule).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date

from agents.facts import keyfacts as _keyfacts
from agents.verification.guard import article_findings as _check_article
from agents.verification.guard import join_sentences as _join
from agents.verification.guard import messages as _msg
from agents.verification.guard import split_sentences as _split

FLAG_STATUSES = ("not_found", "contradicted", "suspect")


@dataclass(frozen=True)
class Sentence:
    index: int  # 1-based, as the guard numbers them
    text: str
    paragraph: int


@dataclass(frozen=True)
class Check:
    kind: str  # "number" | "date" | "quote"
    text: str  # the fact's surface in the article
    sentence: int
    status: str  # "confirmed" | "not_found" | "contradicted" (| "suspect" once it exists)
    family: str  # the rule family that decided the status

    @property
    def flagged(self) -> bool:
        return self.status in FLAG_STATUSES


@dataclass(frozen=True)
class Listed:
    fact: str
    source_text: str


def split(text: str) -> list[Sentence]:
    return [Sentence(s.index, s.text, s.paragraph) for s in _split(text)]


def join(sentences: Sequence[Sentence]) -> str:
    from agents.verification.guard import Sentence as _Sentence

    return _join([_Sentence(index=s.index, text=s.text, paragraph=s.paragraph) for s in sentences])


def check(*, body: str, sources: Sequence[str], reference: date | None) -> list[Check]:
    findings = _check_article(body=body, sources=sources, reference=reference)
    return [
        Check(f.fact.kind, f.fact.text, f.fact.sentence, f.status, family_of(f.status, f.reason, f))
        for f in findings
    ]


def missing(*, release: str, body: str) -> list[Listed]:
    return [
        Listed(k.fact, k.source_text)
        for k in _keyfacts.missing_facts(release=release, headline="", body=body)
    ]


def _template(text: str) -> re.Pattern[str]:
    """A reason template ("… 수치는 {other}") as a pattern that matches any filled-in reason."""
    parts = re.split(r"\{[a-z_]+\}", text)
    return re.compile("^" + ".*".join(re.escape(p) for p in parts) + "$", re.DOTALL)


# Reason template → family. Contradictions name what the rule claims; confirmations and absences
# are families too, so a rule that confirms wrongly (a missed error) is counted against itself.
_FAMILIES: list[tuple[re.Pattern[str], str]] = [
    (_template(_msg.MISPLACED), "bind:other-subject"),
    (_template(_msg.OTHER_VALUE), "bind:other-value"),
    (_template(_msg.NAMED_ELSEWHERE), "bind:named-elsewhere"),
    (_template(_msg.REVERSED), "change:reversed"),
    (_template(_msg.DAY_MISPLACED), "date:other-event"),
    (_template(_msg.DIRECTION), "change:direction"),
    (_template(_msg.EXCHANGED), "bind:exchanged"),
    (_template(_msg.MOVED), "bind:label-moved"),
    (_template(_msg.ROUNDED), "confirm:rounded"),
    (_template(_msg.LIST_COUNT), "confirm:list-count"),
    (_template(_msg.DERIVED), "confirm:derived"),
    (_template(_msg.DERIVED_HERE), "confirm:derived"),
    (_template(_msg.DERIVED_FROM_ARTICLE), "confirm:derived"),
    (_template(_msg.AS_IN_BODY), "confirm:as-in-body"),
    (_template(_msg.ANNOUNCED), "confirm:announced"),
    (_template(_msg.CONFIRMED), "confirm:match"),
]


def family_of(status: str, reason: str, finding: object = None) -> str:
    rule = getattr(finding, "rule", "")
    if rule:
        return str(rule)
    if status == "not_found":
        return "absent"
    for pattern, family in _FAMILIES:
        if pattern.match(reason):
            return family
    return f"{status}:other"

"""The headline, checked as the short restatement of the body it is.

A headline drops the words that bind a figure: "올해 북한 식량작물 생산량 451만t…18만t 감소" has no
"지난해보다", "6년 새 9.6%포인트" names neither year, "인구 12만명 자연감소" nothing of the births
and deaths around it. Read alone against the release, such figures look unbound or misplaced. So a
headline figure the release does not confirm by itself is read once more right after each body
sentence that restates it, with the body sentences the guard passed as one more source: it is
confirmed where the release confirms it in that sentence's company (a span of years, a gap or a
rate that sentence states), or where the verified body states it about the same thing. A figure
the body never states, or states about something else, stays flagged.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from datetime import date

from agents.verification.guard import messages as msg
from agents.verification.guard import rules
from agents.verification.guard.context import words
from agents.verification.guard.facts import Finding, article_findings
from agents.verification.guard.sentences import split_sentences

FLAGS = ("not_found", "contradicted", "suspect")
RESTATING = 3  # body sentences tried per headline: those sharing the most words with it


def headline_findings(
    *, headline: str, body: str, sources: Sequence[str], reference: date | None = None
) -> list[Finding]:
    """Every fact of the headline with its status, as article_findings gives it for a body."""
    found = article_findings(body=headline, sources=sources, reference=reference)
    if not any(f.status in FLAGS for f in found):
        return found
    passed = _passed(body, sources, reference)
    if not passed:
        return found
    verified = "\n".join(passed)
    for sentence in _restating(headline, passed):
        found = _again(found, f"{sentence}\n{headline}", [*sources, verified], reference)
    return found


def _passed(body: str, sources: Sequence[str], reference: date | None) -> list[str]:
    """The body sentences with no flagged fact: the ones the reader will see."""
    flagged = {
        f.fact.sentence
        for f in article_findings(body=body, sources=sources, reference=reference)
        if f.status in FLAGS
    }
    return [s.text for s in split_sentences(body) if s.index not in flagged]


def _restating(headline: str, sentences: list[str]) -> list[str]:
    """The body sentences that share the most words (figures included) with the headline."""
    wanted = set(words(headline)) | set(headline.split())
    scored = [(len(wanted & (set(words(s)) | set(s.split()))), -i, s) for i, s in enumerate(sentences)]
    return [s for score, _, s in sorted(scored, reverse=True)[:RESTATING] if score]


def _again(found: list[Finding], text: str, sources: list[str], reference: date | None) -> list[Finding]:
    """found, with each flag the headline loses when read after a body sentence replaced."""
    read = article_findings(body=text, sources=sources, reference=reference)[-len(found) :]
    if [f.fact.text for f in read] != [f.fact.text for f in found]:
        return found  # the headline reads differently after the sentence: nothing to compare
    return [_settled(old, new, body=len(sources) - 1) for old, new in zip(found, read, strict=True)]


def _settled(old: Finding, new: Finding, *, body: int) -> Finding:
    if old.status not in FLAGS or new.status != "confirmed":
        return old
    if new.source == body:  # the verified body states it about the same thing: cite the body
        return replace(
            old,
            status="confirmed",
            evidence=new.evidence,
            reason=msg.AS_IN_BODY,
            source=None,
            start=0,
            end=0,
            rule=rules.AS_IN_BODY,
        )
    return replace(new, fact=old.fact)

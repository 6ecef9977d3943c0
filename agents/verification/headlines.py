"""The headline is verified like a sentence: it is never delivered with a fact the
sources do not support.

A flagged headline is replaced, in this order, by the verifier's rewrite (asked for in the same
forced `verify_article` call, and checked by the guard like any text), by the headline with the
words carrying the unsupported facts removed, or, when neither holds, by the verified body's
first sentence with a warning asking the reporter for a new headline.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from agents import messages as msg
from agents.verification.guard import headline_findings, split_sentences

FLAGGED = ("not_found", "contradicted")
MIN_HEADLINE_WORDS = 3  # fewer words left after removal read as a fragment, not a headline
MAX_HEADLINE_CHARS = 200
_DANGLING = ",·…:;-–— "


@dataclass
class SettledHeadline:
    headline: str
    warnings: list[str] = field(default_factory=list)


def settle_headline(
    *,
    headline: str,
    issues: Sequence[Any],
    proposed: str,
    body: str,
    sources: Sequence[str],
    reference: date | None,
    cut: Sequence[str] = FLAGGED,
) -> SettledHeadline:
    """The headline to deliver; the headline's issues whose status is in `cut` get the action
    that was taken."""
    flagged = [i for i in issues if i.sentence_index == 0 and i.status in cut]
    if not flagged:
        return SettledHeadline(headline)
    facts = ", ".join(dict.fromkeys(i.claim for i in flagged))
    for candidate in (" ".join(proposed.split()), _without(headline, flagged)):
        if candidate and candidate != headline and _holds(candidate, body, sources, reference):
            _mark(flagged, "trimmed")
            return SettledHeadline(
                candidate, [msg.HEADLINE_REVISED.format(facts=facts, old=headline, new=candidate)]
            )
    _mark(flagged, "deleted")
    return SettledHeadline(_from_body(body), [msg.HEADLINE_FROM_BODY.format(facts=facts)])


def _without(headline: str, flagged: Sequence[Any]) -> str:
    """The headline minus every word that overlaps a flagged claim; "" when a claim is not in it."""
    words = _words(headline)
    dropped: set[int] = set()
    for issue in flagged:
        start = headline.find(issue.claim)
        if not issue.claim or start < 0:
            return ""
        end = start + len(issue.claim)
        dropped |= {n for n, (a, b, _) in enumerate(words) if a < end and start < b}
    kept = [word for n, (_, _, word) in enumerate(words) if n not in dropped]
    if len(kept) < MIN_HEADLINE_WORDS:
        return ""
    return " ".join(kept).strip(_DANGLING)


def _words(text: str) -> list[tuple[int, int, str]]:
    found, position = [], 0
    for word in text.split():
        start = text.index(word, position)
        position = start + len(word)
        found.append((start, position, word))
    return found


def _holds(candidate: str, body: str, sources: Sequence[str], reference: date | None) -> bool:
    found = headline_findings(headline=candidate, body=body, sources=list(sources), reference=reference)
    return all(f.supported for f in found)


def _from_body(body: str) -> str:
    sentences = split_sentences(body)
    return sentences[0].text.rstrip(".")[:MAX_HEADLINE_CHARS] if sentences else msg.HEADLINE_MISSING


def _mark(flagged: Sequence[Any], action: str) -> None:
    for issue in flagged:
        issue.action = action

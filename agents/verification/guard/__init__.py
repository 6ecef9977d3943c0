"""The deterministic fact guard: numbers, units, dates and quotes checked in code before the LLM.

Every number with its unit, every date and every direct quote of an article is extracted,
normalised and looked up in the source texts; whatever is not found is flagged, and the caller
cuts the sentence it came from. Pure Python: no Django, no LLM.
"""

from __future__ import annotations

from agents.verification.guard.facts import Fact, Finding, article_findings, extract_facts, find_unsupported
from agents.verification.guard.headline import headline_findings
from agents.verification.guard.sentences import Sentence, join_sentences, normalize_body, split_sentences

__all__ = [
    "Fact",
    "Finding",
    "Sentence",
    "article_findings",
    "extract_facts",
    "find_unsupported",
    "headline_findings",
    "join_sentences",
    "normalize_body",
    "split_sentences",
]

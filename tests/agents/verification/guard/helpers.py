"""Small readers shared by the guard's tests."""

from __future__ import annotations

from datetime import date

from agents.verification.guard import extract_facts, find_unsupported, split_sentences


def keys(text: str, *, reference: date | None = None) -> list[str]:
    return [fact.key for fact in extract_facts(text, reference=reference)]


def texts(body: str) -> list[str]:
    return [sentence.text for sentence in split_sentences(body)]


def unsupported(article: str, *sources: str, reference: date | None = None) -> list[str]:
    return [fact.text for fact in find_unsupported(text=article, sources=sources, reference=reference)]

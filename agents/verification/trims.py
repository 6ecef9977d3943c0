"""Whether a verifier's trimmed sentence only removes from the original (a safe trim).

The model may offer a shorter version of a flagged sentence. Code accepts it only when it is the
original with whole 어절 (space-separated words) deleted: no word replaced, so no name can change
(서울시 → 서울대) and no ending can turn a plan into a fact; no deleted word carries a negation,
so "지원하지 않는다" can never become "지원한다"; and the guard finds nothing new in what is left.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import date

from agents.verification.guard import find_unsupported

# Punctuation a trim may drop or move at a word's edge: the sentence's final period follows the
# new last word, and a comma before a deleted clause goes with it.
_EDGE = ".,!?;:…·"
# A word that is itself a negation, or a verb form built on one (않다, 없다, 아니다, 못하다).
_NEGATION_WORDS = frozenset({"안", "못", "아니", "아니다", "아닌", "아니라", "아니고"})
_NEGATION_PARTS = re.compile(r"않|없|아니|아닌|아냐|못하|못했|못한|못할|못해|안\s?된|안\s?돼|안\s?한|안\s?했")
# Sino-Korean negative prefixes (미지급, 불허, 비공개); a deleted word starting with one is refused.
# This also refuses deleting 미국 or 비용: a refused trim cuts the sentence, which is the safe side.
_NEGATIVE_PREFIX = re.compile(r"^[\"'“‘(]?[미불비무][가-힣]")


def is_safe_trim(*, original: str, trimmed: str, sources: Sequence[str], reference: date | None) -> bool:
    """True when `trimmed` is `original` minus whole words, drops no negation and adds no fact."""
    if not trimmed.strip() or trimmed == original or len(trimmed) >= len(original):
        return False
    deleted = deleted_words(original=original, trimmed=trimmed)
    if deleted is None or not deleted:
        return False
    if any(drops_negation(word) for word in deleted):
        return False
    return not find_unsupported(text=trimmed, sources=list(sources), reference=reference)


def deleted_words(*, original: str, trimmed: str) -> list[str] | None:
    """The original's words missing from the trim, or None when the trim is not a subsequence."""
    kept = [_bare(w) for w in trimmed.split()]
    kept = [w for w in kept if w]
    words = original.split()
    deleted: list[str] = []
    position = 0
    for word in words:
        if position < len(kept) and _bare(word) == kept[position]:
            position += 1
        else:
            deleted.append(word)
    return deleted if position == len(kept) else None


def drops_negation(word: str) -> bool:
    bare = _bare(word)
    return bare in _NEGATION_WORDS or bool(_NEGATION_PARTS.search(bare) or _NEGATIVE_PREFIX.match(bare))


def _bare(word: str) -> str:
    return word.strip(_EDGE)

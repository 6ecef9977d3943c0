"""Back-mapping: from what the model said (a title and article numbers) to one listed article.

In v1 the model sometimes attached the wrong numbers, so readers saw one article's headline and
link with another article's summary. The title the model copies is tied to the summary it
writes, so the title decides first:

1. exact title;  2. equal after dropping [단독]-style bracket tags and extra spaces;
3. one normalised title contains the other (model title of 15+ characters);
4. (new) the most similar title by character bigrams, if similar enough.
When a tier has several hits (two outlets, one wire story) the article the model numbered wins,
then list order (v1 took the first in list order).

Only if no title matches do the numbers count, and then (new) only when the numbered article's
title still resembles the model's title: otherwise the item keeps the model's title and summary
and gets *no* link, so a title, a summary and a link never belong to different articles. v1
attached the first numbered article's link regardless.
"""

from __future__ import annotations

import html
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from agents.monitoring.material import Candidate

MIN_CONTAINED_CHARS = 15  # v1: shorter normalised titles are too generic for a substring match
SIMILAR_ENOUGH = 0.6  # bigram Dice for tier 4: a lightly edited copy of the listed title
INDEX_FALLBACK_MIN = 0.3  # below this the numbered article is about something else

_BRACKET_TAG = re.compile(r"[\[【［][^\]】］]*[\]】］]\s*")
_SPACES = re.compile(r"\s+")
Tier = Literal["exact", "normalized", "contained", "similar", "index", "none"]


@dataclass(frozen=True)
class Mapped:
    candidate: Candidate | None  # the article the item stands for; None: unlinked
    title: str  # the listed title when matched by title, else the model's own title
    source_count: int
    source_urls: tuple[str, ...]
    tier: Tier


def normalize_title(title: str) -> str:
    """v1's normalisation: drop every [...] tag with the spaces after it; squeeze spaces."""
    text = html.unescape(title)
    text = _BRACKET_TAG.sub("", text)
    return _SPACES.sub(" ", text).strip()


def similarity(a: str, b: str) -> float:
    """Dice coefficient of character bigrams, spaces ignored (Korean headlines share syllables)."""
    left, right = _bigrams(normalize_title(a)), _bigrams(normalize_title(b))
    if not left or not right:
        return 0.0
    common = sum(min(left.count(g), right.count(g)) for g in set(left))
    return 2 * common / (len(left) + len(right))


def map_result(
    *,
    title: str,
    source_indices: Sequence[int],
    merged_indices: Sequence[int],
    candidates: Sequence[Candidate],
) -> Mapped:
    """Maps one result; indices are the model's 1-based numbers (out-of-range ones ignored)."""
    sources = _valid(source_indices, len(candidates))
    merged = [i for i in _valid(merged_indices, len(candidates)) if i not in sources]
    numbered = sources + merged
    position, tier = match_title(title, candidates, preferred=numbered)
    if position is None and sources:
        first = sources[0]
        if similarity(title, candidates[first].title) >= INDEX_FALLBACK_MIN:
            position, tier = first, "index"
    if position is None:
        urls = tuple(dict.fromkeys(candidates[i].url for i in numbered if candidates[i].url))
        return Mapped(None, title.strip(), max(len(numbered), 1), urls, "none")
    candidate = candidates[position]
    urls = tuple(dict.fromkeys(c.url for c in (candidate, *(candidates[i] for i in numbered)) if c.url))
    mapped_title = title.strip() if tier == "index" else candidate.title
    return Mapped(candidate, mapped_title, max(len(numbered), 1), urls, tier)


def match_title(
    title: str, candidates: Sequence[Candidate], *, preferred: Sequence[int] = ()
) -> tuple[int | None, Tier]:
    """The 0-based position of the listed article the title names, and the tier that found it."""
    wanted = title.strip()
    if not wanted:
        return None, "none"
    norm = normalize_title(wanted)
    titles = [c.title.strip() for c in candidates]
    normalized = [normalize_title(t) for t in titles]
    tiers: list[tuple[Tier, list[int]]] = [
        ("exact", [i for i, t in enumerate(titles) if t == wanted]),
        ("normalized", [i for i, t in enumerate(normalized) if norm and t == norm]),
    ]
    if len(norm) >= MIN_CONTAINED_CHARS:
        tiers.append(("contained", [i for i, t in enumerate(normalized) if t and (norm in t or t in norm)]))
    for tier, hits in tiers:
        if hits:
            return _prefer(hits, preferred), tier
    scores = [similarity(wanted, t) for t in titles]
    best = max(scores, default=0.0)
    if best >= SIMILAR_ENOUGH:
        hits = [i for i, score in enumerate(scores) if best - score < 1e-9]
        return _prefer(hits, preferred), "similar"
    return None, "none"


def _prefer(hits: list[int], preferred: Sequence[int]) -> int:
    for index in preferred:
        if index in hits:
            return index
    return hits[0]


def _valid(numbers: Sequence[int], count: int) -> list[int]:
    """1-based numbers in range, as unique 0-based positions in the model's order."""
    positions: list[int] = []
    for number in numbers:
        if isinstance(number, int) and 1 <= number <= count and number - 1 not in positions:
            positions.append(number - 1)
    return positions


def _bigrams(text: str) -> list[str]:
    squeezed = text.replace(" ", "")
    return [squeezed[i : i + 2] for i in range(len(squeezed) - 1)]

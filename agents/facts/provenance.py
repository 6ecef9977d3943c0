"""Sentence provenance: each article sentence linked to the source span(s) it rests on.

Computed in code, without the model: the sources are cut into segments (lines, then sentences
inside a line) with their character offsets, and every article sentence is matched to segments
by two signals. Figures come first: a sentence that carries numbers may only point at segments
that carry one of those numbers (by value, so "29곳" finds "29개소"), and the segments are
picked greedily until every figure the sources hold is covered. A sentence without figures points
at the segment that shares the most character bigrams with it (Korean 어절 inflect, so bigrams of
the text without spaces survive "편성하였다" → "편성했다" where whole words would not).
Pure Python: no Django, no LLM.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from agents.verification.guard import extract_facts, split_sentences

# Below this share of the sentence's bigrams found in one segment, a sentence without figures is
# left unattributed rather than pinned to a loose match.
MIN_OVERLAP = 0.25
MAX_SPANS = 3
_SEGMENT_END = re.compile(r"(?<=[.?!])[\s]+|(?<=다\.)(?=\S)")
_NOT_TEXT = re.compile(r"[\W_]+")
_LEAD = re.compile(r"^[\s\-•·○□■◦▪*※①-⑳ㅇ-]+")


@dataclass(frozen=True)
class Segment:
    source: int
    start: int
    end: int
    text: str


def segments(texts: Sequence[str]) -> list[Segment]:
    """Every line of every source, cut again after a sentence end; offsets index the source text."""
    found: list[Segment] = []
    for number, text in enumerate(texts):
        for line in re.finditer(r"[^\n]+", text):
            cursor = line.start()
            for piece in [*_SEGMENT_END.split(line.group()), ""]:
                if not piece:
                    continue
                begin = text.index(piece, cursor)
                cursor = begin + len(piece)
                lead = _LEAD.match(piece)
                skip = lead.end() if lead else 0
                body = piece[skip:].rstrip()
                if len(_NOT_TEXT.sub("", body)) >= 4:
                    found.append(Segment(number, begin + skip, begin + skip + len(body), body))
    return found


def figures(text: str) -> frozenset[str]:
    """The numeric values of a text, unit left out: the article's "곳" is the release's "개소"."""
    return _figures(text)


@lru_cache(maxsize=4096)
def _figures(text: str) -> frozenset[str]:
    return frozenset(f.key.split("|")[0] for f in extract_facts(text) if f.kind == "number")


def bigrams(text: str) -> frozenset[str]:
    return _bigrams(text)


@lru_cache(maxsize=4096)
def _bigrams(text: str) -> frozenset[str]:
    flat = _NOT_TEXT.sub("", text)
    return frozenset(flat[i : i + 2] for i in range(len(flat) - 1))


def overlap(sentence: str, segment: str) -> float:
    """The share of the sentence's bigrams that the segment holds."""
    mine = bigrams(sentence)
    return len(mine & bigrams(segment)) / len(mine) if mine else 0.0


def spans_for(sentence: str, pool: Sequence[Segment]) -> list[Segment]:
    wanted = figures(sentence)
    if wanted:
        return _cover_figures(sentence, wanted, pool)
    best = max(pool, key=lambda s: overlap(sentence, s.text), default=None)
    if best is None or overlap(sentence, best.text) < MIN_OVERLAP:
        return []
    return [best]


def _cover_figures(sentence: str, wanted: frozenset[str], pool: Sequence[Segment]) -> list[Segment]:
    """Greedy cover of the sentence's figures; ties go to the segment closest in wording."""
    carrying = [s for s in pool if figures(s.text) & wanted]
    chosen: list[Segment] = []
    left = set(wanted)
    while left and carrying and len(chosen) < MAX_SPANS:
        best = max(carrying, key=lambda s: (len(figures(s.text) & left), overlap(sentence, s.text)))
        if not figures(best.text) & left:
            break
        chosen.append(best)
        left -= figures(best.text)
        carrying.remove(best)
    return sorted(chosen, key=lambda s: (s.source, s.start))


def attribute(*, body: str, sources: Sequence[str]) -> list[dict[str, object]]:
    """[{text, spans: [{source, start, end, text}]}] for every sentence of `body`."""
    pool = segments(sources)
    return [
        {
            "text": sentence.text,
            "spans": [
                {"source": s.source, "start": s.start, "end": s.end, "text": s.text}
                for s in spans_for(sentence.text, pool)
            ],
        }
        for sentence in split_sentences(body)
    ]

"""Facts of an article (numbers, dates, quotes) and their lookup in the source texts.

Sources go through the same extraction as the article and become one index of keys, so
"1200억 원" in a source supports "1,200억원" in the article; a naive substring search would not.
Quotes are the exception: they are looked up as a substring of the folded source text.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from functools import lru_cache

from agents.guard import dates
from agents.guard.numbers import NumberHit, find_numbers, format_value, mask
from agents.guard.quotes import FoldedText, find_quotes
from agents.guard.sentences import split_sentences

EVIDENCE_CHARS = 120
# The patterns allow at most one plain space inside a fact and never a line break, so every text
# is read with its runs of spaces collapsed: "7억  2만 명" in a PDF means what "7억 2만 명" means.
_SPACES = re.compile(r"[^\S\n]+")
Location = tuple[int, int, int]  # (source number, start, end)


@dataclass(frozen=True)
class Fact:
    kind: str  # "number" | "date" | "quote"
    text: str  # the surface form as written in the article
    key: str  # normalised comparison key
    sentence: int  # Sentence.index it came from; 0 for a plain text


@dataclass(frozen=True)
class Finding:
    fact: Fact
    supported: bool
    evidence: str  # when supported: a short snippet of the source around the match; else ""


@dataclass(frozen=True)
class _Probe:
    fact: Fact
    keys: tuple[str, ...]  # index keys; any one of them supports the fact
    quote: str = ""  # a folded quote, looked up by substring instead


@dataclass(frozen=True)
class _Index:
    sources: tuple[str, ...]
    keys: dict[str, Location]
    folded: tuple[FoldedText, ...]


def extract_facts(text: str, *, reference: date | None = None) -> list[Fact]:
    return [probe.fact for probe in _probes(text, reference, sentence=0)]


def find_unsupported(*, text: str, sources: Sequence[str], reference: date | None = None) -> list[Fact]:
    """The facts of text that none of the sources supports."""
    index = _index(tuple(sources), reference)
    return [p.fact for p in _probes(text, reference, sentence=0) if _locate(index, p) is None]


def check_article(*, body: str, sources: Sequence[str], reference: date | None = None) -> list[Finding]:
    """Every fact of every sentence, each with its support; Fact.sentence says which sentence to cut."""
    index = _index(tuple(sources), reference)
    findings: list[Finding] = []
    for sentence in split_sentences(body):
        for probe in _probes(sentence.text, reference, sentence=sentence.index):
            location = _locate(index, probe)
            evidence = _evidence(index.sources, location) if location else ""
            findings.append(Finding(probe.fact, location is not None, evidence))
    return findings


# --- the article side -------------------------------------------------------------------------
def _probes(text: str, reference: date | None, *, sentence: int) -> list[_Probe]:
    """Quotes, dates and numbers of text in reading order; digits inside a date are not numbers too.

    Numbers inside a quote are checked as numbers as well, so a changed figure in a quote is flagged
    twice; that is deliberate, the number finding names exactly what changed.
    """
    text = _SPACES.sub(" ", text)
    found: list[tuple[int, int, _Probe]] = []
    for quote in find_quotes(text):
        fact = Fact("quote", quote.text, f"q:{quote.key}", sentence)
        found.append((quote.start, 0, _Probe(fact, (), quote.key)))
    date_hits = dates.find_dates(text)
    for hit in date_hits:
        fact = Fact("date", hit.text, dates.date_key(hit, reference), sentence)
        keys = tuple(dates.facet_key(f) for f in dates.alternatives(hit, reference))
        found.append((hit.start, 1, _Probe(fact, keys)))
    for number in find_numbers(mask(text, [(h.start, h.end) for h in date_hits])):
        if number.unit or number.scaled or number.digits >= 2:  # a bare "3" says too little to check
            fact = Fact("number", number.text, number.key, sentence)
            found.append((number.start, 2, _Probe(fact, (_number_key(number),))))
    return [probe for _, _, probe in sorted(found, key=lambda f: (f[0], f[1]))]


def _number_key(number: NumberHit) -> str:
    """A number with a unit needs the same value and unit; a bare one needs the value with any unit."""
    return f"n:{number.key}" if number.unit else f"v:{format_value(number.value)}"


# --- the source side --------------------------------------------------------------------------
@lru_cache(maxsize=16)
def _index(sources: tuple[str, ...], reference: date | None) -> _Index:
    """Extract every source once; cached because edits re-check new text against the same sources."""
    sources = tuple(_SPACES.sub(" ", source) for source in sources)
    keys: dict[str, Location] = {}
    for number, source in enumerate(sources):
        date_hits = dates.find_dates(source, lenient=True)
        for hit in date_hits:
            where = (number, hit.start, hit.end)
            for key in dates.source_keys(hit, reference):
                keys.setdefault(key, where)
            for year in dates.years(hit):
                keys.setdefault(f"v:{year}", where)
        for found in find_numbers(mask(source, [(h.start, h.end) for h in date_hits]), lenient=True):
            where = (number, found.start, found.end)
            keys.setdefault(f"n:{found.key}", where)
            keys.setdefault(f"v:{format_value(found.value)}", where)
    return _Index(sources, keys, tuple(FoldedText(s) for s in sources))


def _locate(index: _Index, probe: _Probe) -> Location | None:
    if probe.quote:
        for number, folded in enumerate(index.folded):
            span = folded.find(probe.quote)
            if span:
                return (number, *span)
        return None
    return next((index.keys[k] for k in probe.keys if k in index.keys), None)


def _evidence(sources: tuple[str, ...], location: Location) -> str:
    """About EVIDENCE_CHARS characters of the source centred on the match, whitespace collapsed."""
    number, start, end = location
    source = sources[number]
    pad = max(0, (EVIDENCE_CHARS - (end - start)) // 2)
    snippet = source[max(0, start - pad) : end + pad]
    return " ".join(snippet.split())[:EVIDENCE_CHARS]

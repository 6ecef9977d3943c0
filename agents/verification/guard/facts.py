"""Facts of an article (numbers, dates, quotes) and their lookup in the source texts.

Sources go through the same reader as the article, so "1200억 원" in a source supports "1,200억원"
in the article; a naive substring search would not. A number is also bound to its context (see
`agents.verification.guard.context`): it is confirmed where a source states the same value about the same
thing, contradicted where the source gives that thing another value or gives the value to another
thing, and confirmed as derived where it is a sum, difference, ratio or change of nearby source
figures. Quotes are looked up as a substring of the folded source text.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import date

from agents.verification.guard import dates, rules, tables
from agents.verification.guard import messages as msg
from agents.verification.guard.announced import announcement_day, announces
from agents.verification.guard.binding import Binding, NumberIndex, bind, read_numbers
from agents.verification.guard.date_binding import DayIndex, DayVerdict
from agents.verification.guard.implied import Said, implied
from agents.verification.guard.numbers import NumberHit
from agents.verification.guard.quotes import FoldedText, find_quotes
from agents.verification.guard.sentences import split_sentences

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
    # "confirmed" | "not_found" | "contradicted" | "suspect". A binding judgement (this value
    # belongs to another subject, this date is another event's) whose rule family is not precise
    # enough to cut on its own is "suspect": the model check settles it, and without a model the
    # sentence is kept and marked for the reporter.
    status: str
    evidence: str = ""  # a short snippet of the source around the match (or the contradicting figure)
    reason: str = ""  # a short Korean reason for the reporter
    source: int | None = None  # which source the evidence comes from, and where
    start: int = 0
    end: int = 0
    formula: str = ""  # for a derived figure: how the source figures give it
    rule: str = ""  # the rule family that decided the status, e.g. "absent" or "bind:other-value"
    # For a binding judgement, where the source states the article's own value (about something
    # else); `source`/`start`/`end` then point at what the source says about the claim's subject.
    value_at: Location | None = None

    @property
    def supported(self) -> bool:
        return self.status == "confirmed"


@dataclass(frozen=True)
class _Probe:
    fact: Fact
    keys: tuple[str, ...] = ()  # date index keys; any one of them supports the fact
    quote: str = ""  # a folded quote, looked up by substring instead
    number: int = -1  # position in the sentence's number list
    hit: dates.DateHit | None = None  # a date's mention, bound to its context like a number


@dataclass(frozen=True)
class _Index:
    sources: tuple[str, ...]
    dates: dict[str, Location]
    numbers: NumberIndex
    folded: tuple[FoldedText, ...]
    days: DayIndex
    # Whether a source names its own announcement day ("1일 밝혔다"); then that day decides.
    states_its_day: bool = False


def extract_facts(text: str, *, reference: date | None = None) -> list[Fact]:
    return [probe.fact for probe in _probes(_SPACES.sub(" ", text), reference, sentence=0)[0]]


def find_unsupported(*, text: str, sources: Sequence[str], reference: date | None = None) -> list[Fact]:
    """The facts of text that no source confirms."""
    index = _index(tuple(sources), reference)
    findings = _check_all(text, index, reference, numbered=False)
    return [f.fact for f in findings if not f.supported]


def article_findings(*, body: str, sources: Sequence[str], reference: date | None = None) -> list[Finding]:
    """Every fact of every sentence with its status; Fact.sentence says which sentence to cut."""
    index = _index(tuple(sources), reference)
    return _check_all(body, index, reference, numbered=True)


def _check_all(body: str, index: _Index, reference: date | None, *, numbered: bool) -> list[Finding]:
    """Contexts never reach across sentences; a rate or gap may be computed from the figures the
    previous sentence states ("28.4%에서 66.3%로 … 37.9%포인트 오른 것"), which are checked there."""
    findings: list[Finding] = []
    previous: list[NumberHit] = []
    said: list[Said] = []
    for sentence in split_sentences(body):
        text = _SPACES.sub(" ", sentence.text)
        probes, numbers = _probes(text, reference, sentence=sentence.index if numbered else 0)
        bindings = bind(text, numbers, index.numbers, reference, previous) if numbers else []
        bindings = [
            _implied(b, n, text, numbers, said, reference) for b, n in zip(bindings, numbers, strict=True)
        ]
        hits = [p.hit for p in probes if p.hit]
        days = index.days.bind(text, hits, reference)
        announced = set()
        if not index.states_its_day:
            announced = {h.start for h in hits if announcement_day(text, h, reference)}
        findings += [_finding(index, probe, bindings, days, announced) for probe in probes]
        shift = len(text) + 1  # the previous sentence stands just before this one
        previous = [replace(n, start=n.start - shift, end=n.end - shift) for n in numbers]
        said.append(Said(text, tuple(numbers)))
    return findings


def _implied(
    binding: Binding,
    number: NumberHit,
    text: str,
    numbers: list[NumberHit],
    said: list[Said],
    reference: date | None,
) -> Binding:
    """A figure no source states may be one the article's own years, list or figures give."""
    if binding.status != "not_found":
        return binding
    formula = implied(number, text, numbers, said, reference)
    return (
        Binding("confirmed", msg.DERIVED_FROM_ARTICLE, None, formula, rules.DERIVED) if formula else binding
    )


# --- the article side -------------------------------------------------------------------------
def _probes(text: str, reference: date | None, *, sentence: int) -> tuple[list[_Probe], list[NumberHit]]:
    """Quotes, dates and numbers of text in reading order; digits inside a date are not numbers too.

    Numbers inside a quote are checked as numbers as well, so a changed figure in a quote is flagged
    twice; that is deliberate, the number finding names exactly what changed.
    """
    found: list[tuple[int, int, _Probe]] = []
    for quote in find_quotes(text):
        fact = Fact("quote", quote.text, f"q:{quote.key}", sentence)
        found.append((quote.start, 0, _Probe(fact, quote=quote.key)))
    date_hits = dates.find_dates(text)
    for hit in date_hits:
        if dates.is_name(text, hit):  # its digits stay masked: "6·13" is neither a day nor two numbers
            continue
        fact = Fact("date", hit.text, dates.date_key(hit, reference), sentence)
        keys = tuple(dates.facet_key(f) for f in dates.alternatives(hit, reference))
        found.append((hit.start, 1, _Probe(fact, keys, hit=hit)))
    numbers = [n for n in read_numbers(text, date_hits) if n.unit or n.scaled or n.digits >= 2]
    for position, number in enumerate(numbers):
        fact = Fact("number", number.text, number.key, sentence)
        found.append((number.start, 2, _Probe(fact, number=position)))
    return [probe for _, _, probe in sorted(found, key=lambda f: (f[0], f[1]))], numbers


# --- the source side --------------------------------------------------------------------------
_CACHE: dict[tuple[tuple[str, ...], date | None], _Index] = {}


def _index(sources: tuple[str, ...], reference: date | None) -> _Index:
    """Read every source once; cached because edits re-check new text against the same sources."""
    cached = _CACHE.get((sources, reference))
    if cached is not None:
        return cached
    spaced = tuple(_SPACES.sub(" ", source) for source in sources)
    date_keys: dict[str, Location] = {}
    numbers = NumberIndex()
    days = DayIndex()
    states = False
    for number, source in enumerate(spaced):
        date_hits = dates.find_dates(source, lenient=True)
        states = states or any(announces(source, hit) for hit in date_hits)
        for hit in [*date_hits, *dates.header_years(source)]:
            where = (number, hit.start, hit.end)
            for key in dates.source_keys(hit, reference):
                date_keys.setdefault(key, where)
            for year in dates.years(hit):
                numbers.add_year(year, where)
        numbers.add_source(number, source, date_hits, reference)
        numbers.tables[number] = tables.read(sources[number])
        days.add_source(number, source, date_hits, reference)
    index = _Index(spaced, date_keys, numbers, tuple(FoldedText(s) for s in spaced), days, states)
    if len(_CACHE) >= 16:
        _CACHE.pop(next(iter(_CACHE)))
    _CACHE[(sources, reference)] = index
    return index


def _finding(
    index: _Index, probe: _Probe, bindings: list[Binding], days: dict[int, DayVerdict], announced: set[int]
) -> Finding:
    if probe.number >= 0:
        return _number_finding(index, probe.fact, bindings[probe.number])
    if probe.hit and probe.hit.start in announced:
        return Finding(probe.fact, "confirmed", reason=msg.ANNOUNCED, rule=rules.ANNOUNCED)
    location = _locate(index, probe)
    if location is None:
        return Finding(probe.fact, "not_found", reason=msg.NOT_FOUND[probe.fact.kind], rule=rules.ABSENT)
    verdict = days.get(probe.hit.start) if probe.hit else None
    if verdict:  # the day is in the source, but another day fits what the article says of it
        binding = Binding("contradicted", verdict.reason, verdict.location, rule=rules.OTHER_EVENT)
        return _number_finding(index, probe.fact, binding)
    source, start, end = location
    evidence = _evidence(index.sources, location)
    return Finding(probe.fact, "confirmed", evidence, msg.CONFIRMED, source, start, end, rule=rules.MATCH)


def _number_finding(index: _Index, fact: Fact, binding: Binding) -> Finding:
    """A contradiction is as strong as the family of the rule that found it (guard.rules)."""
    status = rules.strength(binding.rule) if binding.status == "contradicted" else binding.status
    if binding.location is None:
        return Finding(fact, status, reason=binding.reason, formula=binding.formula, rule=binding.rule)
    source, start, end = binding.location
    evidence = _evidence(index.sources, binding.location)
    return Finding(
        fact,
        status,
        evidence,
        binding.reason,
        source,
        start,
        end,
        binding.formula,
        binding.rule,
        binding.value_at,
    )


def _locate(index: _Index, probe: _Probe) -> Location | None:
    if probe.quote:
        for number, folded in enumerate(index.folded):
            span = folded.find(probe.quote)
            if span:
                return (number, *span)
        return None
    return next((index.dates[k] for k in probe.keys if k in index.dates), None)


def _evidence(sources: tuple[str, ...], location: Location) -> str:
    """About EVIDENCE_CHARS characters of the source centred on the match, whitespace collapsed."""
    number, start, end = location
    source = sources[number]
    pad = max(0, (EVIDENCE_CHARS - (end - start)) // 2)
    snippet = source[max(0, start - pad) : end + pad]
    return " ".join(snippet.split())[:EVIDENCE_CHARS]

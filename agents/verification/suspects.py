"""Suspect findings: binding judgements the guard may not cut on by itself.

A rule family that says "this value belongs to another subject" or "this date is another event's"
and is right less than 99.5% of the time on the property corpus gives `suspect`, not
`contradicted`. The verifier sees such a claim with both source spans in the call already made
(what the source says about the claim's subject, and where it states the claim's value), and the
sentence is kept only when the answer quotes a source clause that code re-reads holding the value
together with the article's subject words (`clause_holding`); otherwise it is cut. Without a model
(verify-only, no key, a verifier outage) nothing can settle it, and a cut on a judgement this weak
would lose true sentences: the sentence is kept and marked for the reporter (`mark_unchecked`).
Pure Python: no Django, no LLM.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from datetime import date
from typing import Any, Protocol

from agents import messages as msg
from agents.verification.evidence import AMOUNT_GAP, Checked, find_span
from agents.verification.guard import dates
from agents.verification.guard.agreement import speaks_of
from agents.verification.guard.binding import read_numbers
from agents.verification.guard.context import OWN_WORDS, Context, words
from agents.verification.guard.facts import EVIDENCE_CHARS
from agents.verification.guard.numbers import mask

SUSPECT = "suspect"
# A clause ends at a sentence end, a line break, a semicolon or a comma followed by a space (the
# comma of "1,250" has none): "서울이 30.4%, 부산이 20.1%" holds two clauses, one subject each.
_CLAUSE_END = re.compile(r"(?<=[.?!])\s+|\n+|;\s*|,\s+")
# Where what a figure is about begins: a clause break, a list's middle dot, or a connective ending
# ("감소했고 ", "늘었으며 ", "증가했지만 "). A noun ending so (최고, 창고) only narrows the scope: the
# safe side, the sentence is then cut.
_SCOPE_BREAK = re.compile(r"[,;·“”\"「」]\s*|(?<=[가-힣])(?:고|며|지만|는데)\s")
_SPACES = re.compile(r"[^\S\n]+")
_ATTACHED = re.compile(r"(?<=\x00)[가-힣]+")


class IssueLike(Protocol):
    """What settling reads and writes of an Issue (agents.verification.verify)."""

    origin: str
    sentence_index: int | None
    claim: str
    kind: str
    context: str
    status: str
    source: str
    reason: str
    spans: tuple[str, str]  # what the source says about the claim's subject; where it states the value


class CheckLike(Protocol):
    """The verifier's answer about one claim (agents.verification.verify.ClaimCheck)."""

    @property
    def status(self) -> str: ...
    @property
    def sentence(self) -> int: ...
    @property
    def evidence_quote(self) -> str: ...


def settle(
    *,
    issues: Sequence[IssueLike],
    checks: Sequence[CheckLike],
    sources: Sequence[str],
    reference: date | None,
) -> None:
    """After the verifier answered: a suspect claim becomes confirmed on a clause code re-reads;
    the others stay suspect with the reason they will be cut for."""
    for issue in issues:
        if issue.origin != "code" or issue.status != SUSPECT:
            continue
        offered = [c for c in checks if c.sentence == issue.sentence_index and c.status == "confirmed"]
        quoted = [c.evidence_quote for c in offered if c.evidence_quote]
        found = _first(quoted, issue, sources, reference)
        if found is not None:
            issue.status = "confirmed"
            issue.source = f"자료 {found.source}: {found.span}"
            issue.reason = msg.SUSPECT_KEPT_BY_CLAUSE
        else:
            issue.reason = msg.SUSPECT_EVIDENCE_REJECTED if quoted else msg.SUSPECT_EVIDENCE_MISSING


def _first(
    quoted: Iterable[str], issue: IssueLike, sources: Sequence[str], reference: date | None
) -> Checked | None:
    for span in quoted:
        found = clause_holding(
            fact=issue.claim,
            kind=issue.kind,
            sentence=issue.context,
            span=span,
            sources=sources,
            reference=reference,
        )
        if found is not None:
            return found
    return None


def where(issue: IssueLike) -> str:
    """How the verifier's request names a claim's sentence."""
    return "제목(문장 0)" if issue.sentence_index == 0 else f"문장 {issue.sentence_index}"


def prompt_lines(issues: Iterable[IssueLike]) -> str:
    """The suspect claims for the verifier, each with both source spans."""
    return "\n".join(
        f'- {where(i)}: "{i.claim}" (코드 판단: {i.reason})\n'
        f'  대상에 관한 자료 구절: "{i.spans[0]}"\n  같은 값이 나오는 자료 구절: "{i.spans[1]}"'
        for i in issues
    )


def mark_unchecked(*, issues: Sequence[IssueLike]) -> None:
    """No model ran: a suspect claim is kept, and its reason tells the reporter to check it."""
    for issue in issues:
        if issue.status == SUSPECT and not issue.reason.startswith(msg.SUSPECT_MARK):
            issue.reason = msg.SUSPECT_UNCHECKED.format(reason=issue.reason or msg.SUSPECT_DEFAULT)


def is_marked(issue: Any) -> bool:
    """A suspect claim left in the article (an Issue or a saved row): the reporter is asked to
    check it."""
    return issue.status == SUSPECT and issue.action == "kept"


def clause_holding(
    *, fact: str, kind: str, sentence: str, span: str, sources: Sequence[str], reference: date | None
) -> Checked | None:
    """The span is in a source, and one clause of it states the fact's value right after every
    subject word of the fact in its article sentence.

    Both sides are read the same way: what a value is about is said between the figure before it
    (or the clause break) and the value, as the guard reads it. A whole clause is not enough:
    "자산은 4억 원으로 감소했고 부채는 2천만 원으로" holds 자산 and 2천만 원, about two things."""
    number = find_span(span, sources)
    if number is None:
        return None
    sentence = _SPACES.sub(" ", sentence or fact)
    start = sentence.find(fact)
    if start < 0:
        sentence, start = fact, 0
    places = _value_reader(fact, kind, sentence, start, reference)
    wanted = subject_words(sentence=sentence, start=start, end=start + len(fact))
    if places is None or not wanted:
        return None
    for clause in clauses(span):
        for reading, at, until in places(clause):
            if _about(reading, at, until, wanted):
                return Checked(number, clause)
    return None


def clauses(span: str) -> list[str]:
    return [c.strip() for c in _CLAUSE_END.split(_SPACES.sub(" ", span)) if c.strip()]


def subject_words(*, sentence: str, start: int, end: int) -> frozenset[str]:
    """What the article says the fact is about: the last few content words before it in its
    clause ("부산의 1인 가구 비율은 30.4%": 부산, 가구, 비율); for a fact that opens its clause, the
    first few after it."""
    masked = _masked(sentence)
    opening = max((m.end() for m in _SCOPE_BREAK.finditer(masked, 0, start)), default=0)
    before = words(masked[opening:start])
    return frozenset(before[-OWN_WORDS:] or _words_after(masked, end)[:OWN_WORDS])


def value_scope(text: str, start: int, end: int) -> list[str]:
    """The content words a source value at text[start:end] is about: those since the figure before
    it or the clause break before it, whichever is nearer ("자산은 4억 원으로 감소했고 부채는 2천만
    원으로": 부채 only); when that holds none ("1만5000가구에서 2만 가구로"), those since the clause
    break; for a value that opens its clause, the first few after it. Dates are neither words
    (지난해, 3월) nor boundaries."""
    found = dates.find_dates(text)
    masked = _masked(text)
    opening = max((m.end() for m in _SCOPE_BREAK.finditer(masked, 0, start)), default=0)
    figures = [n.end for n in read_numbers(text, found) if n.end <= start]
    near = words(masked[max([opening, *figures]) : start]) or words(masked[opening:start])
    return near or _words_after(masked, end)[:OWN_WORDS]


def _words_after(masked: str, end: int) -> list[str]:
    closing = _SCOPE_BREAK.search(masked, end)
    return words(masked[end : closing.start() if closing else len(masked)])


def _masked(text: str) -> str:
    """text with its figures and dates blanked out, and the particle or counter written onto one
    ("480억 원으로", "2018년에는"): none of them is a word about anything."""
    blank = mask(text, _fact_spans(text))
    return _ATTACHED.sub(lambda m: "\x00" * len(m.group()), blank)


def _fact_spans(text: str) -> list[tuple[int, int]]:
    """Figures and dates: their digits and units are not words about anything."""
    found = dates.find_dates(text)
    return [(h.start, h.end) for h in found] + [(n.start, n.end) for n in read_numbers(text, found)]


def _about(text: str, start: int, end: int, wanted: frozenset[str]) -> bool:
    """Whether the value at text[start:end] is about every wanted word: each is in its scope, or
    stands before it in the clause (a topic: "지난해 농가 자산은 … 부채는 2천만 원" is about 농가)
    without naming another figure there (the word right before that figure: 자산 names 4억 원)."""
    scope = value_scope(text, start, end)
    topic = words(_masked(text)[:start])
    named = {
        near[-1]
        for n in read_numbers(text, dates.find_dates(text, lenient=True), lenient=True)
        if n.start != start and (near := value_scope(text, n.start, n.end))
    }
    return bool(scope) and all(
        _has(scope, word) or (_has(topic, word) and not _has(named, word)) for word in wanted
    )


def _has(found: Iterable[str], word: str) -> bool:
    """word is among found as the guard compares words ("서울" and "서울시" agree, "서울시" and
    "서울대" do not)."""
    return speaks_of(Context.of(frozenset(), frozenset(found), ""), word)


Places = Callable[[str], list[tuple[str, int, int]]]  # (reading of the clause, start, end)


def _value_reader(fact: str, kind: str, sentence: str, start: int, reference: date | None) -> Places | None:
    """Where a source clause states the fact's value, read by the guard's reader: (the reading of
    the clause, where the value stands in it)."""
    if kind == "date":
        hit = next((h for h in dates.find_dates(sentence) if h.start == start), None)
        if hit is None:
            return None
        keys = {dates.facet_key(f) for f in dates.alternatives(hit, reference)}
        return lambda clause: [
            (clause, h.start, h.end)
            for h in dates.find_dates(clause, lenient=True)
            if keys & dates.source_keys(h, reference)
        ]
    if kind == "number":
        wanted = next(
            (n for n in read_numbers(sentence, dates.find_dates(sentence)) if n.start == start), None
        )
        if wanted is None:
            return None
        return lambda clause: [
            (reading, n.start, n.end)
            for reading in dict.fromkeys((clause, AMOUNT_GAP.sub("", clause)))
            for n in read_numbers(reading, dates.find_dates(reading, lenient=True), lenient=True)
            if n.value == wanted.value and n.family == wanted.family
        ]
    return None


def source_span(*, sources: Sequence[str], location: tuple[int, int, int] | None) -> str:
    """About EVIDENCE_CHARS characters of a source around a guard location. The guard reads each
    source with its runs of spaces collapsed, so its offsets point into that text."""
    if location is None or not 0 <= location[0] < len(sources):
        return ""
    number, start, end = location
    text = _SPACES.sub(" ", sources[number])
    pad = max(0, (EVIDENCE_CHARS - (end - start)) // 2)
    return " ".join(text[max(0, start - pad) : end + pad].split())[:EVIDENCE_CHARS]

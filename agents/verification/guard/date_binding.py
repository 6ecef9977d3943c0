"""Days bound to what happens on them: two events' days exchanged, or another day for the event.

A day the article states is found wherever a source mentions it (`guard.dates`); alone that
lets "11일까지 지침을 마련해 10일부터 적용" pass when the release says "10일까지 지침을 마련해 다음
날부터", and "오는 15일 평가회" pass when the release has a 15일 for something else. So each day is
also compared in context with the release's days: the words next to it on either side (a date is
as often written before what it is about as after), and whether it ends (까지) or starts (부터) a
span of time. It is contradicted where another day of the release fits that context clearly
better than every mention of its own day.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import date

from agents.verification.guard import dates
from agents.verification.guard import messages as msg
from agents.verification.guard.agreement import agreements, score
from agents.verification.guard.binding import source_sentences
from agents.verification.guard.context import (
    _BREAK,
    _JOIN,
    _PREDICATE,
    _STOP,
    _WORD,
    OWN_WORDS,
    Context,
    _joined,
    _label,
    _sentence_tokens,
)

MARGIN = 3  # how much better another day's context must fit: one more own word, or a role


@dataclass(frozen=True)
class DayMention:
    keys: frozenset[str]
    source: int
    start: int
    end: int
    text: str
    context: Context


@dataclass(frozen=True)
class DayVerdict:
    reason: str
    location: tuple[int, int, int]


@dataclass
class DayIndex:
    mentions: list[DayMention] = field(default_factory=list)

    def add_source(
        self, number: int, text: str, date_hits: Sequence[dates.DateHit], reference: date | None
    ) -> None:
        days = [h for h in date_hits if _is_day(h)]
        for start, end in source_sentences(text) if days else ():
            inside = [h for h in days if start <= h.start < end]
            if not inside:
                continue
            found = _contexts(text[start:end], start, inside, date_hits)
            for hit, context in zip(inside, found, strict=True):
                keys = dates.source_keys(hit, reference)
                self.mentions.append(DayMention(keys, number, hit.start, hit.end, hit.text, context))

    def bind(
        self, text: str, date_hits: Sequence[dates.DateHit], reference: date | None
    ) -> dict[int, DayVerdict]:
        """For each day of one article sentence that another day of the sources fits better: its
        start in text → why, and where that other day is."""
        days = [h for h in date_hits if _is_day(h)]
        if not days or not self.mentions:
            return {}
        verdicts = {}
        for hit, context in zip(days, _contexts(text, 0, days, date_hits), strict=True):
            keys = {dates.facet_key(f) for f in dates.alternatives(hit, reference)}
            verdict = self._verdict(context, keys)
            if verdict:
                verdicts[hit.start] = verdict
        return verdicts

    def _verdict(self, context: Context, keys: set[str]) -> DayVerdict | None:
        same = [m for m in self.mentions if not keys.isdisjoint(m.keys)]
        if not same or not context.own:
            return None
        # Another day wins only with more of the article's own words by it, not with words that
        # merely stand somewhere in its sentence.
        agreed = max(agreements(context, m.context) for m in same)
        rivals = [
            m for m in self.mentions if keys.isdisjoint(m.keys) and agreements(context, m.context) > agreed
        ]
        if not rivals:
            return None
        rival = max(rivals, key=lambda m: score(context, m.context))
        if score(context, rival.context) < max(score(context, m.context) for m in same) + MARGIN:
            return None
        return DayVerdict(msg.DAY_MISPLACED.format(other=rival.text), (rival.source, rival.start, rival.end))


def _is_day(hit: dates.DateHit) -> bool:
    return any(name == "d" for name, _ in hit.stated)


def _contexts(
    sentence: str, offset: int, days: Sequence[dates.DateHit], date_hits: Iterable[dates.DateHit]
) -> list[Context]:
    """Contexts of days within one sentence; every other date bounds their words. Other figures do
    not: "1월 10일 ‘2024 임금통계’ 보도자료" is about the 보도자료 its title names."""
    spans = [(h.start - offset, h.end - offset) for h in days]
    stops = [(h.start - offset, h.end - offset) for h in date_hits if 0 <= h.start - offset < len(sentence)]
    return contexts_around(sentence, spans, [s for s in stops if s not in spans])


_UNTIL = re.compile(r"\)?\s?까지")
_SINCE = re.compile(r"\)?\s?(?:부터|에서)")


def contexts_around(
    text: str, spans: Sequence[tuple[int, int]], stops: Sequence[tuple[int, int]]
) -> list[Context]:
    """The context of each span written before what it is about as often as after it: a date
    ("13일 감귤 평가회를 연다", "평가회를 13일 개최", "5·6 대책에서"). Its own words are the
    nearest few after it and before it, each side up to the next figure (spans and stops), clause
    break or predicate ("면제하기로 했는데 이후 8·4 대책에서": 했는데 ends the clause before 8·4);
    a date in brackets is also about the words before the bracket and the rest of the bracket
    ("보도자료(‘2016소득분배지표', ’17.5.23)"). Its role: 까지 ends a span of time, 부터 starts one."""
    marks = sorted([*spans, *stops])
    tokens = _sentence_tokens(text, marks, (), ())
    positions = [p for p, _, _ in tokens]
    ends = [*(e for _, e in marks), *_breaks(text), *(e for _, e in _predicates(text, marks))]
    starts = [
        *(s for s, _ in marks),
        *(s - 1 for s in _breaks(text)),
        *(s for s, _ in _predicates(text, marks)),
    ]
    result = []
    for start, end in spans:
        low = max([0, *(e for e in ends if e <= start)])
        high = min([len(text), *(s for s in starts if s >= end)])
        own = set(
            _joined(
                [t for t in tokens[bisect_left(positions, low) : bisect_left(positions, start)]][-OWN_WORDS:]
            )
        )
        own |= _joined([t for t in tokens[bisect_left(positions, end) :] if t[0] < high][:OWN_WORDS])
        label = _label(text, start)
        if label >= 0:
            close = text.find(")", end)
            at = bisect_left(positions, label)
            own |= _joined(tokens[max(0, at - OWN_WORDS) : at])
            own |= {t for p, _, t in tokens if label < p < (close if close >= 0 else end)}
        role = "to" if _UNTIL.match(text, end) else "from" if _SINCE.match(text, end) else ""
        result.append(Context.of(frozenset(own), frozenset(t for _, _, t in tokens) - own, role))
    return result


def _breaks(text: str) -> list[int]:
    """The ends of clause breaks: a comma, a quote, 와 joining two things."""
    return [m.end() for m in (*_BREAK.finditer(text), *_JOIN.finditer(text))]


def _predicates(text: str, marks: Sequence[tuple[int, int]]) -> list[tuple[int, int]]:
    """The spans of the predicates of text outside marks: they end the clause before them."""
    found = []
    for match in _WORD.finditer(text):
        word = match.group()
        if (
            word not in _STOP
            and _PREDICATE.search(word)
            and not any(s <= match.start() < e for s, e in marks)
        ):
            found.append(match.span())
    return found

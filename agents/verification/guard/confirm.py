"""Confirm first: a value the source states in a clause that says what the article's clause says.

Binding judges a stated value by the words before it; a release and an article put those words in
different places ("14건을 새로 지정" and "새로 지정된 곳은 14건"), so a judgement that the value
belongs to another subject is often wrong where the clauses plainly agree. A figure whose value a
source clause states with at least two of the article clause's content words, or with its
predicate and one of them, is confirmed before any binding rule may call it misplaced, unless a
rival figure's clause fits the article's words better still (then the value was moved).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from agents.verification.guard.agreement import about_word, agreements
from agents.verification.guard.context import _PREDICATE, _WORD, Context, words
from agents.verification.guard.numbers import NumberHit
from agents.verification.guard.occurrences import Occurrence

_REACH = 30  # characters after a figure that still belong to its clause
_CLAUSE_END = re.compile(r"[,;.!?\n(]|\d")
_CLAUSE_VERB = re.compile(r"[가-힣](?:고|며|면서|으나|지만|는데)\s")  # "늘었고 ", kept with its clause
_WORDS_NEEDED = 2
_RIVALS = 40  # rivals compared, in source order: enough for a release, bounded for a long source
_NOTHING = Context.of(frozenset(), frozenset(), "")
_STUCK = re.compile(r"^[가-힣)’”'\"]*")  # the particle or bracket written onto the figure


def _after(text: str, end: int) -> str:
    """The clause after a figure, without the particle stuck to it ("으로 집계됐다")."""
    window = _STUCK.sub("", text[end : end + _REACH])
    stop = _CLAUSE_END.search(window)
    window = window[: stop.start()] if stop else window
    verb = _CLAUSE_VERB.search(window)
    return window[: verb.end()] if verb else window


def _before(text: str, start: int) -> str:
    """The clause before a figure: back to the previous figure, bracket, comma or line."""
    window = text[max(0, start - _REACH) : start]
    cut = max((m.end() for m in _CLAUSE_END.finditer(window)), default=0)
    return window[cut:]


def _clause(text: str, start: int, end: int, context: Context) -> tuple[Context, str]:
    """The words a figure's clause says about it, and the clause's text."""
    before, after = _before(text, start), _after(text, end)
    found = context.about | frozenset(words(before)) | frozenset(words(after))
    # A year or month is no content word: "2030년까지 500곳" says nothing of what the 500 are.
    return Context.of(frozenset(w for w in found if ":" not in w), frozenset(), ""), before + after


def _predicate(text: str, end: int) -> str:
    """The stem of the first predicate after a figure ("지정", "늘어"), or ""."""
    for match in _WORD.finditer(_after(text, end)):
        if _PREDICATE.search(match.group()):
            return match.group()[:2]
    return ""


def stated_alike(
    text: str,
    number: NumberHit,
    context: Context,
    same: Sequence[Occurrence],
    rivals: Sequence[Occurrence],
    texts: dict[int, str],
) -> Occurrence | None:
    """The source mention of the value whose clause says what the article's does, if any."""
    article, written = _clause(text, number.start, number.end, context)
    said = _predicate(text, number.end)
    rival: Context | None = None
    for occurrence in same:
        if context.role and occurrence.context.role and context.role != occurrence.context.role:
            continue  # "451만t 줄어든" is the change, the source's "451만 t으로" what it became
        source = texts[occurrence.source]
        stated, _ = _clause(source, occurrence.start, occurrence.end, occurrence.context)
        fit = agreements(article, stated)
        if fit < 1:
            continue
        same_predicate = bool(said) and _predicate(source, occurrence.end) == said
        if fit < _WORDS_NEEDED and not same_predicate and not _names_own(context, occurrence, rivals):
            continue
        rival = rival or _best_rival(article, rivals, texts)
        if fit >= agreements(article, rival) or _told_apart(stated, rival, written):
            return occurrence
    return None


def _best_rival(article: Context, rivals: Sequence[Occurrence], texts: dict[int, str]) -> Context:
    """The clause of the other figure of the unit that fits the article's clause best."""
    clauses = [_clause(texts[r.source], r.start, r.end, r.context)[0] for r in rivals[:_RIVALS]]
    return max(clauses, key=lambda c: agreements(article, c), default=_NOTHING)


def _told_apart(stated: Context, rival: Context, written: str) -> bool:
    """The article's clause writes a word that only the stated figure's clause has: "연말정산을
    신고한 근로자" has the 신고 of "연말정산 신고 인원 1,910만 명", which "의료비 공제를 신고한
    근로자 433.6만 명" shares not as a noun; the rival fitting more words decides nothing then."""
    return any(w in written for w in stated.own - rival.own if ":" not in w and not about_word(rival, w))


def _names_own(context: Context, stated: Occurrence, rivals: Sequence[Occurrence]) -> bool:
    """A word right before the article figure is one the source writes, spelled so, only by the
    stated figure among its rivals: "플라스틱(20.8%)" for "플라스틱류(20.8%)", while the 40% is of
    "플라스틱 등 재활용가능자원"."""
    only = stated.context.about.difference(*(r.context.about for r in rivals))
    return agreements(context, Context.of(frozenset(w for w in only if ":" not in w), frozenset(), "")) > 0

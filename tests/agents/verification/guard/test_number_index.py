"""The source index reads a sentence's contexts only when a lookup may find its figures: every
lookup must still find exactly what a lookup over every figure of the family finds."""

from __future__ import annotations

from datetime import date

import pytest

from agents.verification.guard import dates
from agents.verification.guard.context import Context, contexts, prefixes_of
from agents.verification.guard.number_index import NumberIndex, keys_of, location_of, read_numbers
from agents.verification.guard.occurrences import Occurrence
from agents.verification.guard.sentences import split_sentences
from tests.agents.verification.guard.world import CASES


def _index(sources: list[str], reference: date) -> NumberIndex:
    index = NumberIndex()
    for number, source in enumerate(sources):
        index.add_source(number, source, dates.find_dates(source, lenient=True), reference)
    return index


def _article_contexts(article: str) -> list[tuple[str, Context]]:
    """Each figure of the article with a unit, by its family, with its context."""
    found = []
    for sentence in split_sentences(article):
        numbers = [n for n in read_numbers(sentence.text, dates.find_dates(sentence.text)) if n.unit]
        spans = [(n.start, n.end) for n in numbers]
        found += list(zip([n.family for n in numbers], contexts(sentence.text, spans), strict=True))
    return found


def _every(index: NumberIndex, family: str, keys: list[str], *, near: bool) -> list[Occurrence]:
    """The figures of family any key finds, each figure's context read and compared."""
    found = []
    for occurrence in index.by_family.get(family, ()):
        context = occurrence.context
        if not set(keys).isdisjoint(prefixes_of(context.about | context.shared if near else context.about)):
            found.append(occurrence)
    return sorted(found, key=location_of)


@pytest.mark.parametrize("reverse", [False, True])
def test_lookups_find_what_reading_every_context_finds(reverse: bool) -> None:
    sources = [case.release for case in CASES]
    index = _index(sources, CASES[0].reference)
    asked = [item for case in CASES for item in _article_contexts(case.article)]
    assert len(asked) > 20
    # Lookups in either order: what a lookup finds must not depend on what was read before it.
    for family, context in reversed(asked) if reverse else asked:
        for other in (family, "%", "명"):
            everything = _every(index, other, keys_of(context), near=False)
            assert index.rivals(other, context) == everything
            near = _every(index, other, keys_of(context), near=True)
            assert index.neighbours(other, context) == near
            own = _every(index, other, keys_of(context, context.own), near=False)
            assert index.owned(other, context) == {id(o) for o in own}


def test_contexts_are_read_only_for_sentences_a_lookup_may_find() -> None:
    index = _index([case.release for case in CASES], CASES[0].reference)
    family, context = _article_contexts("서울시는 청년 월세 지원 사업에 1,200억원을 투입한다.")[0]
    assert index.rivals(family, context)
    amounts = index.by_family[family]
    read = {o.source for o in amounts if "context" in vars(o)}  # a context read is kept on the figure
    # The plant release's amounts (투자, 매출) stand in sentences with none of the article's words.
    assert 0 in read and 2 not in read and any(o.source == 2 for o in amounts)

"""Source figures read and indexed with their context, apart from binding.py's verdicts on them."""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal

from agents.verification.guard import dates
from agents.verification.guard.context import Context, contexts, located_words, word_prefixes, words
from agents.verification.guard.lists import bullet_runs, sentence_list_length
from agents.verification.guard.named import bag
from agents.verification.guard.numbers import NumberHit, celsius, find_numbers, format_value, mask
from agents.verification.guard.occurrences import Occurrence
from agents.verification.guard.readings import besides, rejoined, table_readings, won
from agents.verification.guard.tables import Cell

Location = tuple[int, int, int]
# "1년 전보다" and "1년 새" are the comparison base ("전년 대비"), not a figure of their own.
_IDIOMS = re.compile(
    r"(?<![\d.,])(?:1년|한 해) (?:새|사이"
    r"|전(?=(?:\([^()]{1,20}\))?(?:보다|에 비해| 대비|과 비교|과 견줘| 같은)))"
)
# A line break ends a source sentence, except after a comma where the next line opens with no bullet:
# "- 분양은 10월 기준 20,416호로 … 감소하였고,\n1~10월 누계 기준 182,373호로 …" is one bullet, and
# the second line's figures are still about 분양.
_SENTENCE_END = re.compile(r"(?<=[.?!])\s|(?<!,)(?<!, )\n|\n(?![ \t]*[가-힣0-9A-Za-z(’‘'\"“])|\n(?=ㅇ )")
_LIST_TEXT = "항목 {}개"  # how a counted source list is shown as evidence
AHEAD = frozenset(("번째", "가지"))  # counters that stand before what they are about


@dataclass
class NumberIndex:
    by_key: dict[str, list[Occurrence]] = field(default_factory=dict)
    by_family: dict[str, list[Occurrence]] = field(default_factory=dict)
    years: dict[str, Location] = field(default_factory=dict)
    # By family, its figures by the words before them (own) or in their sentence (near); so an
    # article figure is compared only with the source figures that share a word with it, not with
    # every one of a unit. Built for a family on its first lookup: most families of a source are
    # never asked for, and a word's prefixes are spelt out once per word, not once per figure.
    by_own: dict[str, WordTable] = field(default_factory=dict)
    by_near: dict[str, WordTable] = field(default_factory=dict)
    texts: dict[int, str] = field(default_factory=dict)  # each source's text, by its number
    tables: dict[int, tuple[Cell, ...]] = field(default_factory=dict)  # each source's table cells
    # Every word of a source sentence with figures, by (source, sentence start), and of all sources.
    sentences: dict[tuple[int, int], Context] = field(default_factory=dict)
    vocabulary: Context = field(default_factory=lambda: bag(()))

    def rivals(self, family: str, context: Context) -> list[Occurrence]:
        """The figures of family with a word before them that may match a word of context."""
        return self._own_table(family).lookup(context)

    def owned(self, family: str, context: Context) -> set[int]:
        """The ids of the figures of family with a word before them that may match an own word of
        context: all that agreement.agreements may count, and a few more."""
        return {id(o) for o in self._own_table(family).lookup(context, context.own)}

    def neighbours(self, family: str, context: Context) -> list[Occurrence]:
        """The figures of family whose sentence may share a word with context."""
        table = self.by_near.get(family)
        if table is None:
            table = self.by_near[family] = WordTable.of(self.by_family.get(family, ()), near=True)
        return table.lookup(context)

    def _own_table(self, family: str) -> WordTable:
        table = self.by_own.get(family)
        if table is None:
            table = self.by_own[family] = WordTable.of(self.by_family.get(family, ()), near=False)
        return table

    def add_year(self, year: int, where: Location) -> None:
        self.years.setdefault(f"v:{year}", where)

    def add_source(
        self, number: int, text: str, date_hits: list[dates.DateHit], reference: date | None
    ) -> None:
        self.texts[number] = text
        stems = located_words(text)
        self.vocabulary = bag(self.vocabulary.own.union(w for _, w in stems))
        hits = read_numbers(text, date_hits, lenient=True)
        table: dict[int, list[NumberHit]] = {}
        for reading in table_readings(text, hits):
            table.setdefault(reading.start, []).append(reading)
        tokens = date_tokens(date_hits, reference)
        # "□ A … □ B …": a list of two, one item a line; its items are points of every kind, so it
        # counts for "두 가지" and "2개", never for a count of named things ("두 지표").
        for run in bullet_runs(text):
            self._add_list(number, run.start, run.end, run.count, run.lines, ("가지", "개"))
        # Hits, tokens, dates and words are in text order: each sentence takes its slice of them.
        hit_at = Starts([h.start for h in hits])
        token_at, date_at = Starts([p for p, _ in tokens]), Starts([h.start for h in date_hits])
        word_at = Starts([p for p, _ in stems])
        for start, end in source_sentences(text):
            self._add_lists(number, text, start, end)
            inside = hits[hit_at.between(start, end)]
            if not inside:
                continue
            sentence = text[start:end]
            self.sentences[(number, start)] = bag(w for _, w in stems[word_at.between(start, end)])
            spans = [(h.start - start, h.end - start) for h in inside]
            extra = [(p - start, t) for p, t in tokens[token_at.between(start, end)]]
            skip = [(h.start - start, h.end - start) for h in date_hits[date_at.between(start, end)]]
            found = contexts(sentence, spans, extra, skip, source=True, ahead=ahead(inside))
            for hit, context in zip(inside, found, strict=True):
                if hit.start in table:  # a table row: every cell is about the row's label
                    context = found[0]
                also = [*won(hit), *celsius(text, hit), *besides(text, hit)]
                for reading in (hit, *table.get(hit.start, ()), *rejoined(text, hit), *also):
                    value, family = reading.value, reading.family
                    self._add(
                        Occurrence(
                            value, family, number, hit.start, hit.end, hit.text, start, context=context
                        )
                    )

    def _add_lists(self, number: int, text: str, start: int, end: int) -> None:
        """ "△A △B △C를 기본 방향으로": a list of three, for "세 가지" or "3개 분야" in an article."""
        count = sentence_list_length(text[start:end])
        if count >= 2:
            self._add_list(number, start, end, count, text[start:end])

    def _add_list(
        self,
        number: int,
        start: int,
        end: int,
        count: int,
        about: str,
        counters: Sequence[str] = ("가지", "개", "~"),
    ) -> None:
        context = Context.of(frozenset(), frozenset(words(about)), "")
        for counter in counters:
            text = _LIST_TEXT.format(count)
            self._add(Occurrence(Decimal(count), counter, number, start, end, text, context=context))

    def _add(self, occurrence: Occurrence) -> None:
        value = format_value(occurrence.value)
        self.by_key.setdefault(f"n:{value}|{occurrence.family}", []).append(occurrence)
        self.by_key.setdefault(f"v:{value}", []).append(occurrence)
        if occurrence.family:
            self.by_family.setdefault(occurrence.family, []).append(occurrence)
            # A table built before this figure came would miss it.
            self.by_own.pop(occurrence.family, None)
            self.by_near.pop(occurrence.family, None)


@dataclass
class WordTable:
    """The figures of one family by each word of their context, and each word by every key that
    finds it: the word itself and its prefixes (context.prefixes_of), so "서울" finds "서울시"."""

    by_word: dict[str, list[Occurrence]]
    words_by_key: dict[str, list[str]]
    by_key: dict[str, list[Occurrence]] = field(default_factory=dict)  # filled as keys are asked

    @classmethod
    def of(cls, occurrences: Iterable[Occurrence], *, near: bool) -> WordTable:
        by_word: dict[str, list[Occurrence]] = {}
        for occurrence in occurrences:
            context = occurrence.context
            found = context.about | context.shared if near else context.about
            for word in found:
                by_word.setdefault(word, []).append(occurrence)
        words_by_key: dict[str, list[str]] = {}
        for word in by_word:
            words_by_key.setdefault(word, []).append(word)
            for key in word_prefixes(word):
                words_by_key.setdefault(key, []).append(word)
        return cls(by_word, words_by_key)

    def lookup(self, context: Context, only: frozenset[str] | None = None) -> list[Occurrence]:
        """The figures that any word of context (of only, if given) may match."""
        found: dict[int, Occurrence] = {}
        for word, head, prefixes in context.probes:
            if only is not None and word not in only:
                continue
            for key in (word, head, *prefixes):
                for occurrence in self._for_key(key) if key else ():
                    found[id(occurrence)] = occurrence
        # In source order, not in the order the words happen to come out of a set: two rivals that
        # fit equally well must give the same verdict on every run.
        return sorted(found.values(), key=location_of)

    def _for_key(self, key: str) -> list[Occurrence]:
        """The figures with a word that key is or begins, each once."""
        cached = self.by_key.get(key)
        if cached is None:
            merged = {id(o): o for word in self.words_by_key.get(key, ()) for o in self.by_word[word]}
            cached = self.by_key[key] = list(merged.values())
        return cached


def read_numbers(text: str, date_hits: Sequence[dates.DateHit], *, lenient: bool = False) -> list[NumberHit]:
    """The numbers of text outside its dates and comparison idioms."""
    spans = [(h.start, h.end) for h in date_hits] + [m.span() for m in _IDIOMS.finditer(text)]
    return find_numbers(mask(text, spans), lenient=lenient)


@dataclass(frozen=True)
class Starts:
    """Positions in ascending order, to slice out those within a stretch of text."""

    positions: list[int]

    def between(self, start: int, end: int) -> slice:
        return slice(bisect_left(self.positions, start), bisect_left(self.positions, end))


def source_sentences(text: str) -> Iterable[tuple[int, int]]:
    """The (start, end) of each sentence or line of a source."""
    start = 0
    for match in _SENTENCE_END.finditer(text):
        yield start, match.start()
        start = match.end()
    yield start, len(text)


def date_tokens(date_hits: Iterable[dates.DateHit], reference: date | None) -> list[tuple[int, str]]:
    """Years and months as context tokens: "2025년 36.8%" is about 2025, whatever the article says."""
    tokens = []
    for hit in date_hits:
        key = dates.date_key(hit, reference)
        if key.startswith(("y:", "m:", "r:")):
            tokens.append((hit.start, key))
    return tokens


def idiom_tokens(text: str) -> list[tuple[int, str]]:
    """ "1년 전(1억3000만달러)보다" is about the year before, as "전년 동기(1억 3,000만 달러)" is."""
    return [(m.start(), "r:지난해") for m in _IDIOMS.finditer(text) if m.group().endswith("전")]


def ahead(numbers: Sequence[NumberHit]) -> list[bool]:
    return [n.unit in AHEAD for n in numbers]


def is_list(occurrence: Occurrence) -> bool:
    return occurrence.text == _LIST_TEXT.format(format_value(occurrence.value))


def location_of(occurrence: Occurrence) -> Location:
    return (occurrence.source, occurrence.start, occurrence.end)

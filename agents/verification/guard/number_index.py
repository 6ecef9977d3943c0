"""Source figures read and indexed with their context, apart from binding.py's verdicts on them.

Every figure is indexed by its value at once; its context (context.contexts) is read only when a
lookup by words may find it (NumberIndex.read), as an article looks up only part of its sources.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal

from agents.verification.guard import dates
from agents.verification.guard.context import Context, located_words, word_prefixes, words
from agents.verification.guard.lists import bullet_runs, sentence_list_length
from agents.verification.guard.named import bag
from agents.verification.guard.numbers import NumberHit, celsius, find_numbers, format_value, mask
from agents.verification.guard.occurrences import Contexts, Known, Occurrence, SourceSentence
from agents.verification.guard.readings import besides, rejoined, table_readings, won

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
    # By family, its figures by the words before them (own) or in their clause (near); so an
    # article figure is compared only with the source figures that share a word with it, not with
    # every one of a unit. Built for a family on its first lookup: most families of a source are
    # never asked for, and each table reads the contexts of the figures a key may find only.
    by_own: dict[str, WordTable] = field(default_factory=dict)
    by_near: dict[str, WordTable] = field(default_factory=dict)
    holders: list[Contexts] = field(default_factory=list)  # sentences and lists with figures
    words: SentenceWords | None = None  # their words, indexed on the first lookup
    asked: set[str] = field(default_factory=set)  # the keys whose sentences are read
    done: set[int] = field(default_factory=set)  # the ids of the sentences read, in the tables
    texts: dict[int, str] = field(default_factory=dict)  # each source's text, by its number
    # Every word of a source sentence with figures, by (source, sentence start), and of all sources.
    sentences: dict[tuple[int, int], Context] = field(default_factory=dict)
    vocabulary: Context = field(default_factory=lambda: bag(()))

    def rivals(self, family: str, context: Context) -> list[Occurrence]:
        """The figures of family with a word before them that may match a word of context."""
        keys = self.read(keys_of(context))
        return self._table(self.by_own, family, near=False).lookup(keys)

    def owned(self, family: str, context: Context) -> set[int]:
        """The ids of the figures of family with a word before them that may match an own word of
        context: all that agreement.agreements may count, and a few more."""
        keys = self.read(keys_of(context, context.own))
        return {id(o) for o in self._table(self.by_own, family, near=False).lookup(keys)}

    def neighbours(self, family: str, context: Context) -> list[Occurrence]:
        """The figures of family whose clause may share a word with context."""
        keys = self.read(keys_of(context))
        return self._table(self.by_near, family, near=True).lookup(keys)

    def read(self, keys: list[str]) -> list[str]:
        """Read the sentences that keys may find, and add their figures to the tables built."""
        if self.words is None:
            self.words = SentenceWords(self.holders)
        for key in keys:
            if key in self.asked:
                continue
            self.asked.add(key)
            for holder in self.words.holders(key):
                if id(holder) not in self.done:
                    self.done.add(id(holder))
                    for family, found in holder.figures.items():
                        for table in (self.by_own.get(family), self.by_near.get(family)):
                            if table:
                                table.add(found)
        return keys

    def _table(self, tables: dict[str, WordTable], family: str, *, near: bool) -> WordTable:
        table = tables.get(family)
        if table is None:
            table = tables[family] = WordTable(near)
            table.add(o for o in self.by_family.get(family, ()) if id(o.contexts) in self.done)
        return table

    def _hold(self, holder: Contexts) -> None:
        # Keys asked before this sentence came did not read it, and tables would miss its figures.
        self.holders.append(holder)
        self.words = None
        self.asked.clear()
        self.by_own.clear()
        self.by_near.clear()

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
            stated = [w for _, w in stems[word_at.between(start, end)]]
            self.sentences[(number, start)] = bag(stated)
            dated = [(h.start, h.end) for h in date_hits[date_at.between(start, end)]]
            found = SourceSentence(
                text, (start, end), inside, tokens[token_at.between(start, end)], dated, stated, ahead(inside)
            )
            self._hold(found)
            for i, hit in enumerate(inside):
                figure = 0 if hit.start in table else i  # a table row: every cell is about its label
                also = [*won(hit), *celsius(text, hit), *besides(text, hit)]
                for reading in (hit, *table.get(hit.start, ()), *rejoined(text, hit), *also):
                    value, family = reading.value, reading.family
                    where = (number, hit.start, hit.end, hit.text, start)
                    self._add(Occurrence(value, family, *where, contexts=found, figure=figure))

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
        listed = Known(Context.of(frozenset(), frozenset(words(about)), ""))
        self._hold(listed)
        for counter in counters:
            text = _LIST_TEXT.format(count)
            self._add(Occurrence(Decimal(count), counter, number, start, end, text, contexts=listed))

    def _add(self, occurrence: Occurrence) -> None:
        value = format_value(occurrence.value)
        self.by_key.setdefault(f"n:{value}|{occurrence.family}", []).append(occurrence)
        self.by_key.setdefault(f"v:{value}", []).append(occurrence)
        if occurrence.family:
            self.by_family.setdefault(occurrence.family, []).append(occurrence)
            occurrence.contexts.figures.setdefault(occurrence.family, []).append(occurrence)


class SentenceWords:
    """The sentences (and counted lists) with figures by the words a context of theirs may hold.

    A key finds a word of context when it is that word or begins it (context.prefixes_of). Such a
    word is a word of the sentence, or two of them joined, whose first the key is or begins, or
    which begins the key: then that first word is a key too, as the keys are the prefixes of an
    article word (context.probe). So the sentences with a word that a key begins are all that the
    key may find, and only their contexts need reading."""

    def __init__(self, holders: Iterable[Contexts]) -> None:
        self.by_word: dict[str, list[Contexts]] = {}
        for holder in holders:
            for word in holder.words:
                self.by_word.setdefault(word, []).append(holder)
        self.ordered = sorted(self.by_word)

    def holders(self, key: str) -> Iterator[Contexts]:
        """The sentences with a word that key is or begins."""
        if ":" in key:  # a token ("y:2025") finds only itself: it is no one's prefix, nor has any
            yield from self.by_word.get(key, ())
            return
        first = bisect_left(self.ordered, key)
        last = bisect_left(self.ordered, key + _LAST, first)
        for word in self.ordered[first:last]:
            yield from self.by_word[word]


_LAST = chr(0x10FFFF)  # after every character: key + _LAST is after every word that key begins


@dataclass
class WordTable:
    """The figures of one family by each word of their context (the words before them, or all of
    their clause when near), and each word by every key that finds it: the word itself and its
    prefixes (context.prefixes_of), so "서울" finds "서울시". Figures are added as their
    sentences are read (NumberIndex.read)."""

    near: bool
    by_word: dict[str, list[Occurrence]] = field(default_factory=dict)
    words_by_key: dict[str, list[str]] = field(default_factory=dict)
    by_key: dict[str, list[Occurrence]] = field(default_factory=dict)  # filled as keys are asked

    def add(self, occurrences: Iterable[Occurrence]) -> None:
        for occurrence in occurrences:
            context = occurrence.context
            for word in context.about | context.shared if self.near else context.about:
                found = self.by_word.get(word)
                if found is None:
                    found = self.by_word[word] = []
                    self.words_by_key.setdefault(word, []).append(word)
                    for key in word_prefixes(word):
                        self.words_by_key.setdefault(key, []).append(word)
                found.append(occurrence)
        self.by_key.clear()  # a key asked before may find the figures added

    def lookup(self, keys: Iterable[str]) -> list[Occurrence]:
        """The figures that any of keys finds."""
        found = {id(o): o for key in keys for o in self._for_key(key)}
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


def keys_of(context: Context, only: frozenset[str] | None = None) -> list[str]:
    """The keys a figure of context looks up: each word (of only, if given), its first three
    letters when longer, and its shorter prefixes (context.probe)."""
    return [
        key
        for word, head, prefixes in context.probes
        if only is None or word in only
        for key in (word, head, *prefixes)
        if key
    ]


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

"""A source figure as the guard keeps it, and what the checks that read the source index need of it.

Binding builds the index; the checks it calls (the direction of a change, a figure moved to a thing
the release names without it) only read it. They name it through `SourceFigures`, so they depend on
this module, not on binding, and binding can import them without a cycle.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from agents.verification.guard.context import Context, contexts
from agents.verification.guard.derived import Operand
from agents.verification.guard.memo import memo
from agents.verification.guard.numbers import NumberHit, format_value


class Contexts(Protocol):
    """Where the context of a source figure comes from: its sentence, or a counted list."""

    words: frozenset[str]  # every word a context here may hold, or begin with (see SourceSentence)
    figures: dict[str, list[Occurrence]]  # the occurrences here, by family

    def context(self, figure: int) -> Context: ...


@dataclass(frozen=True)
class Occurrence(Operand):
    """A source figure with the words around it; as an Operand it may enter a derivation."""

    contexts: Contexts = field(kw_only=True, compare=False, repr=False)
    figure: int = field(default=0, kw_only=True, compare=False, repr=False)  # its place in contexts

    @memo
    def context(self) -> Context:
        return self.contexts.context(self.figure)


class Known:
    """A context known when the figure is indexed: a counted list's, of the words listed."""

    def __init__(self, known: Context) -> None:
        self.known = known
        self.words = known.near | known.described
        self.figures: dict[str, list[Occurrence]] = {}

    def context(self, figure: int) -> Context:
        return self.known


class SourceSentence:
    """A source sentence with figures, whose contexts are read on first use: an article compares its
    figures with only some of the figures of its sources, and reading the context of every one was
    most of the cost of indexing a source. All of a sentence's contexts are read at once, as a
    figure's context may take words from the figures before and after it."""

    def __init__(
        self,
        text: str,
        span: tuple[int, int],
        hits: Sequence[NumberHit],
        tokens: Sequence[tuple[int, str]],
        date_spans: Sequence[tuple[int, int]],
        words: Iterable[str],
        ahead: Sequence[bool],
    ) -> None:
        self.text, self.span, self.hits, self.ahead = text, span, hits, ahead
        self.tokens, self.date_spans = tokens, date_spans
        # A word of a context here is a word of the sentence, a token (a year), or two neighbouring
        # words joined ("축산물판매"), which begins with a word of the sentence.
        self.words = frozenset(words).union(t for _, t in tokens)
        self.figures: dict[str, list[Occurrence]] = {}
        self.found: list[Context] | None = None

    def context(self, figure: int) -> Context:
        if self.found is None:
            self.found = self._read()
        return self.found[figure]

    def _read(self) -> list[Context]:
        start, end = self.span
        spans = [(h.start - start, h.end - start) for h in self.hits]
        extra = [(p - start, t) for p, t in self.tokens]
        skip = [(s - start, e - start) for s, e in self.date_spans]
        return contexts(self.text[start:end], spans, extra, skip, source=True, ahead=self.ahead)


class SourceFigures(Protocol):
    """The read side of binding's index of source figures."""

    by_key: dict[str, list[Occurrence]]  # "n:{value}|{family}" and "v:{value}" → its occurrences
    texts: dict[int, str]  # each source's text, by its number
    sentences: dict[tuple[int, int], Context]  # the words of each source sentence with figures
    vocabulary: Context  # every word of all sources


def stated_together(
    first: NumberHit, second: NumberHit, index: SourceFigures
) -> list[tuple[Occurrence, Occurrence]]:
    """Every pair of source mentions of the two values that stand in one source sentence."""
    ones = index.by_key.get(f"n:{format_value(first.value)}|{first.family}", [])
    twos = index.by_key.get(f"n:{format_value(second.value)}|{second.family}", [])
    return [(a, b) for a in ones for b in twos if (a.source, a.sentence) == (b.source, b.sentence)]

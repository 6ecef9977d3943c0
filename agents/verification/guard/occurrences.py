"""A source figure as the guard keeps it, and what the checks that read the source index need of it.

Binding builds the index; the checks it calls (the direction of a change, a figure moved to a thing
the release names without it) only read it. They name it through `SourceFigures`, so they depend on
this module, not on binding, and binding can import them without a cycle.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

from agents.verification.guard.context import Context
from agents.verification.guard.derived import Operand
from agents.verification.guard.numbers import NumberHit, format_value


@dataclass(frozen=True)
class Occurrence(Operand):
    """A source figure with the words around it; as an Operand it may enter a derivation."""

    context: Context = field(kw_only=True, compare=False)


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

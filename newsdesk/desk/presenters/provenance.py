"""The desk's provenance panel: the article's sentences beside its sources, spans marked.

Every span becomes a `<mark>` in its source text with a key ("s{source}-{start}-{end}"); a sentence
lists the keys it rests on, and a click on the sentence lights those marks (desk.js). Spans of one
article come from disjoint source segments, so marks never nest; an overlapping span is skipped
rather than breaking the text.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from agents.selectors import source_kinds
from newsdesk import messages as msg


@dataclass(frozen=True)
class TracedSentence:
    text: str
    keys: str  # space-separated span keys; empty when code found no source span


@dataclass(frozen=True)
class Piece:
    text: str
    key: str  # the span key when this piece is quoted by a sentence, else ""


@dataclass(frozen=True)
class SourcePanel:
    number: int
    title: str
    pieces: list[Piece]
    kind: str = "press_release"  # press_release | attachment | article | search
    outlet: str = ""  # the publisher of an article source

    @property
    def kind_label(self) -> str:
        return msg.SOURCE_KIND_LABELS.get(self.kind, "")


@dataclass(frozen=True)
class Trace:
    sentences: list[TracedSentence]
    sources: list[SourcePanel]

    @property
    def unattributed(self) -> int:
        return sum(1 for s in self.sentences if not s.keys)


def _key(span: dict[str, Any]) -> str:
    return f"s{span['source']}-{span['start']}-{span['end']}"


def trace_of(*, provenance: Sequence[dict[str, Any]], material: Sequence[dict[str, Any]]) -> Trace | None:
    if not provenance:
        return None
    sentences = [
        TracedSentence(text=row["text"], keys=" ".join(_key(s) for s in row.get("spans", [])))
        for row in provenance
    ]
    cited: dict[int, set[tuple[int, int]]] = {}
    for row in provenance:
        for span in row.get("spans", []):
            cited.setdefault(span["source"], set()).add((span["start"], span["end"]))
    kinds = source_kinds(material=material)
    panels = [
        SourcePanel(
            number=n,
            title=str(doc.get("title", "")),
            pieces=_pieces(n, str(doc.get("text", "")), cited[n]),
            kind=kinds[n][0],
            outlet=kinds[n][1],
        )
        for n, doc in enumerate(material)
        if n in cited
    ]
    return Trace(sentences=sentences, sources=panels)


def _pieces(number: int, text: str, spans: set[tuple[int, int]]) -> list[Piece]:
    pieces: list[Piece] = []
    cursor = 0
    for start, end in sorted(spans):
        if start < cursor or end > len(text):
            continue
        pieces.append(Piece(text=text[cursor:start], key=""))
        pieces.append(Piece(text=text[start:end], key=f"s{number}-{start}-{end}"))
        cursor = end
    pieces.append(Piece(text=text[cursor:], key=""))
    return [p for p in pieces if p.text]

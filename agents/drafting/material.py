"""Source material: everything an article may be checked against, and the length rules."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from agents import messages as msg
from agents.verification.guard import extract_facts

DEFAULT_LENGTH = (300, 600)
MAX_LENGTH = 3000
MIN_LENGTH = 100
LENGTH_TOLERANCE = 0.15
MATERIAL_MIN_CHARS = 200  # a request this long is itself material, whatever it holds


@dataclass(frozen=True)
class SourceDoc:
    # press_release | attachment | context (what the reporter gave) | article (a competitor's
    # article a follow-up starts from) | search (an article the news search found)
    kind: str
    title: str
    text: str
    url: str = ""
    outlet: str = ""  # the publisher of an article or search result

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> SourceDoc:
        return cls(
            kind=data["kind"],
            title=data.get("title", ""),
            text=data.get("text", ""),
            url=data.get("url", ""),
            outlet=data.get("outlet", ""),
        )


def numbered_sources(docs: list[SourceDoc]) -> str:
    """The sources as the verifier sees them: "[자료 N] title" followed by the text."""
    blocks = []
    for number, doc in enumerate(docs, start=1):
        header = f"[자료 {number}] {doc.title}" + (f" ({doc.url})" if doc.url else "")
        blocks.append(f"{header}\n{doc.text}")
    return "\n\n".join(blocks)


def article_length(body: str) -> int:
    """Length as newsrooms count it: characters with spaces, line breaks not counted."""
    return len(body.replace("\r", "").replace("\n", ""))


@dataclass(frozen=True)
class LengthTarget:
    low: int
    high: int

    @classmethod
    def from_request(cls, length: int | None) -> LengthTarget:
        if not length:
            return cls(*DEFAULT_LENGTH)
        return cls(length, length)

    def describe(self) -> str:
        return f"{self.low}~{self.high}자" if self.low != self.high else f"약 {self.low}자"

    def accepts(self, length: int) -> bool:
        """Within 15% of the requested length (or of the default band's ends)."""
        return self.low * (1 - LENGTH_TOLERANCE) <= length <= self.high * (1 + LENGTH_TOLERANCE)

    def to_json(self) -> dict[str, int]:
        return {"low": self.low, "high": self.high}


def is_source_material(text: str) -> bool:
    """Whether a reporter's message is material to write from rather than only an instruction.

    Long text is; shorter text is when it carries facts the guard can check (two distinct figures,
    dates or quotes): "300자로 써줘" is an instruction, a 150-character notice with a date and a fee
    is a source. Length alone used to decide (>= 300), and a short notice lost its facts.
    """
    body = text.strip()
    if len(body) >= MATERIAL_MIN_CHARS:
        return True
    return len(body) >= 60 and len({fact.key for fact in extract_facts(body)}) >= 2


def cut_material(text: str, limit: int, *, name: str) -> tuple[str, str]:
    """(what the model reads, a note for the reporter): text over `limit` is cut at a paragraph
    break before it, and the note says how much was left out and how to choose what to keep."""
    if len(text) <= limit:
        return text, ""
    cut = max(text.rfind("\n\n", limit // 2, limit), 0) or text.rfind("\n", limit // 2, limit)
    kept = text[: cut if cut > 0 else limit].rstrip()
    note = msg.MATERIAL_CUT.format(name=name, total=len(text), kept=len(kept), left=len(text) - len(kept))
    return kept, note

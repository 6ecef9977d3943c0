"""The property corpus: public Korean texts with figures, and its fixed tuning/frozen split."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from datetime import date
from pathlib import Path

CORPUS = Path(__file__).resolve().parents[1] / "data" / "corpus" / "texts.jsonl"
KINDS = ("release", "news")
PARTS = ("tuning", "frozen")


@dataclass(frozen=True)
class Text:
    id: str
    url: str
    kind: str  # "release" | "news"
    source: str  # agency or outlet
    date: date | None  # the text's own date: the guard's reference date
    title: str
    text: str

    @property
    def part(self) -> str:
        return part_of(self.url)


def is_frozen(url: str) -> bool:
    """A third of the corpus, chosen by its address before any rule was tuned on it. Never change
    this function: a text moved into the tuning part is a text the guard may be fitted to."""
    return int(hashlib.sha256(url.encode("utf-8")).hexdigest(), 16) % 3 == 0


def part_of(url: str) -> str:
    return "frozen" if is_frozen(url) else "tuning"


def load(path: Path = CORPUS) -> list[Text]:
    texts = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip():
            raw = json.loads(line)
            day = date.fromisoformat(raw["date"]) if raw.get("date") else None
            texts.append(
                Text(raw["id"], raw["url"], raw["kind"], raw["source"], day, raw["title"], raw["text"])
            )
    return texts


def sample(texts: list[Text], per_part: int) -> list[Text]:
    """A fixed sample of `per_part` texts from each part, spread over the corpus by id hash."""
    chosen: list[Text] = []
    for part in PARTS:
        pool = sorted((t for t in texts if t.part == part), key=lambda t: _rank(t.id))
        chosen += pool[:per_part]
    return sorted(chosen, key=lambda t: t.id)


def _rank(key: str) -> str:
    return hashlib.sha256(("sample:" + key).encode("utf-8")).hexdigest()

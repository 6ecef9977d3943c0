"""The model's key facts, listed in the call a draft already makes.

The writing model submits its article with `submit_article`; the same call carries an optional
`key_facts` list: the release's must-carry facts, most important first, each with the release
passage it rests on (an additive field of the tool, no call of its own). Code keeps only what holds:
a fact whose `source_text` the release does not hold is dropped (the list never carries words the
release lacks), so is a frame line (`agents.facts.frame`), and at most MAX_FACTS stay. Whether the
article carries each is judged in `agents.facts.keyfacts` as for code's own list.
"""

from __future__ import annotations

from collections.abc import Sequence

from pydantic import BaseModel, Field

from agents.facts import frame

MAX_FACTS = 5


class KeyFactItem(BaseModel):
    fact: str = Field(min_length=1, max_length=120, description="기자가 알아볼 한 문장 요약 (주어 포함)")
    source_text: str = Field(min_length=1, max_length=400, description="보도자료의 구절을 그대로 옮긴 것")


def checked_key_facts(*, release: str, listed: Sequence[KeyFactItem]) -> list[dict[str, str]]:
    """[{fact, source_text}] of the listed facts the release holds word for word (spacing aside),
    none of them a frame line, in the model's order, at most MAX_FACTS."""
    flat = _flat(release)
    kept: list[dict[str, str]] = []
    for item in listed:
        source = _flat(item.source_text)
        if not source or source not in flat or frame.is_frame(source) or frame.is_frame(item.fact):
            continue
        if all(source != k["source_text"] for k in kept):
            kept.append({"fact": item.fact.strip(), "source_text": source})
    return kept[:MAX_FACTS]


def _flat(text: str) -> str:
    return " ".join(text.split())

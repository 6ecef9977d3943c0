"""The model's help with key facts, for a release where code finds none.

Code reads key facts from figures, dates and the contact line (`agents.facts.keyfacts`); a release of
prose has none of them, only clauses of words, and code cannot tell which of those matter. Then
one forced call lists them. The model's `source_text` must be a passage of the release, checked in
code: a fact quoted from nowhere is dropped, so the list never carries words the release lacks.
"""

from __future__ import annotations

import logging

from pydantic import BaseModel, Field

from agents import prompts
from agents.facts import keyfacts
from agents.llm import client as llm

log = logging.getLogger(__name__)
MAX_FACTS = 8
# A release this short is its title and lead: the clauses code lists are all there is to carry.
MIN_RELEASE_CHARS = 300
MAX_RELEASE_CHARS = 12000  # the call reads the release's head; key facts stand early in a release


class KeyFactItem(BaseModel):
    fact: str = Field(min_length=1, max_length=120, description="기자가 알아볼 짧은 요약")
    source_text: str = Field(min_length=1, max_length=400, description="보도자료의 구절을 그대로 옮긴 것")


class ListKeyFactsInput(BaseModel):
    facts: list[KeyFactItem] = Field(max_length=MAX_FACTS, description="기사가 반드시 담을 핵심 사실")


LIST_KEY_FACTS = llm.Tool(
    "list_key_facts", "보도자료에서 기사가 반드시 담아야 할 핵심 사실을 제출한다.", ListKeyFactsInput
)


def needs_model(release: str) -> bool:
    """Code found no key fact of its own kinds (figure, date, contact) in a release long enough
    that its clauses cannot all be key."""
    if len(release.strip()) < MIN_RELEASE_CHARS:
        return False
    return not any(atom.kind in ("figure", "date", "contact") for atom in keyfacts.key_atoms(release))


def model_key_facts(*, ctx: llm.CallContext, release: str) -> list[dict[str, str]]:
    """[{fact, source_text}] listed by one forced call; [] when the call fails (the code list
    stands alone then). Only facts whose source text the release holds are kept."""
    try:
        listed = llm.call_tool(
            ctx=ctx,
            purpose="list_key_facts",
            system=prompts.load("key_facts_system"),
            messages=[{"role": "user", "content": f"<보도자료>\n{release[:MAX_RELEASE_CHARS]}\n</보도자료>"}],
            tool=LIST_KEY_FACTS,
            schema=ListKeyFactsInput,
            max_tokens=1024,
        )
    except llm.LLMError as exc:
        log.warning("key facts call failed, keeping the code list: %s", exc)
        return []
    flat = _flat(release)
    return [
        {"fact": item.fact.strip(), "source_text": " ".join(item.source_text.split())}
        for item in listed.facts
        if _flat(item.source_text) and _flat(item.source_text) in flat
    ]


def _flat(text: str) -> str:
    return " ".join(text.split())

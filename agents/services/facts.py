"""The desk's one-click "추가" under "빠진 핵심 사실": an edit that inserts only that fact.

The fact becomes an ordinary edit instruction naming the fact and the release text it rests on, so
it runs, is verified and is stored exactly like an edit the reporter typed.
"""

from __future__ import annotations

from agents import messages as msg
from agents import prompts
from agents.models import Article, Run
from agents.reporters import ReporterLike
from agents.services.common import InputError
from agents.services.drafts import INSTRUCTION_LIMIT, edit_create


def add_fact_instruction(*, fact: str, source_text: str) -> str:
    """The edit instruction for one missing fact; the release text is shortened to fit the limit."""
    template = prompts.load("add_fact")
    room = INSTRUCTION_LIMIT - len(template.format(fact=fact, source_text=""))
    quoted = source_text if len(source_text) <= room else source_text[: max(0, room - 1)] + "…"
    return template.format(fact=fact, source_text=quoted)[:INSTRUCTION_LIMIT]


def fact_add_create(
    *, reporter: ReporterLike, article: Article, number: int, channel: str = Run.Channel.WEB
) -> Run:
    """Queues the edit that adds the `number`-th (1-based) missing key fact of `article`."""
    facts = article.missing_facts or []
    if not 1 <= number <= len(facts):
        raise InputError(msg.FACT_NOT_LISTED, field="fact", status=404)
    chosen = facts[number - 1]
    instruction = add_fact_instruction(fact=str(chosen["fact"]), source_text=str(chosen["source_text"]))
    return edit_create(reporter=reporter, article=article, instruction=instruction, channel=channel)

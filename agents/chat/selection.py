"""Context selection, before the router: the model picks the numbers of the earlier messages a
request needs, code loads them.

With fewer than four messages there is nothing to choose, so no call is made; when the call fails
the rule-based fallback keeps the last five messages and every message with an attachment.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel, Field

from agents import prompts
from agents.llm import client as llm

log = logging.getLogger(__name__)
ALWAYS_KEEP = 3
FALLBACK_KEEP = 5
MIN_TO_SELECT = 4


class SelectConversationsInput(BaseModel):
    selected_indices: list[int] = Field(max_length=50, description="관련 대화 번호 (최근 3건은 항상 포함)")


SELECT_CONVERSATIONS = llm.Tool(
    "select_conversations", "현재 요청과 관련된 이전 대화 번호를 고른다.", SelectConversationsInput
)


@dataclass(frozen=True)
class Selection:
    messages: list[Any]  # conversations.Message rows, oldest first
    used_model: bool
    fallback: bool = False

    @property
    def attachment_metas(self) -> list[dict[str, Any]]:
        return [dict(m.attachment_meta) for m in self.messages if m.attachment_meta]


def select_context(*, ctx: llm.CallContext, query: str, messages: Sequence[Any], summaries: str) -> Selection:
    """`messages` are the visible log (oldest first); `summaries` their numbered one-line forms."""
    if len(messages) < MIN_TO_SELECT:
        return Selection(list(messages), used_model=False)
    try:
        picked = llm.call_tool(
            ctx=ctx,
            purpose="select_conversations",
            system=prompts.load("context_system"),
            messages=[
                {"role": "user", "content": f"현재 요청: {query}\n\n<대화_목록>\n{summaries}\n</대화_목록>"}
            ],
            tool=SELECT_CONVERSATIONS,
            schema=SelectConversationsInput,
            max_tokens=256,
        )
    except llm.LLMError as exc:
        log.warning("context selection failed, using the rule-based fallback: %s", exc)
        return Selection(fallback_selection(messages), used_model=True, fallback=True)
    return Selection(keep_selected(messages, picked.selected_indices), used_model=True)


def keep_selected(messages: Sequence[Any], indices: list[int]) -> list[Any]:
    """The chosen 1-based numbers (out-of-range ones dropped) plus the last three, in log order."""
    total = len(messages)
    chosen = {i - 1 for i in indices if 1 <= i <= total}
    chosen |= set(range(max(0, total - ALWAYS_KEEP), total))
    return [messages[i] for i in sorted(chosen)]


def fallback_selection(messages: Sequence[Any]) -> list[Any]:
    total = len(messages)
    keep = {i for i in range(total) if messages[i].attachment_meta} | set(
        range(max(0, total - FALLBACK_KEEP), total)
    )
    return [messages[i] for i in sorted(keep)]

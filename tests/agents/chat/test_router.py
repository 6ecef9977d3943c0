"""The router: one forced call that sends a request to one tool, with what it extracted."""

from __future__ import annotations

import pytest

from agents.chat.router import reply, route
from agents.llm import client as llm
from tests.fakes.anthropic import FakeAnthropic, text


@pytest.fixture
def ctx(reporter) -> llm.CallContext:
    return llm.CallContext(api_key="sk-ant-test-kim-0001", reporter_id=reporter.pk)


def test_a_request_is_routed_to_the_tool_the_model_names_with_its_parameters(
    ctx, fake_llm: FakeAnthropic
) -> None:
    fake_llm.tool(
        "route_to_tool", {"tool": "writing", "reason": "기사 요청", "extracted_params": {"word_count": 800}}
    )

    decision = route(ctx=ctx, query="800자로 써줘", context="", attachments=["보도자료.pdf"])

    assert decision.tool == "writing" and decision.extracted_params.word_count == 800
    sent = fake_llm.calls_for("route_to_tool")[0].last_user_text()
    assert "800자로 써줘" in sent and "보도자료.pdf" in sent and "(없음)" in sent


def test_a_tool_the_router_does_not_know_is_an_error_not_a_guess(ctx, fake_llm: FakeAnthropic) -> None:
    for _ in range(2):  # the first answer and the one retry it gets
        fake_llm.tool("route_to_tool", {"tool": "delete_everything", "reason": "?"})

    with pytest.raises(llm.LLMError):
        route(ctx=ctx, query="다 지워", context="", attachments=[])


def test_a_conversation_is_answered_in_one_plain_call(ctx, fake_llm: FakeAnthropic) -> None:
    fake_llm.reply(text("네, 도와드릴게요."))

    assert reply(ctx=ctx, query="안녕", context="이전 대화") == "네, 도와드릴게요."

from __future__ import annotations

import json
from decimal import Decimal

import pytest
from django.conf import settings
from pydantic import BaseModel, Field

from agents.llm import client as llm
from agents.models import LLMCall
from tests.fakes.anthropic import FakeAnthropic, text, tool_use


class Pick(BaseModel):
    selected_indices: list[int] = Field(min_length=1)


PICK = llm.Tool("select_articles", "번호를 고른다", Pick)
CTX = llm.CallContext(api_key="sk-ant-test-ctx-9999")


def pick(messages: list[dict] | None = None) -> Pick:
    return llm.call_tool(
        ctx=CTX,
        purpose="test",
        system="시스템",
        messages=messages or [{"role": "user", "content": "골라"}],
        tool=PICK,
        schema=Pick,
    )


pytestmark = pytest.mark.django_db


def test_it_forces_the_tool_and_returns_the_validated_input(fake_llm: FakeAnthropic) -> None:
    fake_llm.tool("select_articles", {"selected_indices": [2, 3]})

    assert pick().selected_indices == [2, 3]

    sent = fake_llm.requests[0]
    assert sent.tool_choice == {"type": "tool", "name": "select_articles", "disable_parallel_tool_use": True}
    assert sent.body["thinking"] == {"type": "disabled"}
    assert "temperature" not in sent.body
    assert sent.api_key == "sk-ant-test-ctx-9999"


def test_a_prefix_too_short_for_the_models_cache_carries_no_marker(fake_llm: FakeAnthropic) -> None:
    fake_llm.tool("select_articles", {"selected_indices": [1]})

    pick()

    body = fake_llm.requests[0].body
    assert "cache_control" not in json.dumps(body)
    assert "title" not in body["tools"][0]["input_schema"]


def step(messages: list[dict]) -> llm.StepResult:
    return llm.loop_step(ctx=CTX, purpose="test", system="시스템", messages=messages, tools=[PICK])


LONG = "보도자료 본문 " * 1500  # ~6,000 estimated tokens: over Haiku 4.5's 4,096


def test_a_long_loop_marks_its_stable_material_and_its_last_message(fake_llm: FakeAnthropic) -> None:
    fake_llm.tool("select_articles", {"selected_indices": [1]}, forced=False)
    conversation = [
        {"role": "user", "content": LONG},
        {"role": "assistant", "content": [tool_use("select_articles", {"selected_indices": [1]}, id="t1")]},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t1", "content": "기사"}]},
    ]

    step(conversation)

    sent = fake_llm.requests[0].messages
    assert sent[0]["content"][-1]["cache_control"] == {"type": "ephemeral"}
    assert sent[-1]["content"][-1]["cache_control"] == {"type": "ephemeral"}
    assert "cache_control" not in json.dumps(sent[1])
    assert conversation[0]["content"] == LONG  # the caller's turns stay unmarked


def test_the_minimum_follows_the_model(fake_llm: FakeAnthropic, settings) -> None:
    medium = "보도자료 " * 700  # ~1,700 tokens: cacheable for Sonnet 5 (1,024), not Haiku 4.5
    fake_llm.tool("select_articles", {"selected_indices": [1]}, forced=False)
    fake_llm.tool("select_articles", {"selected_indices": [1]}, forced=False)

    step([{"role": "user", "content": medium}])
    settings.NEWSDESK_LLM_MODEL = "claude-sonnet-5"
    step([{"role": "user", "content": medium}])

    haiku, sonnet = fake_llm.requests
    assert "cache_control" not in json.dumps(haiku.body)
    assert sonnet.messages[0]["content"][-1]["cache_control"] == {"type": "ephemeral"}


def test_it_reasks_once_with_the_validation_error(fake_llm: FakeAnthropic) -> None:
    fake_llm.tool("select_articles", {"selected_indices": []})
    fake_llm.tool("select_articles", {"selected_indices": [4]})

    assert pick().selected_indices == [4]

    reask = fake_llm.requests[1]
    assert reask.messages[-2]["role"] == "assistant"
    result = reask.messages[-1]["content"][0]
    assert result["type"] == "tool_result" and result["is_error"] is True
    assert "selected_indices" in result["content"]


def test_it_gives_up_with_a_typed_error_after_the_second_invalid_answer(fake_llm: FakeAnthropic) -> None:
    fake_llm.tool("select_articles", {"selected_indices": "one"})
    fake_llm.tool("select_articles", {"wrong": True})

    with pytest.raises(llm.LLMBadOutput) as caught:
        pick()

    assert "올바른 형식" in caught.value.user_message
    assert LLMCall.objects.filter(status=LLMCall.Status.OK).count() == 2


def test_it_records_every_call_with_all_four_token_counts_and_cost(fake_llm: FakeAnthropic) -> None:
    fake_llm.reply(
        tool_use("select_articles", {"selected_indices": [1]}), expect="select_articles", output_tokens=100
    )

    pick()

    call = LLMCall.objects.get()
    assert call.status == LLMCall.Status.OK
    assert call.purpose == "test" and call.model == settings.NEWSDESK_LLM_MODEL
    assert call.input_tokens > 0 and call.output_tokens == 100
    assert call.cache_read_input_tokens == 0 and call.cache_creation_input_tokens == 0
    assert call.cost_usd == llm.cost_usd(call.model, llm.Usage(call.input_tokens, 100))
    assert call.request_chars > 0 and call.latency_ms >= 0


def test_cost_counts_cache_writes_at_125_percent_and_reads_at_10_percent() -> None:
    usage = llm.Usage(
        input_tokens=1_000_000,
        output_tokens=1_000_000,
        cache_creation_input_tokens=1_000_000,
        cache_read_input_tokens=1_000_000,
    )
    assert llm.cost_usd("claude-haiku-4-5-20251001", usage) == Decimal("1") + Decimal("5") + Decimal(
        "1.25"
    ) + Decimal("0.1")


def test_the_sdk_retries_one_overload_and_then_succeeds(fake_llm: FakeAnthropic) -> None:
    fake_llm.error(529, headers={"retry-after-ms": "5"})
    fake_llm.tool("select_articles", {"selected_indices": [1]})

    assert pick().selected_indices == [1]
    assert len(fake_llm.requests) == 2


def test_repeated_overload_is_a_transient_error_for_celery_to_retry(fake_llm: FakeAnthropic) -> None:
    fake_llm.error(529, headers={"retry-after-ms": "5"})
    fake_llm.error(529, headers={"retry-after-ms": "5"})

    with pytest.raises(llm.LLMTransient):
        pick()

    assert LLMCall.objects.get().status == LLMCall.Status.ERROR


@pytest.mark.parametrize("status", [429, 500, 503])
def test_rate_limits_and_server_errors_are_transient(fake_llm: FakeAnthropic, status: int) -> None:
    fake_llm.error(status, headers={"retry-after": "0"})
    fake_llm.error(status, headers={"retry-after": "0"})

    with pytest.raises(llm.LLMTransient):
        pick()


def test_a_refused_key_is_permanent_and_never_retried(fake_llm: FakeAnthropic) -> None:
    fake_llm.error(401, message="invalid x-api-key")

    with pytest.raises(llm.LLMKeyRefused) as caught:
        pick()

    assert "거부" in caught.value.user_message
    assert len(fake_llm.requests) == 1
    assert "sk-ant" not in LLMCall.objects.get().error


def test_an_exhausted_credit_balance_is_permanent_and_never_retried(fake_llm: FakeAnthropic) -> None:
    fake_llm.error(402, kind="billing_error", message="credit balance too low")

    with pytest.raises(llm.LLMError) as caught:
        pick()

    assert not caught.value.transient and "크레딧" in caught.value.user_message
    assert len(fake_llm.requests) == 1


def test_a_legacy_spend_cap_429_is_not_handed_to_celery_for_retries(fake_llm: FakeAnthropic) -> None:
    # The SDK's single retry happens; after that the run fails instead of looping for hours.
    for _ in range(2):
        fake_llm.error(429, message="You have reached your specified API usage limits (spend limit).")

    with pytest.raises(llm.LLMError) as caught:
        pick()

    assert not caught.value.transient


def test_a_timeout_is_transient(fake_llm: FakeAnthropic, settings) -> None:
    settings.NEWSDESK_LLM_TIMEOUT = 1
    llm._new_client.cache_clear()
    fake_llm.stall(2.5)
    fake_llm.stall(2.5)

    with pytest.raises(llm.LLMTransient):
        pick()


def step_within(seconds: float) -> llm.StepResult:
    return llm.loop_step(
        ctx=CTX,
        purpose="bounded",
        system="s",
        messages=[{"role": "user", "content": "x"}],
        tools=[PICK],
        timeout=seconds,
    )


def test_a_call_given_its_own_time_is_not_started_again_after_it_runs_out(fake_llm: FakeAnthropic) -> None:
    fake_llm.stall(30)

    with pytest.raises(llm.LLMTimedOut) as caught:
        step_within(1)

    assert caught.value.transient  # without a deadline of its own, Celery may still retry it
    assert len(fake_llm.requests) == 1  # the SDK's retry would have waited as long again
    assert LLMCall.objects.get().status == "error"


def test_a_call_given_its_own_time_keeps_one_retry_of_an_overloaded_answer(fake_llm: FakeAnthropic) -> None:
    fake_llm.error(529)
    fake_llm.tool("select_articles", {"selected_indices": [1]}, forced=False)

    result = step_within(20)

    assert [u.name for u in result.tool_uses] == ["select_articles"]
    assert len(fake_llm.requests) == 2
    assert LLMCall.objects.get().status == "ok"  # one call, one row, as with the SDK's retry


def test_a_call_given_its_own_time_does_not_retry_what_the_server_says_not_to(
    fake_llm: FakeAnthropic,
) -> None:
    fake_llm.error(529, headers={"x-should-retry": "false"})

    with pytest.raises(llm.LLMTransient):
        step_within(20)

    assert len(fake_llm.requests) == 1


def test_a_loop_step_returns_every_tool_call_and_the_content_to_append(fake_llm: FakeAnthropic) -> None:
    fake_llm.reply(
        text("먼저 찾아보겠습니다."),
        tool_use("fetch_articles", {"keywords": ["a"]}),
        tool_use("get_writing_style", {}),
        expect="loop",
    )

    result = llm.loop_step(
        ctx=CTX, purpose="loop", system="s", messages=[{"role": "user", "content": "x"}], tools=[PICK]
    )

    assert [u.name for u in result.tool_uses] == ["fetch_articles", "get_writing_style"]
    assert result.content[0] == {"type": "text", "text": "먼저 찾아보겠습니다."}
    assert fake_llm.requests[0].tool_choice == {"type": "any"}
    assert "thinking" not in fake_llm.requests[0].body


def test_the_reporter_key_wins_over_the_server_key(settings) -> None:
    settings.ANTHROPIC_API_KEY = "sk-ant-server"
    assert llm.resolve_api_key("sk-ant-mine") == "sk-ant-mine"
    assert llm.resolve_api_key("") == "sk-ant-server"


def test_no_key_anywhere_tells_the_reporter_how_to_register_one(settings) -> None:
    settings.ANTHROPIC_API_KEY = ""
    with pytest.raises(llm.LLMKeyMissing) as caught:
        llm.resolve_api_key("")
    assert "/set_apikey" in caught.value.user_message


def test_a_field_called_title_survives_the_schema_cleanup() -> None:
    class Headline(BaseModel):
        title: str = Field(description="제목")

    schema = llm.Tool("x", "d", Headline).spec()["input_schema"]

    assert "title" in schema["properties"] and schema["required"] == ["title"]
    assert "title" not in schema and "title" not in schema["properties"]["title"]

"""The model table in settings: who uses which model, what it costs, what stops the server."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest
from django.core.management import call_command
from django.core.management.base import SystemCheckError
from pydantic import BaseModel

from agents.llm import catalog
from agents.llm import client as llm
from agents.llm.startup import model_settings_errors
from tests.factories import ReporterFactory
from tests.fakes.anthropic import FakeAnthropic, tool_use

HAIKU, SONNET = "claude-haiku-4-5-20251001", "claude-sonnet-5"
RETIRED = "claude-sonnet-4-5-20250929"
USER = [{"role": "user", "content": "x"}]


class _Pick(BaseModel):
    n: int


def test_the_table_offers_a_haiku_and_a_sonnet_and_passes_the_startup_check() -> None:
    ids = [spec.id for spec in catalog.model_choices()]

    assert HAIKU in ids and any("sonnet" in model for model in ids)
    assert model_settings_errors() == []


def test_a_reporters_choice_wins_then_the_department_then_the_server(settings: Any) -> None:
    settings.NEWSDESK_DEPARTMENT_MODELS = {"경제부": SONNET}

    assert catalog.model_for(chosen=SONNET, department="사회부") == SONNET
    assert catalog.model_for(chosen="", department="경제부") == SONNET
    assert catalog.model_for(chosen="", department="사회부") == settings.NEWSDESK_LLM_MODEL


def test_a_choice_that_left_the_table_falls_back_to_the_default(settings: Any) -> None:
    assert catalog.model_for(chosen="claude-opus-9", department="사회부") == settings.NEWSDESK_LLM_MODEL
    settings.NEWSDESK_LLM_MODELS = {**settings.NEWSDESK_LLM_MODELS, "claude-old": _row(retires="2026-01-01")}
    assert catalog.model_for(chosen="claude-old", department="사회부") == settings.NEWSDESK_LLM_MODEL


def test_an_unknown_default_model_stops_the_server_with_a_clear_message(settings: Any) -> None:
    settings.NEWSDESK_LLM_MODEL = "claude-haiku-4-5-typo"

    with pytest.raises(SystemCheckError, match="NEWSDESK_LLM_MODEL = 'claude-haiku-4-5-typo' is not in"):
        call_command("check")


def test_a_retired_model_in_the_table_or_as_a_default_is_a_startup_error(settings: Any) -> None:
    settings.NEWSDESK_LLM_MODELS = {
        **settings.NEWSDESK_LLM_MODELS,
        "claude-sonnet-4-5-20250929": _row(retires="2026-11-01"),
    }
    settings.NEWSDESK_DEPARTMENT_MODELS = {"경제부": "claude-sonnet-4-5-20250929"}

    messages = [error.msg for error in model_settings_errors()]

    assert messages == [
        "NEWSDESK_DEPARTMENT_MODELS[경제부] = 'claude-sonnet-4-5-20250929' retired on 2026-11-01"
    ]
    assert all(error.id == "agents.E001" for error in model_settings_errors())


def test_a_row_without_prices_is_named_by_the_check(settings: Any) -> None:
    settings.NEWSDESK_LLM_MODELS = {
        **settings.NEWSDESK_LLM_MODELS,
        "claude-x": {"label": "X", "input": "abc"},
    }

    assert [error.msg for error in model_settings_errors()] == [
        "claude-x: prices input, output, cache_write, cache_read are required numbers"
    ]


def test_cost_uses_each_models_own_prices() -> None:
    usage = llm.Usage(
        input_tokens=1_000_000,
        output_tokens=1_000_000,
        cache_creation_input_tokens=1_000_000,
        cache_read_input_tokens=1_000_000,
    )

    assert llm.cost_usd(SONNET, usage) == Decimal("2") + Decimal("10") + Decimal("2.50") + Decimal("0.20")
    assert llm.cost_usd(HAIKU, usage) == Decimal("1") + Decimal("5") + Decimal("1.25") + Decimal("0.10")


@pytest.mark.django_db
def test_a_reporters_model_and_its_request_settings_reach_the_api(fake_llm: FakeAnthropic) -> None:
    reporter = ReporterFactory(anthropic_key="sk-ant-test-model-1", llm_model=SONNET)
    ctx = llm.reporter_context(reporter=reporter)
    pick = llm.Tool("pick", "고른다", _Pick)
    fake_llm.reply(tool_use("pick", {"n": 1}), expect="loop")
    fake_llm.tool("pick", {"n": 2})

    llm.loop_step(ctx=ctx, purpose="t", system="s", messages=[{"role": "user", "content": "x"}], tools=[pick])
    llm.call_tool(
        ctx=ctx, purpose="t", system="s", messages=[{"role": "user", "content": "x"}], tool=pick, schema=_Pick
    )

    loop, forced = fake_llm.requests
    assert loop.body["model"] == forced.body["model"] == SONNET
    # Sonnet 5 thinks adaptively unless told not to, and thinking cannot go with forced tool use.
    assert loop.body["thinking"] == forced.body["thinking"] == {"type": "disabled"}


@pytest.mark.django_db
def test_haiku_gets_thinking_off_only_for_a_named_tool(fake_llm: FakeAnthropic) -> None:
    ctx = llm.reporter_context(reporter=ReporterFactory(anthropic_key="sk-ant-test-model-2"))
    pick = llm.Tool("pick", "고른다", _Pick)
    fake_llm.reply(tool_use("pick", {"n": 1}), expect="loop")

    llm.loop_step(ctx=ctx, purpose="t", system="s", messages=USER, tools=[pick])

    assert fake_llm.requests[0].body["model"] == HAIKU and "thinking" not in fake_llm.requests[0].body


def _row(**overrides: Any) -> dict[str, Any]:
    return {
        "label": "old",
        "input": "3",
        "output": "15",
        "cache_write": "3.75",
        "cache_read": "0.3",
        **overrides,
    }


@pytest.mark.django_db
def test_the_chosen_model_writes_while_routing_and_monitoring_keep_the_default(settings: Any) -> None:
    settings.NEWSDESK_DEPARTMENT_MODELS = {}
    reporter = ReporterFactory(anthropic_key="sk-ant-test-model-3", llm_model=SONNET)

    assert llm.reporter_context(reporter=reporter).model == SONNET
    assert llm.reporter_context(reporter=reporter, writing=False).model == settings.NEWSDESK_LLM_MODEL

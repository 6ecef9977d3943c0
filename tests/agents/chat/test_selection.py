"""Context selection: which of the visible conversation the router and the writer get to see."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from agents.chat.selection import fallback_selection, keep_selected, select_context
from agents.llm import client as llm
from tests.fakes.anthropic import FakeAnthropic


def log_of(count: int, *, attached: tuple[int, ...] = ()) -> list[SimpleNamespace]:
    """Messages 1..count, oldest first; those numbered in `attached` carry a file."""
    return [
        SimpleNamespace(number=i, attachment_meta={"file_name": f"{i}.pdf"} if i in attached else {})
        for i in range(1, count + 1)
    ]


def numbers(messages: list[SimpleNamespace]) -> list[int]:
    return [m.number for m in messages]


def test_the_chosen_messages_and_the_last_three_are_kept_in_log_order() -> None:
    assert numbers(keep_selected(log_of(10), [4, 2])) == [2, 4, 8, 9, 10]


def test_numbers_outside_the_log_are_dropped() -> None:
    assert numbers(keep_selected(log_of(5), [0, 6, -1, 99])) == [3, 4, 5]


def test_the_fallback_keeps_every_attachment_and_the_last_five() -> None:
    assert numbers(fallback_selection(log_of(12, attached=(2, 9)))) == [2, 8, 9, 10, 11, 12]


@pytest.fixture
def ctx(reporter) -> llm.CallContext:
    return llm.CallContext(api_key="sk-ant-test-kim-0001", reporter_id=reporter.pk)


def test_a_short_log_is_used_whole_without_asking_the_model(ctx, fake_llm: FakeAnthropic) -> None:
    selection = select_context(ctx=ctx, query="기사 써줘", messages=log_of(3), summaries="")

    assert numbers(selection.messages) == [1, 2, 3] and not selection.used_model
    assert fake_llm.requests == []


def test_the_model_picks_from_a_long_log(ctx, fake_llm: FakeAnthropic) -> None:
    fake_llm.tool("select_conversations", {"selected_indices": [1]})

    selection = select_context(ctx=ctx, query="아까 그 자료로", messages=log_of(8), summaries="1. 자료")

    assert numbers(selection.messages) == [1, 6, 7, 8]
    assert selection.used_model and not selection.fallback
    assert "아까 그 자료로" in fake_llm.calls_for("select_conversations")[0].last_user_text()


def test_a_failed_selection_falls_back_to_the_rule_and_says_so(ctx, fake_llm: FakeAnthropic) -> None:
    fake_llm.error(400, message="bad request")

    selection = select_context(ctx=ctx, query="기사 써줘", messages=log_of(8, attached=(1,)), summaries="")

    assert selection.fallback and numbers(selection.messages) == [1, 4, 5, 6, 7, 8]
    assert selection.attachment_metas == [{"file_name": "1.pdf"}]

"""Writing preferences said in words ("스타일을 한겨레로 바꿔줘", "소넷으로 바꿔줘") change what the
commands change, through the router."""

from __future__ import annotations

import pytest

from agents.llm import catalog
from newsdesk.models import Reporter
from tests.factories import ReporterFactory
from tests.fakes.anthropic import FakeAnthropic
from tests.fakes.telegram import FakeTelegram
from tests.newsdesk.telegram.chat import CHAT, last_text, send
from tests.newsdesk.telegram.test_preferences import SONNET, buttons, curate

pytestmark = pytest.mark.django_db


@pytest.fixture
def reporter(fake_telegram: FakeTelegram) -> Reporter:
    return ReporterFactory(
        user=None, telegram_id=CHAT, department="경제부", anthropic_key="sk-ant-test-words-1"
    )


def routed(fake: FakeAnthropic, tool: str, **params: object) -> None:
    fake.tool("route_to_tool", {"tool": tool, "reason": "테스트", "extracted_params": params})


def test_a_style_named_in_words_is_set(reporter: Reporter, fake_telegram: FakeTelegram, fake_llm) -> None:
    curate("한겨레")
    routed(fake_llm, "set_style", style="한겨레")

    send("스타일을 한겨레로 바꿔줘")

    reporter.refresh_from_db()
    assert reporter.publisher_style == "한겨레"
    assert "기사 스타일을 바꿨습니다: 한겨레" in last_text(fake_telegram)


def test_a_style_not_curated_is_refused_with_the_reason(
    reporter: Reporter, fake_telegram: FakeTelegram, fake_llm
) -> None:
    routed(fake_llm, "set_style", style="없는신문")

    send("스타일을 없는신문으로 바꿔줘")

    reporter.refresh_from_db()
    assert reporter.publisher_style == ""
    assert "없는신문" in last_text(fake_telegram)


def test_back_to_the_default_style_in_words(
    reporter: Reporter, fake_telegram: FakeTelegram, fake_llm
) -> None:
    curate("한겨레")
    Reporter.objects.filter(pk=reporter.pk).update(publisher_style="한겨레")
    routed(fake_llm, "set_style", style="기본")

    send("스타일 기본으로 돌려줘")

    reporter.refresh_from_db()
    assert reporter.publisher_style == ""


def test_a_model_called_by_its_korean_reading_is_set(
    reporter: Reporter, fake_telegram: FakeTelegram, fake_llm
) -> None:
    routed(fake_llm, "set_model", model="소넷")

    send("소넷으로 바꿔줘")

    reporter.refresh_from_db()
    assert reporter.llm_model == SONNET
    assert "모델" in last_text(fake_telegram)


def test_a_preference_asked_for_without_a_value_shows_the_keyboard(
    reporter: Reporter, fake_telegram: FakeTelegram, fake_llm
) -> None:
    curate("한겨레")
    routed(fake_llm, "set_style")

    send("기사 스타일 좀 바꾸고 싶어")

    assert buttons(fake_telegram) == ["한겨레", "기본"]


def test_a_model_name_no_offered_model_fits_shows_the_model_keyboard(
    reporter: Reporter, fake_telegram: FakeTelegram, fake_llm
) -> None:
    routed(fake_llm, "set_model", model="지피티")

    send("지피티로 바꿔줘")

    reporter.refresh_from_db()
    assert reporter.llm_model == ""
    assert len(buttons(fake_telegram)) == len(catalog.model_choices()) + 1


@pytest.mark.parametrize(
    ("words", "expected"),
    [
        ("소넷", SONNET),
        ("Sonnet 5", SONNET),
        ("하이쿠", "claude-haiku-4-5-20251001"),
        ("오퍼스", None),
        ("", None),
    ],
)
def test_model_names_in_words_resolve_to_one_offered_model_or_none(words: str, expected: str | None) -> None:
    assert catalog.model_named(words) == expected

"""/set_style and /set_model: keyboards of the choices, taps that change the next draft, /status."""

from __future__ import annotations

from typing import Any

import pytest

from agents import tasks as agent_tasks
from agents.services import draft_create
from newsdesk.models import Reporter
from newsdesk.telegram.delivery import article_text
from styles.models import WritingStyle
from tests.agents.draft_script import submit, verify_pass
from tests.factories import ReporterFactory
from tests.fakes.anthropic import FakeAnthropic
from tests.fakes.telegram import FakeTelegram, callback_update
from tests.fixtures.press import PRESS_RELEASE
from tests.newsdesk.telegram.chat import CHAT, last_text, process, send, tap

pytestmark = pytest.mark.django_db
SONNET = "claude-sonnet-5"


def buttons(fake: FakeTelegram) -> list[str]:
    markup = fake.messages(CHAT)[-1].reply_markup or {}
    return [button["text"] for row in markup.get("inline_keyboard", []) for button in row]


def curate(name: str, lead: str = "", **kwargs: Any) -> WritingStyle:
    guide = {"lead": lead or f"{name} 리드", "structure": "리드 → 사실", "tone": "건조체", "forbidden": []}
    return WritingStyle.objects.create(
        scope="publisher", department="", publisher=name, guide=guide, **kwargs
    )


@pytest.fixture
def reporter(fake_telegram: FakeTelegram) -> Reporter:
    return ReporterFactory(
        user=None, telegram_id=CHAT, department="경제부", anthropic_key="sk-ant-test-pref-1"
    )


def test_set_style_offers_the_curated_publishers_and_the_default(
    reporter: Reporter, fake_telegram: FakeTelegram
) -> None:
    curate("한겨레")
    curate("경향신문")

    send("/set_style")

    fake = fake_telegram
    assert buttons(fake) == ["경향신문", "한겨레", "기본"]
    assert "지금 기사 스타일: 경제부 기본" in fake.messages(CHAT)[-1].text


def test_tapping_a_publisher_sets_the_style_and_status_shows_it(
    reporter: Reporter, fake_telegram: FakeTelegram
) -> None:
    curate("한겨레")
    send("/set_style")

    tap(fake_telegram, "한겨레")

    reporter.refresh_from_db()
    assert reporter.publisher_style == "한겨레"
    assert "기사 스타일을 바꿨습니다: 한겨레" in fake_telegram.messages(CHAT)[-1].text
    assert not fake_telegram.messages(CHAT)[-1].reply_markup  # the keyboard went with the edit
    send("/status")
    assert "기사 스타일: 한겨레" in last_text(fake_telegram)


def test_the_default_button_returns_to_the_department_style(
    reporter: Reporter, fake_telegram: FakeTelegram
) -> None:
    curate("한겨레")
    Reporter.objects.filter(pk=reporter.pk).update(publisher_style="한겨레")
    send("/set_style")

    tap(fake_telegram, "기본")

    reporter.refresh_from_db()
    assert reporter.publisher_style == "" and "경제부 기본" in fake_telegram.messages(CHAT)[-1].text


def test_a_publisher_button_whose_style_was_removed_changes_nothing(
    reporter: Reporter, fake_telegram: FakeTelegram
) -> None:
    style = curate("한겨레")
    send("/set_style")
    style.delete()

    tap(fake_telegram, "한겨레")

    reporter.refresh_from_db()
    assert reporter.publisher_style == ""
    assert "지난 버튼" in fake_telegram.calls_for("answerCallbackQuery")[-1].params["text"]


def test_forged_button_data_cannot_pick_an_uncurated_publisher(reporter: Reporter) -> None:
    process(callback_update(chat_id=CHAT, data="style:아무신문", message_id=1))

    reporter.refresh_from_db()
    assert reporter.publisher_style == ""


def test_set_style_says_so_when_no_publisher_style_is_curated(
    reporter: Reporter, fake_telegram: FakeTelegram
) -> None:
    send("/set_style")

    assert "언론사 스타일이 아직 없습니다" in last_text(fake_telegram) and buttons(fake_telegram) == []


def test_set_style_with_a_name_sets_it_at_once_or_lists_the_choices(
    reporter: Reporter, fake_telegram: FakeTelegram
) -> None:
    curate("한겨레")

    send("/set_style 조선일보")
    assert "스타일이 등록되지 않은 언론사입니다: 조선일보" in last_text(
        fake_telegram
    ) and "한겨레" in last_text(fake_telegram)
    send("/set_style 한겨레")

    reporter.refresh_from_db()
    assert reporter.publisher_style == "한겨레"


def test_set_model_offers_each_model_with_its_price_and_a_tap_sets_it(
    reporter: Reporter, fake_telegram: FakeTelegram
) -> None:
    send("/set_model")

    fake = fake_telegram
    assert buttons(fake) == ["Haiku 4.5 (빠르고 저렴)", "Sonnet 5 (어려운 기사)", "기본"]
    assert "입력 $2/출력 $10" in fake.messages(CHAT)[-1].text
    tap(fake, "Sonnet 5 (어려운 기사)")

    reporter.refresh_from_db()
    assert reporter.llm_model == SONNET
    send("/status")
    assert "모델: Sonnet 5 (어려운 기사)" in last_text(fake) and "(기본)" not in last_text(fake)


def test_an_unknown_model_name_is_refused_with_the_choices(
    reporter: Reporter, fake_telegram: FakeTelegram
) -> None:
    send("/set_model claude-opus-9")

    assert "고를 수 없는 모델입니다: claude-opus-9" in last_text(fake_telegram) and SONNET in last_text(
        fake_telegram
    )
    reporter.refresh_from_db()
    assert reporter.llm_model == ""


def test_choices_made_on_telegram_change_the_next_drafts_request(
    reporter: Reporter, fake_llm: FakeAnthropic, fake_telegram: FakeTelegram
) -> None:
    curate("한겨레", lead="한겨레식 리드를 쓴다")
    send("/set_style")
    tap(fake_telegram, "한겨레")
    send("/set_model")
    tap(fake_telegram, "Sonnet 5 (어려운 기사)")
    submit(fake_llm)
    verify_pass(fake_llm)

    run = draft_create(reporter=Reporter.objects.get(pk=reporter.pk), press_release=PRESS_RELEASE)
    agent_tasks.draft_run.apply(args=[run.pk])

    first = fake_llm.requests[0]
    assert first.body["model"] == SONNET
    assert '<스타일_가이드 부서="경제부" 언론사="한겨레">' in first.last_user_text()
    assert "한겨레식 리드를 쓴다" in first.last_user_text()
    run.refresh_from_db()
    assert run.article.model == SONNET and run.article.style == "한겨레"
    reply = article_text(run.article, run)
    assert "\n모델: Sonnet 5 (어려운 기사) · 스타일: 한겨레\n⏱ " in reply  # right above the cost line

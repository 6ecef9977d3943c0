"""Inline buttons: departments at /start and /set_division, answered through callback queries."""

from __future__ import annotations

import pytest

from agents.models import Run
from newsdesk.models import Reporter, TelegramUpdate
from newsdesk.telegram import callbacks
from tests.factories import ReporterFactory
from tests.fakes.anthropic import FakeAnthropic
from tests.fakes.telegram import FakeTelegram, callback_update
from tests.newsdesk.telegram.chat import CHAT, last_text, process, send, tap

pytestmark = pytest.mark.django_db


def buttons(fake: FakeTelegram, index: int = -1) -> list[str]:
    markup = fake.messages(CHAT)[index].reply_markup or {}
    return [button["text"] for row in markup.get("inline_keyboard", []) for button in row]


def test_start_offers_the_eight_departments_as_buttons_two_per_row(fake_telegram: FakeTelegram) -> None:
    send("/start")

    markup = fake_telegram.messages(CHAT)[-1].reply_markup
    assert [len(row) for row in markup["inline_keyboard"]] == [2, 2, 2, 2]
    assert buttons(fake_telegram)[:2] == ["사회부", "정치부"]


def test_tapping_a_department_at_start_moves_registration_on_and_answers_the_tap(
    fake_telegram: FakeTelegram, fake_llm: FakeAnthropic
) -> None:
    send("/start")
    tap(fake_telegram, "경제부")

    reporter = Reporter.objects.get(telegram_id=CHAT)
    assert reporter.department == "경제부" and reporter.registration_step == "keywords"
    question = fake_telegram.messages(CHAT)[-1]
    assert "경제부로 설정했습니다" in question.text and not question.reply_markup  # edited, buttons gone
    assert len(fake_telegram.calls_for("answerCallbackQuery")) == 1
    assert fake_llm.requests == []


def test_a_start_button_tapped_after_the_step_passed_changes_nothing(fake_telegram: FakeTelegram) -> None:
    send("/start")
    tap(fake_telegram, "경제부")
    send("금리")
    process(callback_update(chat_id=CHAT, message_id=1, data=callbacks.data("reg", "사회부")))

    reporter = Reporter.objects.get(telegram_id=CHAT)
    assert reporter.department == "경제부" and reporter.registration_step == "api_key"
    answered = fake_telegram.calls_for("answerCallbackQuery")[-1].params
    assert "지난 버튼" in answered["text"]


def test_set_division_buttons_change_the_department(fake_telegram: FakeTelegram) -> None:
    ReporterFactory(user=None, telegram_id=CHAT, department="사회부", anthropic_key="sk-ant-x")
    send("/set_division")
    assert "현재 부서: 사회부" in last_text(fake_telegram) and "테크부" in buttons(fake_telegram)
    tap(fake_telegram, "테크부")

    reporter = Reporter.objects.get(telegram_id=CHAT)
    assert reporter.department == "테크부" and reporter.registration_step == ""
    assert "테크부로 바꿨습니다" in fake_telegram.messages(CHAT)[-1].text


@pytest.mark.parametrize("data", ["div:기상부", "zzz:경제부", "nonsense", ""])
def test_forged_or_unknown_button_data_is_answered_and_changes_nothing(
    fake_telegram: FakeTelegram, data: str
) -> None:
    ReporterFactory(user=None, telegram_id=CHAT, department="사회부", anthropic_key="sk-ant-x")
    process(callback_update(chat_id=CHAT, message_id=1, data=data))

    assert Reporter.objects.get(telegram_id=CHAT).department == "사회부"
    assert len(fake_telegram.calls_for("answerCallbackQuery")) == 1
    assert not Run.objects.exists()


def test_a_tap_from_someone_unregistered_points_to_start(fake_telegram: FakeTelegram) -> None:
    fake_telegram_message = send("/help")  # any bot message to carry the button
    del fake_telegram_message
    process(callback_update(chat_id=CHAT, message_id=1, data=callbacks.data("div", "경제부")))

    assert not Reporter.objects.exists()
    assert len(fake_telegram.calls_for("answerCallbackQuery")) == 1


def test_taps_are_stored_once_like_messages(fake_telegram: FakeTelegram) -> None:
    ReporterFactory(user=None, telegram_id=CHAT, department="사회부", anthropic_key="sk-ant-x")
    update = callback_update(chat_id=CHAT, message_id=1, data=callbacks.data("div", "경제부"))
    process(update)

    from newsdesk.telegram.webhook import receive_update

    assert receive_update(update) == "duplicate"
    assert TelegramUpdate.objects.count() == 1


def test_callback_data_is_validated_when_buttons_are_built() -> None:
    assert callbacks.data("div", "경제부") == "div:경제부"
    with pytest.raises(ValueError, match="too long"):
        callbacks.data("div", "가" * 30)
    with pytest.raises(ValueError):
        callbacks.register("Bad-Prefix")
    with pytest.raises(ValueError, match="taken"):
        callbacks.register("div")(lambda query, reporter: "")

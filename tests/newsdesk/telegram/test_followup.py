"""A "후속 기사" button under each reported article: a question, the reporter's words, the draft."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from agents.models import Run
from conversations.models import Message
from newsdesk.models import Reporter, TelegramDelivery
from newsdesk.telegram import callbacks, followup, tasks
from tests.agents.draft_script import submit, verify_pass
from tests.factories import ReporterFactory
from tests.fakes.anthropic import FakeAnthropic
from tests.fakes.pages import FakePages
from tests.fakes.telegram import FakeTelegram, callback_update
from tests.fixtures.followup import BODY, HEADLINE, LENGTH, OUTLET, STORY, TITLE, competitor_item
from tests.newsdesk.telegram.chat import CHAT, finish, process, send, tap

pytestmark = pytest.mark.django_db


@pytest.fixture
def reporter_tg(fake_telegram: FakeTelegram) -> Reporter:
    return ReporterFactory(user=None, telegram_id=CHAT, anthropic_key="sk-ant-test-followup-1")


def delivered_check(reporter: Reporter, pages: FakePages | None = None) -> Any:
    """A finished /check with one reported exclusive and one skipped item, sent to the chat."""
    item = competitor_item(reporter, pages, run__channel=Run.Channel.TELEGRAM)
    competitor_item(reporter, run=item.run, category="skip", title="스킵한 기사", position=1)
    TelegramDelivery.objects.create(run=item.run, chat_id=CHAT)
    tasks.deliver_run.apply(args=[item.run_id])
    return item


def buttons_of(fake: FakeTelegram) -> list[list[str]]:
    return [
        [
            button["callback_data"]
            for row in (m.reply_markup or {}).get("inline_keyboard", [])
            for button in row
        ]
        for m in fake.messages(CHAT)
    ]


def test_each_reported_article_and_only_it_carries_a_follow_up_button_within_64_bytes(
    reporter_tg: Reporter, fake_telegram: FakeTelegram
) -> None:
    item = delivered_check(reporter_tg)

    assert buttons_of(fake_telegram) == [[], [f"fu:{item.pk}"], []]  # header, the article, the skip list
    assert all(
        len(data.encode()) <= callbacks.MAX_DATA_BYTES for row in buttons_of(fake_telegram) for data in row
    )


def test_the_reporters_words_after_the_question_become_the_follow_ups_instruction(
    reporter_tg: Reporter, fake_telegram: FakeTelegram
) -> None:
    item = delivered_check(reporter_tg)

    tap(fake_telegram, "📝 후속 기사")
    assert "후속 기사를 씁니다" in fake_telegram.sent_texts(CHAT)[-1]
    send("피해자 반응 중심으로 써줘")

    run = Run.objects.get(kind="draft")
    assert (
        run.input["follow_up"]["item"] == item.pk and run.input["instruction"] == "피해자 반응 중심으로 써줘"
    )
    assert "후속 기사를 쓰는 중" in fake_telegram.sent_texts(CHAT)[-1]


def test_write_now_drafts_from_the_article_and_a_second_tap_starts_nothing(
    reporter_tg: Reporter, fake_telegram: FakeTelegram, pages: FakePages, fake_llm: FakeAnthropic
) -> None:
    delivered_check(reporter_tg, pages)
    tap(fake_telegram, "📝 후속 기사")
    question = fake_telegram.messages(CHAT)[-1]
    now = question.reply_markup["inline_keyboard"][0][0]["callback_data"]

    process(callback_update(chat_id=CHAT, message_id=question.message_id, data=now))
    process(callback_update(chat_id=CHAT, message_id=question.message_id, data=now))  # pressed again

    run = Run.objects.get(kind="draft")  # one draft
    run.input = {**run.input, "length": LENGTH}
    run.save(update_fields=["input"])
    submit(fake_llm, body=BODY, headline=HEADLINE)
    verify_pass(fake_llm, claims=[])
    run = finish(run)
    assert run.status == "done", run.error
    assert STORY[0] in fake_llm.requests[0].last_user_text()
    delivered = fake_telegram.sent_texts(CHAT)[-1]
    assert f"{OUTLET}에 따르면 국토교통부가" in delivered
    assert f"- [{OUTLET}] {TITLE}" in delivered  # the article it follows up, listed with its outlet


def test_another_reporter_cannot_start_a_follow_up_of_my_item(
    reporter_tg: Reporter, fake_telegram: FakeTelegram
) -> None:
    item = delivered_check(reporter_tg)
    ReporterFactory(user=None, telegram_id=CHAT + 1, anthropic_key="sk-ant-test-other-2")

    process(callback_update(chat_id=CHAT + 1, message_id=1, data=f"fu:{item.pk}"))
    process(callback_update(chat_id=CHAT + 1, message_id=1, data=f"fw:{item.pk}"))

    assert not Run.objects.filter(kind="draft").exists()
    assert fake_telegram.sent_texts(CHAT + 1) == []
    answers = [call.params.get("text", "") for call in fake_telegram.calls_for("answerCallbackQuery")]
    assert answers[-2:] == ["지난 버튼입니다. 명령을 다시 보내 주세요."] * 2


def test_a_question_older_than_half_an_hour_or_answered_no_longer_captures_text(
    reporter_tg: Reporter, fake_telegram: FakeTelegram
) -> None:
    item = delivered_check(reporter_tg)
    tap(fake_telegram, "📝 후속 기사")
    assert followup.pending_item(reporter=reporter_tg) == item.pk

    Message.objects.filter(meta__follow_up=item.pk).update(created_at=timezone.now() - timedelta(minutes=31))
    assert followup.pending_item(reporter=reporter_tg) is None

    tap(fake_telegram, "📝 후속 기사")
    send("/cancel")
    assert followup.pending_item(reporter=reporter_tg) is None

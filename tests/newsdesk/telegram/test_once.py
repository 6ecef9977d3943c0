"""An update's replies are sent at most once, however often its handling runs again."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from newsdesk.models import Reporter, TelegramUpdate
from newsdesk.telegram import client, once, session, tasks
from newsdesk.telegram.webhook import receive_update
from tests.factories import ReporterFactory
from tests.fakes.telegram import FakeTelegram, text_update
from tests.newsdesk.telegram.chat import CHAT

pytestmark = pytest.mark.django_db


class WorkerDied(BaseException):
    """What a SIGKILL looks like from inside the task: nothing after it runs."""


@pytest.fixture
def registered(fake_telegram: FakeTelegram) -> Reporter:
    return ReporterFactory(user=None, telegram_id=CHAT, anthropic_key="sk-ant-test-once-1111")


def stored(text: str) -> TelegramUpdate:
    update = text_update(chat_id=CHAT, text=text)
    assert receive_update(update) == "stored"
    return TelegramUpdate.objects.get(update_id=update["update_id"])


def handle(update: TelegramUpdate) -> None:
    tasks.handle_update.apply(args=[update.pk], throw=True)


def redeliver(update: TelegramUpdate) -> None:
    """What the sweeper does for an update whose worker went silent, then the next worker's run."""
    TelegramUpdate.objects.filter(pk=update.pk).update(owner="")
    handle(update)


def in_memory_log(entries: list[once.Entry] | None = None) -> once.ReplyLog:
    return once.ReplyLog(entries=entries or [], save=lambda entries: True)


def test_a_handled_update_remembers_each_reply_it_sent_with_its_message_id(
    fake_telegram: FakeTelegram, registered: Reporter
) -> None:
    update = stored("/help")
    handle(update)

    update.refresh_from_db()
    [message] = fake_telegram.messages(CHAT)
    assert update.processed_at is not None
    assert update.replies == [{"state": "sent", "ids": [message.message_id]}]


def test_an_update_whose_worker_died_right_after_replying_is_handled_again_without_a_second_reply(
    fake_telegram: FakeTelegram, registered: Reporter, monkeypatch: pytest.MonkeyPatch
) -> None:
    update = stored("/status")

    def die(*args: Any, **kwargs: Any) -> None:
        raise WorkerDied

    with monkeypatch.context() as patch:
        patch.setattr(once.ReplyLog, "done", die)
        with pytest.raises(WorkerDied):
            handle(update)
    update.refresh_from_db()
    assert update.processed_at is None and update.replies == [{"state": "sending", "ids": []}]

    redeliver(update)

    update.refresh_from_db()
    assert update.processed_at is not None and update.attempts == 2
    assert len(fake_telegram.sent_texts(CHAT)) == 1


def test_a_rerun_sends_only_the_replies_after_those_already_sent(fake_telegram: FakeTelegram) -> None:
    reply_log = in_memory_log([{"state": "sent", "ids": [41]}])
    with once.replies_of(reply_log):
        first = client.send_text(chat_id=CHAT, text="하나")
        second = client.send_text(chat_id=CHAT, text="둘")

    assert first == [41]
    assert fake_telegram.sent_texts(CHAT) == ["둘"]
    assert second == [fake_telegram.messages(CHAT)[0].message_id]
    assert reply_log.skipped == 1 and reply_log.sent == 1


def test_a_reply_left_sending_by_a_dead_worker_is_never_sent_again(fake_telegram: FakeTelegram) -> None:
    with once.replies_of(in_memory_log([{"state": "sending", "ids": []}])):
        skipped = client.send_buttons(
            chat_id=CHAT, text="부서를 고르세요", buttons=[[("경제부", "div:경제부")]]
        )

    assert skipped == 0  # its id was never known
    assert fake_telegram.calls_for("sendMessage") == []


def test_a_reply_telegram_refused_is_recorded_unsent_and_sent_by_the_rerun(
    fake_telegram: FakeTelegram,
) -> None:
    fake_telegram.fail("sendMessage", status=502)
    reply_log = in_memory_log()
    with once.replies_of(reply_log), pytest.raises(client.TelegramError):
        client.send_text(chat_id=CHAT, text="다시 보낼 답")
    assert reply_log.entries == [{"state": "unsent", "ids": []}]

    with once.replies_of(in_memory_log(reply_log.entries)):
        client.send_text(chat_id=CHAT, text="다시 보낼 답")

    assert fake_telegram.sent_texts(CHAT) == ["다시 보낼 답"]


def test_a_reply_whose_answer_was_lost_stays_sending_so_a_rerun_skips_it(
    fake_telegram: FakeTelegram, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(session, "READ_TIMEOUT", 0.3)
    monkeypatch.setattr(session, "WRITE_TIMEOUT", 0.3)
    fake_telegram.stall("sendMessage", 1.5)  # Telegram shows it, but its answer never arrives
    reply_log = in_memory_log()
    with once.replies_of(reply_log), pytest.raises(client.TelegramError) as lost:
        client.send_text(chat_id=CHAT, text="보였을 수도 있는 답")
    assert lost.value.uncertain

    with once.replies_of(in_memory_log(reply_log.entries)):
        client.send_text(chat_id=CHAT, text="보였을 수도 있는 답")

    assert reply_log.entries == [{"state": "sending", "ids": []}]
    assert len(fake_telegram.calls_for("sendMessage")) == 1


def test_nothing_is_sent_once_another_worker_took_the_update_over(fake_telegram: FakeTelegram) -> None:
    taken_over = once.ReplyLog(entries=[], save=lambda entries: False)
    with once.replies_of(taken_over):
        assert client.send_text(chat_id=CHAT, text="늦은 답") == []

    assert fake_telegram.calls_for("sendMessage") == []


def test_a_reply_costs_one_write_and_no_read(fake_telegram: FakeTelegram, registered: Reporter) -> None:
    update = stored("/help")
    TelegramUpdate.objects.filter(pk=update.pk).update(owner="me")
    reply_log = tasks._reply_log(update, "me")
    with once.replies_of(reply_log), CaptureQueriesContext(connection) as queries:
        client.send_text(chat_id=CHAT, text="하나")
        client.send_text(chat_id=CHAT, text="둘")

    assert [q["sql"].split()[0] for q in queries.captured_queries] == ["UPDATE", "UPDATE"]
    assert TelegramUpdate.objects.get(pk=update.pk).replies[0]["state"] == "sent"  # stored with reply 2


def test_sends_outside_an_updates_handling_are_not_numbered(fake_telegram: FakeTelegram) -> None:
    with CaptureQueriesContext(connection) as queries:
        client.send_text(chat_id=CHAT, text="결과")

    assert once.current() is None and queries.captured_queries == []
    assert fake_telegram.sent_texts(CHAT) == ["결과"]

"""A paste whose routing dies with its worker, or fails on the database, is still answered once."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.conf import settings
from django.db import OperationalError
from django.utils import timezone

from agents.models import Run
from conversations.models import Message
from newsdesk.models import PendingText, Reporter, TelegramUpdate
from newsdesk.telegram import dispatch, paste, replies, tasks
from newsdesk.telegram.webhook import receive_update
from tests.factories import ReporterFactory
from tests.fakes.anthropic import FakeAnthropic, text
from tests.fakes.telegram import FakeTelegram, text_update
from tests.fixtures.press import PRESS_RELEASE
from tests.newsdesk.telegram.chat import CHAT, quiet, send

pytestmark = pytest.mark.django_db
real_handle_text = paste.handle_text


class WorkerDied(BaseException):
    """What a killed process looks like from inside: nothing after it runs, no handler catches it."""


@pytest.fixture
def reporter_tg(fake_telegram: FakeTelegram) -> Reporter:
    return ReporterFactory(user=None, telegram_id=CHAT, anthropic_key="sk-ant-test-paste-2222")


def routed(fake: FakeAnthropic, tool: str) -> None:
    fake.tool("route_to_tool", {"tool": tool, "reason": "테스트", "extracted_params": {}})


def routing(
    monkeypatch: pytest.MonkeyPatch, *, before: BaseException | None = None, after: bool = False
) -> None:
    """The next routing fails before it starts, or dies right after it finished its work."""

    def handle(*args: Any) -> Run | None:
        monkeypatch.setattr(paste, "handle_text", real_handle_text)  # only this once
        if before is not None:
            raise before
        result = real_handle_text(*args)
        if after:
            raise WorkerDied
        return result

    monkeypatch.setattr(paste, "handle_text", handle)


def paste_and_die(reporter: Reporter) -> None:
    send(PRESS_RELEASE + "\n기사 써줘", hold=True)
    with pytest.raises(WorkerDied):
        quiet()


def sweep_after_the_task_time_limit(reporter: Reporter) -> int:
    # quiet() flushes as if a minute had passed: the claim is stamped then
    later = timezone.now() + timedelta(seconds=settings.CELERY_TASK_TIME_LIMIT + 60 + 120)
    released = paste.recover(now=later)
    quiet()  # the flush the sweeper scheduled
    return released


def test_a_paste_whose_worker_died_before_routing_is_routed_by_the_sweeper(
    reporter_tg, fake_telegram, fake_llm, monkeypatch
) -> None:
    routing(monkeypatch, before=WorkerDied())
    paste_and_die(reporter_tg)
    assert Run.objects.count() == 0 and fake_telegram.sent_texts(CHAT) == []
    routed(fake_llm, "writing")

    assert sweep_after_the_task_time_limit(reporter_tg) == 1

    assert Run.objects.filter(kind="draft").count() == 1
    assert len(fake_telegram.sent_texts(CHAT)) == 1
    assert not PendingText.objects.filter(routed_at__isnull=True).exists()


def test_a_paste_whose_worker_died_after_queuing_its_draft_is_not_drafted_twice(
    reporter_tg, fake_telegram, fake_llm, monkeypatch
) -> None:
    routed(fake_llm, "writing")
    routing(monkeypatch, after=True)
    paste_and_die(reporter_tg)
    run = Run.objects.get(kind="draft")
    assert PendingText.objects.get().run == run  # tied in the draft's own transaction

    assert sweep_after_the_task_time_limit(reporter_tg) == 0

    assert Run.objects.count() == 1 and len(fake_llm.requests) == 1
    assert len(fake_telegram.sent_texts(CHAT)) == 1
    assert PendingText.objects.get().routed_at is not None


def test_a_reply_the_reporter_saw_before_the_worker_died_is_not_sent_again(
    reporter_tg, fake_telegram, fake_llm, monkeypatch
) -> None:
    routed(fake_llm, "conversation")
    fake_llm.reply(text("네, 말씀하세요."))
    routing(monkeypatch, after=True)
    paste_and_die(reporter_tg)
    assert fake_telegram.sent_texts(CHAT) == ["네, 말씀하세요."]
    routed(fake_llm, "conversation")
    fake_llm.reply(text("네, 말씀하세요."))

    sweep_after_the_task_time_limit(reporter_tg)

    assert fake_telegram.sent_texts(CHAT) == ["네, 말씀하세요."]


def test_a_database_failure_while_routing_routes_the_paste_again_shortly(
    reporter_tg, fake_telegram, fake_llm, monkeypatch
) -> None:
    routing(monkeypatch, before=OperationalError("server closed the connection"))
    send(PRESS_RELEASE + "\n기사 써줘", hold=True)
    quiet()
    assert PendingText.objects.get().batch == ""  # released, its flush scheduled
    routed(fake_llm, "writing")

    quiet()

    assert Run.objects.filter(kind="draft").count() == 1
    assert len(fake_telegram.sent_texts(CHAT)) == 1


def test_a_paste_that_keeps_failing_is_given_up_with_a_message_and_stays_in_the_log(
    reporter_tg, fake_telegram, fake_llm, monkeypatch
) -> None:
    def always_down(*args: Any) -> Run | None:
        raise OperationalError("down")

    monkeypatch.setattr(paste, "handle_text", always_down)
    send(PRESS_RELEASE + "\n기사 써줘", hold=True)

    for _ in range(paste.MAX_ATTEMPTS + 1):
        quiet()

    assert fake_telegram.sent_texts(CHAT) == [replies.PASTE_FAILED]
    assert PendingText.objects.get().routed_at is not None
    assert PRESS_RELEASE[:50] in Message.objects.get(role="user").content


def test_a_text_update_handled_again_after_its_worker_died_is_logged_and_routed_once(
    reporter_tg, fake_telegram, fake_llm, monkeypatch
) -> None:
    update = text_update(chat_id=CHAT, text=PRESS_RELEASE + "\n기사 써줘")
    assert receive_update(update) == "stored"
    stored = TelegramUpdate.objects.get(update_id=update["update_id"])
    real_handle = dispatch.handle

    def handle_then_die(payload: dict[str, Any]) -> None:
        real_handle(payload)
        raise WorkerDied  # before the update is marked processed

    with monkeypatch.context() as patch:
        patch.setattr(tasks.dispatch, "handle", handle_then_die)
        with pytest.raises(WorkerDied):
            tasks.handle_update.apply(args=[stored.pk], throw=True)
    TelegramUpdate.objects.filter(pk=stored.pk).update(owner="")  # the sweeper's redelivery
    tasks.handle_update.apply(args=[stored.pk], throw=True)
    routed(fake_llm, "writing")

    quiet()

    assert Message.objects.filter(role="user").count() == 1
    assert PendingText.objects.count() == 1
    assert Run.objects.get(kind="draft").input["press_release"].count(PRESS_RELEASE[:40]) == 1


def test_routed_paste_parts_are_forgotten_with_their_updates() -> None:
    reporter = ReporterFactory(user=None, telegram_id=CHAT)
    old = timezone.now() - tasks.UPDATE_RETENTION - timedelta(hours=1)
    PendingText.objects.create(reporter=reporter, chat_id=CHAT, text="a", received_at=old, routed_at=old)
    waiting = PendingText.objects.create(reporter=reporter, chat_id=CHAT, text="b", received_at=old)

    tasks.purge_updates.apply()

    assert list(PendingText.objects.all()) == [waiting]


def test_a_batch_whose_routing_finishes_between_the_sweepers_select_and_release_is_not_routed_again(
    reporter_tg, fake_telegram, fake_llm, monkeypatch
) -> None:
    routing(monkeypatch, before=WorkerDied())
    paste_and_die(reporter_tg)  # claimed, unrouted: the sweeper will select it as dead

    class FinishesOnSelect:
        """The sweeper logs each batch it selected before releasing it: the routing ends right then."""

        def warning(self, *args: object) -> None:
            PendingText.objects.filter(routed_at__isnull=True).update(routed_at=timezone.now())

    monkeypatch.setattr(paste, "log", FinishesOnSelect())

    assert sweep_after_the_task_time_limit(reporter_tg) == 0

    assert Run.objects.count() == 0 and fake_telegram.sent_texts(CHAT) == []
    assert PendingText.objects.exclude(batch="").count() == PendingText.objects.count()

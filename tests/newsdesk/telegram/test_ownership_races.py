"""Claim, sweep and finish interleaved step by step: every update and result is answered exactly once.

The sweeper selects what looks lost, then takes each row back; a worker may claim the row in
between (`message_waiting` is the sweeper's last call before its UPDATE: the tests run the
worker's claim there). A worker that went silent long enough to be taken over may wake up and
finish late. Neither may lose a reply nor send one twice.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from agents.models import OutboxMessage, Run
from agents.services import work
from newsdesk.models import Reporter, TelegramDelivery, TelegramUpdate
from newsdesk.telegram import queue, tasks
from tests.factories import ArticleFactory
from tests.fakes.telegram import FakeTelegram
from tests.newsdesk.telegram.chat import CHAT, registered_reporter, stored_text

pytestmark = pytest.mark.django_db
LONG_AGO = timedelta(hours=1)


@pytest.fixture(autouse=True)
def short_requeue(settings: Any) -> None:
    settings.NEWSDESK_REQUEUE_AFTER_SECONDS = 0  # everything unowned counts as lost at once


@pytest.fixture
def registered(fake_telegram: FakeTelegram) -> Reporter:
    return registered_reporter()


def stored_update() -> TelegramUpdate:
    stored = stored_text("/status")
    TelegramUpdate.objects.filter(pk=stored.pk).update(received_at=timezone.now() - LONG_AGO)
    relayed()
    return stored


def claimed_update() -> tuple[TelegramUpdate, str]:
    """A stored update that worker A has claimed; returns it and A's owner id."""
    update, worker_a = stored_update(), work.owner_new()
    assert tasks._claim(update.pk, "task-a", worker_a)
    return update, worker_a


def relayed() -> None:
    """The outbox's messages went to the broker (the tests run their tasks themselves)."""
    OutboxMessage.objects.all().delete()


def sweep_with(monkeypatch: pytest.MonkeyPatch, between_select_and_update: Callable[[], None]) -> int:
    """Runs the sweeper with `between_select_and_update` run after its select, before its UPDATE."""
    ran: list[bool] = []

    def waiting(*, key: str) -> bool:
        if not ran:
            ran.append(True)
            between_select_and_update()
        return False  # nothing in the outbox: the sweeper goes on to take the row back

    monkeypatch.setattr(work, "message_waiting", waiting)
    return queue.sweep()


def deliver_queued(update: TelegramUpdate) -> None:
    """Whatever the sweeper queued is delivered (and a redelivery too: it must find nothing to do)."""
    tasks.handle_update.apply(args=[update.pk], throw=True)


def test_an_update_claimed_between_the_sweepers_select_and_update_stays_with_its_worker_and_is_answered_once(
    fake_telegram: FakeTelegram, registered: Reporter, monkeypatch: pytest.MonkeyPatch
) -> None:
    update = stored_update()
    worker_a = work.owner_new()

    requeued = sweep_with(monkeypatch, lambda: tasks._claim(update.pk, "task-a", worker_a))
    tasks.handle_owned(update_pk=update.pk, owner=worker_a, heartbeat=False)
    deliver_queued(update)

    update.refresh_from_db()
    assert len(fake_telegram.sent_texts(CHAT)) == 1  # the code before: 0, the reply was lost
    assert requeued == 0
    assert update.processed_at is not None and update.replies[0]["state"] == "sent"


def test_a_silent_worker_that_wakes_after_the_takeover_neither_replies_nor_marks_the_update(
    fake_telegram: FakeTelegram, registered: Reporter
) -> None:
    update, worker_a = claimed_update()
    TelegramUpdate.objects.filter(pk=update.pk).update(heartbeat_at=timezone.now() - LONG_AGO)

    assert queue.sweep() == 1  # A went silent: taken back and queued again
    relayed()
    deliver_queued(update)  # worker B answers it
    answered_by_b = TelegramUpdate.objects.get(pk=update.pk)
    tasks.handle_owned(update_pk=update.pk, owner=worker_a, heartbeat=False)  # A wakes up

    update.refresh_from_db()
    assert len(fake_telegram.sent_texts(CHAT)) == 1
    assert update.owner == answered_by_b.owner != worker_a
    assert (update.processed_at, update.replies) == (answered_by_b.processed_at, answered_by_b.replies)


def test_a_worker_whose_update_was_taken_mid_handling_leaves_it_to_the_new_owner(
    fake_telegram: FakeTelegram, registered: Reporter
) -> None:
    update, worker_a = claimed_update()
    TelegramUpdate.objects.filter(pk=update.pk).update(owner="someone-else")  # taken over meanwhile

    tasks.handle_owned(update_pk=update.pk, owner=worker_a, heartbeat=False)

    update.refresh_from_db()
    assert fake_telegram.sent_texts(CHAT) == []
    assert update.processed_at is None  # the new owner still has it to do


# --- result deliveries ------------------------------------------------------------------------
@pytest.fixture
def finished_run(registered: Reporter) -> Run:
    article = ArticleFactory(reporter=registered, run__channel=Run.Channel.TELEGRAM)
    Run.objects.filter(pk=article.run_id).update(finished_at=timezone.now() - LONG_AGO)
    TelegramDelivery.objects.create(run_id=article.run_id, chat_id=CHAT)
    return Run.objects.get(pk=article.run_id)


def deliver_as(owner: str, run: Run) -> None:
    delivery = TelegramDelivery.objects.get(run=run)
    tasks.deliver_owned(tasks.deliver_run, run=run, delivery=delivery, owner=owner)


def test_a_delivery_claimed_between_the_sweepers_select_and_update_is_sent_once(
    fake_telegram: FakeTelegram, finished_run: Run, monkeypatch: pytest.MonkeyPatch
) -> None:
    delivery = TelegramDelivery.objects.get(run=finished_run)
    worker_a = work.owner_new()

    requeued = sweep_with(monkeypatch, lambda: tasks._claim_delivery(delivery.pk, worker_a))
    deliver_as(worker_a, finished_run)
    tasks.deliver_run.apply(args=[finished_run.pk], throw=True)

    delivery.refresh_from_db()
    assert requeued == 0
    assert len(fake_telegram.sent_texts(CHAT)) == 1 and delivery.delivered_at is not None


def test_a_silent_delivery_worker_that_wakes_after_the_takeover_sends_nothing_again(
    fake_telegram: FakeTelegram, finished_run: Run
) -> None:
    delivery = TelegramDelivery.objects.get(run=finished_run)
    worker_a = work.owner_new()
    assert tasks._claim_delivery(delivery.pk, worker_a)
    TelegramDelivery.objects.filter(pk=delivery.pk).update(heartbeat_at=timezone.now() - LONG_AGO)

    assert queue.sweep() == 1
    relayed()
    tasks.deliver_run.apply(args=[finished_run.pk], throw=True)  # worker B sends the result
    deliver_as(worker_a, finished_run)  # A wakes up with the parts it had read as unsent

    delivery.refresh_from_db()
    assert len(fake_telegram.sent_texts(CHAT)) == 1
    assert delivery.owner != worker_a and delivery.delivered_at is not None

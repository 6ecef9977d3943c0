"""An update whose handling loses the database for a moment is retried in seconds, keeping its row,
and answered exactly once (not failed, not left for the sweeper's minutes)."""

from __future__ import annotations

from typing import Any

import pytest
from celery.exceptions import Retry
from django.db import OperationalError
from django.db.models import QuerySet

from agents.models import Run
from agents.services import work
from newsdesk.models import Reporter, TelegramDelivery, TelegramUpdate
from newsdesk.telegram import dispatch, once, tasks
from tests.factories import ArticleFactory
from tests.fakes.telegram import FakeTelegram
from tests.newsdesk.telegram.chat import CHAT, registered_reporter, stored_text

pytestmark = pytest.mark.django_db
real_handle = dispatch.handle


@pytest.fixture
def registered(fake_telegram: FakeTelegram) -> Reporter:
    return registered_reporter()


def blip_once(monkeypatch: pytest.MonkeyPatch, *, after_reply: bool) -> None:
    """The next handling loses its connection, before or after its reply went out."""

    def handle(payload: dict[str, Any]) -> None:
        monkeypatch.setattr(dispatch, "handle", real_handle)
        if after_reply:
            real_handle(payload)
        raise OperationalError("server closed the connection unexpectedly")

    monkeypatch.setattr(dispatch, "handle", handle)


def claim_commits_then_blips(monkeypatch: pytest.MonkeyPatch) -> None:
    """The next reply's claim reaches the database and commits, but the connection drops before
    its answer comes back (PostgreSQL restarting): the row says "sending", nothing went out."""
    real_reply_log = tasks._reply_log

    def reply_log(update: TelegramUpdate, owner: str) -> once.ReplyLog:
        monkeypatch.setattr(tasks, "_reply_log", real_reply_log)
        made = real_reply_log(update, owner)
        save = made.save

        def save_then_drop(entries: list[once.Entry]) -> bool:
            made.save = save
            save(entries)
            raise OperationalError("server closed the connection unexpectedly")

        made.save = save_then_drop
        return made

    monkeypatch.setattr(tasks, "_reply_log", reply_log)


def retried(
    update: TelegramUpdate, monkeypatch: pytest.MonkeyPatch, kwargs: dict[str, Any] | None = None
) -> dict[str, Any]:
    """Runs the task once; returns the retry it asked for (its kwargs) instead of sending it."""
    asked: list[dict[str, Any]] = []

    def retry(**options: Any) -> Retry:
        asked.append(options)
        return Retry("retry", when=options["countdown"])

    monkeypatch.setattr(tasks.handle_update, "retry", retry)
    with pytest.raises(Retry):
        tasks.handle_update.apply(args=[update.pk], kwargs=kwargs or {}, throw=True)
    monkeypatch.undo()
    [options] = asked
    return options


@pytest.mark.parametrize("after_reply", [False, True])
def test_a_database_blip_mid_handling_is_retried_at_once_and_answered_exactly_once(
    fake_telegram: FakeTelegram, registered: Reporter, monkeypatch: pytest.MonkeyPatch, after_reply: bool
) -> None:
    update = stored_text("/status")
    blip_once(monkeypatch, after_reply=after_reply)

    options = retried(update, monkeypatch)
    update.refresh_from_db()
    assert update.processed_at is None and update.error == ""  # not marked failed
    assert options["countdown"] <= 4 and options["kwargs"]["owner"] == update.owner

    tasks.handle_update.apply(args=[update.pk], kwargs=options["kwargs"], throw=True)

    update.refresh_from_db()
    assert update.processed_at is not None and update.attempts == 1
    assert len(fake_telegram.sent_texts(CHAT)) == 1


def test_a_retry_whose_update_was_taken_over_meanwhile_does_nothing(
    fake_telegram: FakeTelegram, registered: Reporter, monkeypatch: pytest.MonkeyPatch
) -> None:
    update = stored_text("/status")
    blip_once(monkeypatch, after_reply=False)
    options = retried(update, monkeypatch)
    TelegramUpdate.objects.filter(pk=update.pk).update(owner=work.owner_new())  # a live worker has it

    tasks.handle_update.apply(args=[update.pk], kwargs=options["kwargs"], throw=True)

    update.refresh_from_db()
    assert update.processed_at is None and fake_telegram.sent_texts(CHAT) == []


def test_a_reply_whose_claim_committed_as_the_connection_dropped_is_sent_by_the_retry_once(
    fake_telegram: FakeTelegram, registered: Reporter, monkeypatch: pytest.MonkeyPatch
) -> None:
    update = stored_text("/status")
    claim_commits_then_blips(monkeypatch)

    options = retried(update, monkeypatch)
    update.refresh_from_db()
    assert update.replies == [{"state": "sending", "ids": []}] and fake_telegram.sent_texts(CHAT) == []
    assert options["kwargs"]["resume"] == 0  # the retry is told which entry was never sent

    tasks.handle_update.apply(args=[update.pk], kwargs=options["kwargs"], throw=True)

    update.refresh_from_db()
    assert update.processed_at is not None
    assert len(fake_telegram.sent_texts(CHAT)) == 1
    assert [entry["state"] for entry in update.replies] == ["sent"]


def test_a_retry_that_blips_again_before_the_held_reply_still_hands_it_on(
    fake_telegram: FakeTelegram, registered: Reporter, monkeypatch: pytest.MonkeyPatch
) -> None:
    update = stored_text("/status")
    claim_commits_then_blips(monkeypatch)
    first = retried(update, monkeypatch)
    blip_once(monkeypatch, after_reply=False)  # the database is still away on the first retry

    second = retried(update, monkeypatch, first["kwargs"])
    assert second["kwargs"]["resume"] == 0 and fake_telegram.sent_texts(CHAT) == []

    tasks.handle_update.apply(args=[update.pk], kwargs=second["kwargs"], throw=True)
    assert len(fake_telegram.sent_texts(CHAT)) == 1


def test_a_resumed_reply_is_not_sent_again_by_a_later_retry(
    fake_telegram: FakeTelegram, registered: Reporter, monkeypatch: pytest.MonkeyPatch
) -> None:
    update = stored_text("/status")
    claim_commits_then_blips(monkeypatch)
    first = retried(update, monkeypatch)
    blip_once(monkeypatch, after_reply=True)  # the resumed reply goes out, then the database goes

    second = retried(update, monkeypatch, first["kwargs"])
    assert second["kwargs"]["resume"] is None and len(fake_telegram.sent_texts(CHAT)) == 1

    tasks.handle_update.apply(args=[update.pk], kwargs=second["kwargs"], throw=True)
    update.refresh_from_db()
    assert update.processed_at is not None and len(fake_telegram.sent_texts(CHAT)) == 1


def test_a_held_reply_is_never_resumed_once_another_owner_had_the_update(
    fake_telegram: FakeTelegram, registered: Reporter, monkeypatch: pytest.MonkeyPatch
) -> None:
    update = stored_text("/status")
    claim_commits_then_blips(monkeypatch)
    options = retried(update, monkeypatch)
    # The sweeper took the row back meanwhile: another worker may have claimed and sent that entry.
    TelegramUpdate.objects.filter(pk=update.pk).update(owner="")

    tasks.handle_update.apply(args=[update.pk], kwargs=options["kwargs"], throw=True)

    update.refresh_from_db()
    assert update.processed_at is not None and fake_telegram.sent_texts(CHAT) == []


# --- result deliveries ------------------------------------------------------------------------
def test_a_result_part_sent_just_before_a_blip_is_not_sent_again_by_the_retry(
    fake_telegram: FakeTelegram, registered: Reporter, monkeypatch: pytest.MonkeyPatch
) -> None:
    article = ArticleFactory(reporter=registered, run__channel=Run.Channel.TELEGRAM)
    TelegramDelivery.objects.create(run_id=article.run_id, chat_id=CHAT)
    real_update = QuerySet.update

    def update(queryset: QuerySet[Any], **fields: Any) -> int:  # the part is out; its count is not
        if "sent_parts" in fields:
            monkeypatch.setattr(QuerySet, "update", real_update)
            raise OperationalError("server closed the connection unexpectedly")
        return real_update(queryset, **fields)

    monkeypatch.setattr(QuerySet, "update", update)
    asked: list[dict[str, Any]] = []
    monkeypatch.setattr(
        tasks.deliver_run, "retry", lambda **options: asked.append(options) or Retry("retry", when=0)
    )
    with pytest.raises(Retry):
        tasks.deliver_run.apply(args=[article.run_id], throw=True)
    monkeypatch.undo()
    [options] = asked
    assert options["kwargs"]["sent"] == 1 and TelegramDelivery.objects.get().sent_parts == 0

    tasks.deliver_run.apply(args=[article.run_id], kwargs=options["kwargs"], throw=True)

    delivery = TelegramDelivery.objects.get()
    assert delivery.delivered_at is not None and delivery.sent_parts == 1
    assert len(fake_telegram.sent_texts(CHAT)) == 1

"""An update whose handling loses the database for a moment is retried in seconds, keeping its row,
and answered exactly once (not failed, not left for the sweeper's minutes)."""

from __future__ import annotations

from typing import Any

import pytest
from celery.exceptions import Retry
from django.db import OperationalError

from agents.services import work
from newsdesk.models import Reporter, TelegramUpdate
from newsdesk.telegram import dispatch, tasks
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


def retried(update: TelegramUpdate, monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    """Runs the task once; returns the retry it asked for (its kwargs) instead of sending it."""
    asked: list[dict[str, Any]] = []

    def retry(**options: Any) -> Retry:
        asked.append(options)
        return Retry("retry", when=options["countdown"])

    monkeypatch.setattr(tasks.handle_update, "retry", retry)
    with pytest.raises(Retry):
        tasks.handle_update.apply(args=[update.pk], throw=True)
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

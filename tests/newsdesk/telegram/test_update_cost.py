"""What handling one update costs the database: a budget of queries for a plain command, and the
lookup a first handling skips still made when the update is handled again."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from conversations.models import Message
from newsdesk.models import Reporter, TelegramUpdate
from newsdesk.telegram import tasks
from tests.fakes.telegram import FakeTelegram
from tests.newsdesk.telegram.chat import CHAT, registered_reporter, stored_text

pytestmark = pytest.mark.django_db


@pytest.fixture
def registered(fake_telegram: FakeTelegram) -> Reporter:
    return registered_reporter()


def test_a_command_is_handled_in_seven_queries(registered: Reporter, fake_telegram: FakeTelegram) -> None:
    # claim, row, reporter, the reporter's message, the reply's claim, the reply's log, done: the
    # first handling knows the reporter's message was never logged and does not look it up.
    update = stored_text("/help")

    with CaptureQueriesContext(connection) as queries:
        tasks.handle_update.apply(args=[update.pk])

    assert len(queries.captured_queries) <= 7
    assert len(fake_telegram.sent_texts(CHAT)) == 1


def test_an_update_handled_again_logs_the_reporters_message_once(
    registered: Reporter, fake_telegram: FakeTelegram
) -> None:
    update = stored_text("/help")
    tasks.handle_update.apply(args=[update.pk])
    # Its worker died before anything but the reporter's message was recorded: handled again.
    TelegramUpdate.objects.filter(pk=update.pk).update(
        processed_at=None, owner="", replies=[], payload=update.payload
    )

    tasks.handle_update.apply(args=[update.pk])

    assert Message.objects.filter(reporter=registered, role=Message.Role.USER).count() == 1
    assert TelegramUpdate.objects.get(pk=update.pk).attempts == 2

"""A burst of Telegram updates, redeliveries included, through the webhook and a real worker."""

from __future__ import annotations

import json
import time

import pytest
from django.test import Client

from newsdesk.models import TelegramUpdate
from tests.factories import ReporterFactory
from tests.fakes.anthropic import FakeAnthropic
from tests.fakes.telegram import FakeTelegram, text_update

pytestmark = [
    pytest.mark.integration,
    pytest.mark.xdist_group("worker"),
    pytest.mark.django_db(transaction=True),
]
CHATS = range(5001, 5031)


def test_a_burst_of_updates_is_answered_once_each(
    fake_telegram: FakeTelegram, fake_llm: FakeAnthropic, webhook_secret: str, worker
) -> None:
    for chat in CHATS:
        ReporterFactory(user=None, telegram_id=chat, anthropic_key="sk-ant-test-burst-0000")
    updates = [text_update(chat_id=chat, text="/help") for chat in CHATS]
    client = Client(HTTP_X_TELEGRAM_BOT_API_SECRET_TOKEN=webhook_secret)

    for update in updates + updates[:10]:  # the first ten are delivered twice
        response = client.post("/telegram/webhook/", data=json.dumps(update), content_type="application/json")
        assert response.status_code == 200

    deadline = time.monotonic() + 60
    while TelegramUpdate.objects.filter(processed_at__isnull=True).exists() and time.monotonic() < deadline:
        time.sleep(0.2)
    assert TelegramUpdate.objects.count() == len(CHATS)
    assert not TelegramUpdate.objects.filter(processed_at__isnull=True).exists()
    for chat in CHATS:
        assert len(fake_telegram.sent_texts(chat)) == 1, f"chat {chat} got {fake_telegram.sent_texts(chat)}"
    assert fake_llm.requests == []

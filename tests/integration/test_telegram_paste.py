"""A split paste through the webhook and a real worker with two processes: one input, one reply."""

from __future__ import annotations

import json
import time

import pytest
from django.test import Client

from newsdesk.models import PendingText
from tests.factories import ReporterFactory
from tests.fakes.anthropic import FakeAnthropic, text
from tests.fakes.telegram import FakeTelegram, text_update
from tests.fixtures.press import long_release

pytestmark = [
    pytest.mark.integration,
    pytest.mark.xdist_group("worker"),
    pytest.mark.django_db(transaction=True),
]
CHAT = 6101


def test_parts_sent_within_a_second_are_routed_once_as_one_text(
    fake_telegram: FakeTelegram, fake_llm: FakeAnthropic, webhook_secret: str, worker
) -> None:
    ReporterFactory(user=None, telegram_id=CHAT, anthropic_key="sk-ant-test-paste-0000")
    release = long_release() + "\n" + long_release()[:3000]
    parts = [release[:4000], release[4000:8000], release[8000:] + "\n이 자료 요약해줘"]
    fake_llm.tool("route_to_tool", {"tool": "conversation", "reason": "요약", "extracted_params": {}})
    fake_llm.reply(text("요약: 서울시 19개 분야 예산 계획입니다."))
    client = Client(HTTP_X_TELEGRAM_BOT_API_SECRET_TOKEN=webhook_secret)

    for part in parts:  # as the client sends them: a few hundred milliseconds apart
        update = text_update(chat_id=CHAT, text=part)
        response = client.post("/telegram/webhook/", data=json.dumps(update), content_type="application/json")
        assert response.status_code == 200
        time.sleep(0.3)

    deadline = time.monotonic() + 30
    while not fake_telegram.sent_texts(CHAT) and time.monotonic() < deadline:
        time.sleep(0.2)
    time.sleep(3)  # any second answer would come within the window
    assert fake_telegram.sent_texts(CHAT) == ["요약: 서울시 19개 분야 예산 계획입니다."]
    routed = fake_llm.requests[0].last_user_text()
    assert parts[0][:50] in routed and "이 자료 요약해줘" in routed
    assert not PendingText.objects.filter(batch="").exists()

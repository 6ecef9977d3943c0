"""A draft cut short by the writing deadline says so in Telegram: on the status line while the
article is checked, and in the delivered reply."""

from __future__ import annotations

import pytest

from agents import messages as msg
from agents.llm import client as llm
from agents.models import Run
from newsdesk.models import Reporter, TelegramDelivery
from tests.agents.draft_script import submit, verify_pass
from tests.factories import ReporterFactory
from tests.fakes.anthropic import FakeAnthropic
from tests.fakes.telegram import FakeTelegram
from tests.fixtures.press import PRESS_RELEASE
from tests.newsdesk.telegram.chat import CHAT, finish, send

pytestmark = pytest.mark.django_db


@pytest.fixture
def reporter_tg(fake_telegram: FakeTelegram) -> Reporter:
    return ReporterFactory(user=None, telegram_id=CHAT, anthropic_key="sk-ant-test-deadline-1")


def test_the_reporter_reads_the_deadline_message_on_the_status_line_and_under_the_article(
    reporter_tg, fake_telegram: FakeTelegram, fake_llm: FakeAnthropic, settings
) -> None:
    llm.preload_sdk()  # as the llm worker does at start: its import is no model time
    settings.NEWSDESK_WRITING_DEADLINE_SECONDS = 2
    fake_llm.tool("route_to_tool", {"tool": "writing", "reason": "기사", "extracted_params": {}})
    send(PRESS_RELEASE + "\n이 보도자료로 기사 써줘")
    fake_llm.stall(30, expect="loop")
    submit(fake_llm, forced=True)
    verify_pass(fake_llm)

    run = finish(Run.objects.get(kind="draft"))

    note = msg.WRITING_DEADLINE.format(seconds=2)
    assert run.status == Run.Status.DONE, run.error
    status_id = TelegramDelivery.objects.get(run=run).status_message_id
    [status] = [m for m in fake_telegram.messages(CHAT) if m.message_id == status_id]
    assert any(note in text for text in status.history)
    reply = next(text for text in fake_telegram.sent_texts(CHAT) if run.article.headline in text)
    assert note in reply

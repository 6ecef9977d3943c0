"""The conversation log: three days visible, then purged; numbered summaries for the model."""

from __future__ import annotations

from datetime import timedelta

import pytest
import time_machine
from django.utils import timezone

from conversations.models import Message
from conversations.retention import purge_messages
from conversations.selectors import last_article_id, numbered_summaries, recent_messages
from conversations.services import message_log

pytestmark = pytest.mark.django_db
CANARY = "canary-7f3e 기밀 메모"


def test_a_message_is_visible_until_72_hours_and_hidden_one_second_later(reporter) -> None:
    start = timezone.now()
    with time_machine.travel(start, tick=False):
        message_log(reporter=reporter, role="user", content=CANARY)

    with time_machine.travel(start + timedelta(hours=72) - timedelta(seconds=1), tick=False):
        assert [m.content for m in recent_messages(reporter=reporter)] == [CANARY]
    with time_machine.travel(start + timedelta(hours=72) + timedelta(seconds=1), tick=False):
        assert recent_messages(reporter=reporter) == []  # hidden before any purge ran
        assert Message.objects.filter(content=CANARY).exists()
        assert purge_messages() == 1
        assert purge_messages() == 0  # idempotent
    assert not Message.objects.filter(content=CANARY).exists()


def test_recent_messages_keeps_the_last_fifty_oldest_first(reporter) -> None:
    for n in range(55):
        message_log(reporter=reporter, role="user", content=f"메시지 {n}")

    messages = recent_messages(reporter=reporter)

    assert len(messages) == 50
    assert messages[0].content == "메시지 5" and messages[-1].content == "메시지 54"


def test_another_reporters_messages_never_show(reporter, other_reporter) -> None:
    message_log(reporter=other_reporter, role="user", content="남의 대화")
    assert recent_messages(reporter=reporter) == []


def test_summaries_are_numbered_cut_to_80_characters_and_tag_attachments(reporter) -> None:
    message_log(reporter=reporter, role="user", content="가" * 200)
    message_log(
        reporter=reporter,
        role="user",
        content="",
        message_type="document",
        attachment_meta={
            "file_id": "F1",
            "file_name": "보도자료.pdf",
            "mime_type": "application/pdf",
            "file_size": 1_258_291,
        },
    )

    lines = numbered_summaries(recent_messages(reporter=reporter)).splitlines()

    assert lines[0].startswith("[1] user ") and f'"{"가" * 80}"' in lines[0]
    assert lines[1].startswith("[2] user ") and lines[1].endswith("[첨부: 보도자료.pdf 1.2MB]")


def test_the_last_delivered_article_is_found_from_bot_replies(reporter) -> None:
    message_log(reporter=reporter, role="assistant", content="기사 1", meta={"article_id": 3})
    message_log(reporter=reporter, role="assistant", content="기사 2", meta={"article_id": 9})
    message_log(reporter=reporter, role="user", content="제목 바꿔줘")

    assert last_article_id(recent_messages(reporter=reporter)) == 9

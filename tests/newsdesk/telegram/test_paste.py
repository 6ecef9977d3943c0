"""A long release pasted on a phone arrives split into several messages: it is one input."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from agents.models import Run
from conversations.models import Message
from newsdesk.models import PendingText, Reporter
from newsdesk.telegram import paste
from tests.agents.draft_script import submit, verify_pass
from tests.factories import ReporterFactory
from tests.fakes.anthropic import FakeAnthropic, text
from tests.fakes.telegram import FakeTelegram
from tests.fixtures.press import PRESS_RELEASE, long_release
from tests.newsdesk.telegram.chat import CHAT, finish, quiet, send

pytestmark = pytest.mark.django_db
LAST_PART_FIGURE = "2350억"  # in the release's last section only


@pytest.fixture
def reporter_tg(fake_telegram: FakeTelegram) -> Reporter:
    return ReporterFactory(user=None, telegram_id=CHAT, anthropic_key="sk-ant-test-paste-1111")


def split_like_telegram(message: str, limit: int = 4096) -> list[str]:
    """The client's split: at the last line break (else space) before the limit."""
    parts = []
    while len(message) > limit:
        cut = message.rfind("\n", 0, limit)
        cut = cut if cut > 0 else message.rfind(" ", 0, limit)
        parts.append(message[:cut])
        message = message[cut + 1 :]
    return [*parts, message]


def routed(fake: FakeAnthropic, tool: str, **params: object) -> None:
    fake.tool("route_to_tool", {"tool": tool, "reason": "테스트", "extracted_params": params})


def paste_parts(parts: list[str]) -> None:
    for part in parts:
        send(part, hold=True)
    quiet()


def test_a_two_part_paste_with_the_instruction_on_top_gives_one_article_with_the_last_figures(
    reporter_tg, fake_telegram, fake_llm
) -> None:
    parts = split_like_telegram("아래 보도자료로 기사 써줘\n\n" + long_release())
    assert len(parts) == 2 and LAST_PART_FIGURE in parts[-1] and LAST_PART_FIGURE not in parts[0]
    routed(fake_llm, "writing")

    paste_parts(parts)

    assert [r.forced_tool for r in fake_llm.requests] == ["route_to_tool"]
    assert LAST_PART_FIGURE in fake_llm.requests[0].last_user_text()
    run = Run.objects.get(kind="draft")
    assert len(fake_telegram.sent_texts(CHAT)) == 1  # "기사 작성을 시작합니다…", once
    submit(fake_llm)
    verify_pass(fake_llm)
    run = finish(run)
    assert run.status == "done", run.error
    writer = fake_llm.requests[1].all_text()  # the writing loop's first turn, as the model received it
    assert LAST_PART_FIGURE in writer and "1. 청년 주거 분야" in writer
    logged = Message.objects.filter(role="user")
    assert logged.count() == 1 and LAST_PART_FIGURE in logged.get().content


def test_a_three_part_paste_with_the_instruction_at_the_bottom_is_routed_once(
    reporter_tg, fake_telegram, fake_llm
) -> None:
    release = long_release()
    parts = split_like_telegram(release + "\n" + release[:2000] + "\n위 자료로 기사 써줘")
    assert len(parts) == 3
    routed(fake_llm, "writing")

    paste_parts(parts)

    run = Run.objects.get(kind="draft")
    assert run.input["press_release"].endswith("위 자료로 기사 써줘")
    assert run.input["press_release"].startswith(release[:30])
    assert len(fake_llm.requests) == 1 and len(fake_telegram.sent_texts(CHAT)) == 1


def test_an_instruction_sent_right_after_the_parts_joins_them(reporter_tg, fake_telegram, fake_llm) -> None:
    parts = split_like_telegram(long_release())
    routed(fake_llm, "writing")

    paste_parts([*parts, "이걸로 기사 써줘"])

    run = Run.objects.get(kind="draft")
    assert LAST_PART_FIGURE in run.input["press_release"] and len(fake_llm.requests) == 1


def test_an_instruction_sent_later_writes_from_the_whole_paste(reporter_tg, fake_telegram, fake_llm) -> None:
    routed(fake_llm, "conversation")
    fake_llm.reply(text("보도자료를 받았습니다. 기사로 쓸까요?"))
    paste_parts(split_like_telegram(long_release()))
    routed(fake_llm, "writing")

    send("응 600자로 써줘")

    run = Run.objects.get(kind="draft")
    assert LAST_PART_FIGURE in run.input["press_release"] and "1. 청년 주거" in run.input["press_release"]
    assert len(fake_telegram.sent_texts(CHAT)) == 2  # one answer to the paste, one to the request


def test_parts_wait_while_the_chat_is_not_quiet(reporter_tg, fake_telegram, fake_llm) -> None:
    send("첫 부분 " + "가" * 3500, hold=True)

    wait = paste.flush(reporter_id=reporter_tg.pk)

    assert wait is not None and 0 < wait <= 3.0
    assert fake_llm.requests == [] and fake_telegram.sent_texts(CHAT) == []
    assert PendingText.objects.filter(batch="").count() == 1


def test_a_part_arriving_after_its_batch_was_queued_joins_the_queued_draft(
    reporter_tg, fake_telegram, fake_llm
) -> None:
    parts = split_like_telegram("아래 자료로 기사 써줘\n" + long_release())
    routed(fake_llm, "writing")
    paste_parts(parts[:1])
    run = Run.objects.get(kind="draft")
    assert LAST_PART_FIGURE not in run.input["press_release"]

    paste_parts(parts[1:])  # late: its batch was already routed and its draft queued

    run.refresh_from_db()
    assert LAST_PART_FIGURE in run.input["press_release"]
    assert Run.objects.count() == 1 and len(fake_llm.requests) == 1
    assert len(fake_telegram.sent_texts(CHAT)) == 1
    assert LAST_PART_FIGURE in Message.objects.get(role="user").content


def test_a_late_part_does_not_join_a_draft_already_running(reporter_tg, fake_telegram, fake_llm) -> None:
    parts = split_like_telegram("아래 자료로 기사 써줘\n" + long_release())
    routed(fake_llm, "writing")
    paste_parts(parts[:1])
    Run.objects.filter(kind="draft").update(status=Run.Status.RUNNING)
    routed(fake_llm, "writing")

    paste_parts(parts[1:])

    assert LAST_PART_FIGURE not in Run.objects.get(kind="draft").input["press_release"]
    assert "이전 요청을 처리 중입니다" in fake_telegram.sent_texts(CHAT)[-1]


def test_short_messages_far_apart_stay_separate_inputs(reporter_tg, fake_telegram, fake_llm) -> None:
    routed(fake_llm, "conversation")
    fake_llm.reply(text("네."))
    send("고마워")
    PendingText.objects.update(received_at=timezone.now() - timedelta(minutes=5))
    routed(fake_llm, "conversation")
    fake_llm.reply(text("네, 또 불러 주세요."))

    send("수고했어")

    assert fake_telegram.sent_texts(CHAT) == ["네.", "네, 또 불러 주세요."]


def test_a_second_claim_of_the_same_parts_finds_nothing(reporter_tg, fake_telegram, fake_llm) -> None:
    routed(fake_llm, "writing")
    send(PRESS_RELEASE + "\n기사 써줘", hold=True)
    later = timezone.now() + timedelta(minutes=1)

    assert paste.flush(reporter_id=reporter_tg.pk, now=later) is None
    assert paste.flush(reporter_id=reporter_tg.pk, now=later) is None

    assert Run.objects.count() == 1 and len(fake_llm.requests) == 1


def test_parts_join_into_sentences_as_they_were_split() -> None:
    assert paste.join_parts(["첫 문장이다.", "둘째 문장이다."]) == "첫 문장이다.\n둘째 문장이다."
    assert paste.join_parts(["문장 중간에서", "잘렸다."]) == "문장 중간에서 잘렸다."


def test_a_paste_longer_than_the_model_reads_is_cut_and_the_article_says_so(
    reporter_tg, fake_telegram, fake_llm
) -> None:
    release = "\n".join([long_release()] * 3) + "\n위 자료로 기사 써줘"
    assert len(release) > 20_000
    routed(fake_llm, "writing")
    paste_parts(split_like_telegram(release))
    run = Run.objects.get(kind="draft")
    assert len(run.input["press_release"]) <= 20_000
    submit(fake_llm)
    verify_pass(fake_llm)

    finish(run)

    reply = fake_telegram.sent_texts(CHAT)[-1]
    left = len(release) - len(run.input["press_release"])
    assert f"{left:,}자는 빠졌습니다" in reply and "3~10쪽으로" in reply

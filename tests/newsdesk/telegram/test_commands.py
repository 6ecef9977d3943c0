"""Registration, the /commands and files without a caption: code decides them, no model call is made."""

from __future__ import annotations

import pytest
from django_celery_beat.models import PeriodicTask

from agents.models import Run
from conversations.models import Message
from newsdesk.models import Reporter, TelegramDelivery
from tests.factories import ReporterFactory
from tests.fakes.anthropic import FakeAnthropic
from tests.fakes.telegram import FakeTelegram
from tests.newsdesk.telegram.chat import CHAT, last_text, send, send_file

pytestmark = pytest.mark.django_db
KEY = "sk-ant-api03-CANARY-telegram-9876"


@pytest.fixture
def registered(fake_telegram: FakeTelegram) -> Reporter:
    return ReporterFactory(
        user=None, telegram_id=CHAT, keywords=["서부지검"], anthropic_key="sk-ant-test-tg-1111"
    )


def test_registration_asks_department_keywords_and_key_then_deletes_the_key_message(
    fake_telegram: FakeTelegram, fake_llm: FakeAnthropic
) -> None:
    send("/start")
    assert "부서를 알려 주세요" in last_text(fake_telegram)
    send("경제")
    assert "경제부로 설정했습니다" in last_text(fake_telegram)
    send("금리, 환율 ,")
    assert "API 키" in last_text(fake_telegram)
    key_update = send(KEY)

    reporter = Reporter.objects.get(telegram_id=CHAT)
    assert reporter.department == "경제부" and reporter.keywords == ["금리", "환율"]
    assert reporter.anthropic_key() == KEY and reporter.registration_step == ""
    assert "등록을 마쳤습니다" in last_text(fake_telegram)
    deleted = [c.params for c in fake_telegram.calls_for("deleteMessage")]
    assert {"chat_id": str(CHAT), "message_id": str(key_update["message"]["message_id"])}.items() <= {
        k: str(v) for k, v in deleted[0].items()
    }.items()
    assert not Message.objects.filter(content__contains="CANARY").exists()
    assert KEY not in Reporter.objects.values_list("anthropic_key_encrypted", flat=True)[0]
    assert fake_llm.requests == []


def test_a_key_in_the_wrong_format_is_refused_and_still_deleted(fake_telegram: FakeTelegram) -> None:
    send("/start")
    send("사회부")
    send("서부지검")
    send("my key is 1234")

    assert "sk-" in last_text(fake_telegram)
    assert len(fake_telegram.calls_for("deleteMessage")) == 1
    assert Reporter.objects.get(telegram_id=CHAT).registration_step == "api_key"


def test_an_unregistered_user_gets_the_registration_prompt_for_anything_else(
    fake_telegram: FakeTelegram,
) -> None:
    send("/check")
    send("기사 써줘")

    assert fake_telegram.sent_texts(CHAT) == [fake_telegram.sent_texts(CHAT)[0]] * 2
    assert "/start" in last_text(fake_telegram)
    assert not Reporter.objects.exists() and not Run.objects.exists()


def test_commands_during_registration_ask_to_finish_it_and_cancel_stops_it(
    fake_telegram: FakeTelegram,
) -> None:
    send("/start")
    send("/check")
    assert "등록을 먼저 마쳐" in last_text(fake_telegram)
    send("/cancel")
    assert "취소했습니다" in last_text(fake_telegram)


def test_help_and_status(registered: Reporter, fake_telegram: FakeTelegram) -> None:
    send("/help")
    assert "/check" in last_text(fake_telegram) and "/schedule" in last_text(fake_telegram)
    send("/status")
    status = last_text(fake_telegram)
    assert "사회부" in status and "서부지검" in status and "…1111" in status and "sk-ant" not in status


def test_set_keyword_inline_and_by_question(registered: Reporter, fake_telegram: FakeTelegram) -> None:
    send("/set_keyword 영등포경찰서, 서부지법")
    registered.refresh_from_db()
    assert registered.keywords == ["영등포경찰서", "서부지법"]

    send("/set_keyword")
    assert "새 키워드" in last_text(fake_telegram)
    send("마포경찰서")
    registered.refresh_from_db()
    assert registered.keywords == ["마포경찰서"] and registered.registration_step == ""


def test_set_division_refuses_an_unknown_department(
    registered: Reporter, fake_telegram: FakeTelegram
) -> None:
    send("/set_division 연예부")
    assert "알아듣지 못했습니다" in last_text(fake_telegram)
    send("/set_division 정치")
    registered.refresh_from_db()
    assert registered.department == "정치부" and "정치부로 바꿨습니다" in last_text(fake_telegram)


def test_set_apikey_deletes_the_message_and_logs_a_placeholder(
    registered: Reporter, fake_telegram: FakeTelegram
) -> None:
    send(f"/set_apikey {KEY}")

    registered.refresh_from_db()
    assert registered.anthropic_key() == KEY and "…9876" in last_text(fake_telegram)
    assert len(fake_telegram.calls_for("deleteMessage")) == 1
    assert not Message.objects.filter(content__contains="CANARY").exists()


def test_check_queues_a_run_and_a_status_message_and_a_second_request_is_told_to_wait(
    registered: Reporter, fake_telegram: FakeTelegram
) -> None:
    send("/check")
    run = Run.objects.get(kind="check")
    assert run.channel == "telegram"
    delivery = TelegramDelivery.objects.get(run=run)
    assert delivery.status_message_id and "타사 체크" in last_text(fake_telegram)

    send("/report")
    assert "처리 중" in last_text(fake_telegram)
    assert Run.objects.count() == 1


def test_schedule_adds_daily_times_and_off_clears_them(
    registered: Reporter, fake_telegram: FakeTelegram
) -> None:
    send("/schedule check 09:00 13:30")
    assert PeriodicTask.objects.filter(enabled=True).count() == 2
    send("/schedule off")
    assert PeriodicTask.objects.filter(enabled=True).count() == 0


def test_stats_answers_admins_only(registered: Reporter, fake_telegram: FakeTelegram, settings) -> None:
    send("/stats")
    assert fake_telegram.sent_texts(CHAT) == []
    settings.NEWSDESK_ADMIN_TELEGRAM_IDS = [CHAT]
    send("/stats")
    assert "전체 사용자 1명" in last_text(fake_telegram)


@pytest.mark.parametrize(
    ("name", "mime", "size", "expected"),
    [
        ("보도자료.pdf", "application/pdf", 1_200_000, "파일을 받았습니다"),
        ("큰파일.pdf", "application/pdf", 5 * 1024 * 1024, "3MB"),
        ("보도자료.hwp", "application/x-hwp", 50_000, "PDF로 저장해 올려주세요"),
        ("사진.gif", "image/gif", 50_000, "지원하지 않는 파일 형식"),
        ("IMG_0412.HEIC", "image/heic", 1_800_000, "파일을 받았습니다"),
    ],
)
def test_a_file_without_caption_gets_checked_from_its_metadata_and_a_hint(
    registered: Reporter,
    fake_telegram: FakeTelegram,
    fake_llm: FakeAnthropic,
    name: str,
    mime: str,
    size: int,
    expected: str,
) -> None:
    send_file(name, mime, size)

    assert expected in last_text(fake_telegram)
    assert fake_llm.requests == [] and not fake_telegram.calls_for("getFile")
    logged = Message.objects.get(role="user")
    assert logged.attachment_meta["file_name"] == name and logged.message_type == "document"


def test_every_incoming_message_and_reply_is_logged(
    registered: Reporter, fake_telegram: FakeTelegram
) -> None:
    send("/help")

    roles = list(Message.objects.order_by("id").values_list("role", "message_type"))
    assert roles == [("user", "command"), ("assistant", "text")]


def test_the_update_that_carried_a_key_keeps_only_its_id_once_processed(
    registered: Reporter, fake_telegram: FakeTelegram
) -> None:
    from newsdesk.models import TelegramUpdate

    update = send(f"/set_apikey {KEY}")

    stored = TelegramUpdate.objects.get(update_id=update["update_id"])
    assert stored.processed_at is not None and stored.payload == {}
    assert not TelegramUpdate.objects.filter(payload__icontains="CANARY").exists()


def test_old_updates_are_purged_hourly_and_the_purge_is_idempotent(
    registered: Reporter, fake_telegram: FakeTelegram
) -> None:
    from datetime import timedelta

    from django.utils import timezone

    from newsdesk.models import TelegramUpdate
    from newsdesk.telegram.tasks import purge_updates

    send("/help")
    TelegramUpdate.objects.update(received_at=timezone.now() - timedelta(days=3, seconds=1))
    send("/help")

    assert purge_updates() == 1 and purge_updates() == 0
    assert TelegramUpdate.objects.count() == 1


def test_stats_shows_the_last_check_in_kst_and_the_schedule_counts(
    registered: Reporter, fake_telegram: FakeTelegram, settings
) -> None:
    from datetime import UTC, datetime

    settings.NEWSDESK_ADMIN_TELEGRAM_IDS = [CHAT]
    Reporter.objects.filter(pk=registered.pk).update(last_check_at=datetime(2026, 3, 2, 0, 30, tzinfo=UTC))
    send("/schedule check 09:00 13:30")
    send("/schedule report 08:00")

    send("/stats")

    text = last_text(fake_telegram)
    assert "최근 check: 2026-03-02 09:30" in text  # 00:30 UTC is 09:30 in Seoul
    assert "[스케줄] 1명 등록\ncheck 2건 / report 1건" in text
    assert "| 스케줄 3건 |" in text

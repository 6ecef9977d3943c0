"""The outbound Telegram client, for real (python-telegram-bot over HTTP) against the fake Bot API."""

from __future__ import annotations

import html
import json
import pickle
import random
from typing import Any

import pytest

from newsdesk.telegram import client
from newsdesk.telegram.client import MAX_MESSAGE, TelegramError, split_text
from tests.fakes.telegram import FakeTelegram, text_update

CHAT = 424242


@pytest.fixture
def fake(fake_telegram: FakeTelegram) -> FakeTelegram:
    return fake_telegram


def escaped_size(chunk: str) -> int:
    return len(html.escape(chunk, quote=False))


def paragraphs(count: int, length: int) -> list[str]:
    words = "기자는 보도자료를 받아 사실을 확인한 뒤 기사를 씁니다."
    return [f"{n}번째 문단. " + (words * length)[:length] for n in range(count)]


# --- splitting -----------------------------------------------------------------------------------
def test_long_text_is_split_on_paragraph_boundaries_and_arrives_in_order(fake: FakeTelegram) -> None:
    parts = paragraphs(12, 1500)
    text = "\n\n".join(parts)

    ids = client.send_text(chat_id=CHAT, text=text)

    sent = fake.sent_texts(CHAT)
    assert len(sent) == len(ids) > 1
    assert ids == sorted(ids)
    assert "\n\n".join(sent) == text  # nothing lost, nothing reordered, cut only between paragraphs
    for chunk in sent:
        assert all(paragraph in parts for paragraph in chunk.split("\n\n"))
        assert len(chunk) <= MAX_MESSAGE


def test_escaped_chunks_stay_within_the_limit_for_text_full_of_markup(fake: FakeTelegram) -> None:
    text = "\n\n".join(("<a href='x'>&amp;</a> " * 300) + ("&<>" * 400) for _ in range(4))

    chunks = split_text(text)
    client.send_text(chat_id=CHAT, text=text)

    assert chunks and all(chunk.strip() for chunk in chunks)
    assert max(escaped_size(chunk) for chunk in chunks) <= MAX_MESSAGE
    assert "".join(chunks).replace(" ", "").replace("\n", "") == text.replace(" ", "").replace("\n", "")
    assert fake.sent_texts(CHAT) == chunks  # Telegram (the fake) accepted every chunk as sent


def test_splitting_falls_back_to_lines_then_sentences_then_a_hard_cut() -> None:
    assert split_text("첫 줄입니다\n둘째 줄입니다", limit=10) == ["첫 줄입니다", "둘째 줄입니다"]
    assert split_text("첫 문장이다. 둘째 문장이다! 셋째?", limit=16) == [
        "첫 문장이다. 둘째 문장이다!",
        "셋째?",
    ]
    assert split_text("따옴표로 끝난다.” 다음 문장", limit=12) == ["따옴표로 끝난다.”", "다음 문장"]
    assert split_text("가" * 25, limit=10) == ["가" * 10, "가" * 10, "가" * 5]
    assert split_text("&&&", limit=10) == ["&&", "&"]  # "&amp;" is 5 units


def test_splitting_random_text_never_loses_reorders_or_overflows() -> None:
    rng = random.Random(5)
    alphabet = ["가", "나", "a", "&", "<", ">", " ", " ", "\n", "\n\n", ".", "!", "😀"]
    for _ in range(300):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 400)))
        limit = rng.randint(5, 80)
        chunks = split_text(text, limit=limit)
        assert all(chunk and chunk == chunk.strip() for chunk in chunks)
        assert all(len(html.escape(c, quote=False).encode("utf-16-le")) // 2 <= limit for c in chunks)
        assert "".join(chunks).replace(" ", "").replace("\n", "") == (text.replace(" ", "").replace("\n", ""))


def test_blank_text_sends_nothing(fake: FakeTelegram) -> None:
    assert split_text(" \n\n \t") == []
    assert client.send_text(chat_id=CHAT, text="  \n ") == []
    assert fake.calls == []


# --- HTML mode ------------------------------------------------------------------------------------
def test_plain_text_is_escaped_so_markup_arrives_as_text(fake: FakeTelegram) -> None:
    text = '<script>alert(1)</script> & <b>굵게</b> "따옴표"'

    client.send_text(chat_id=CHAT, text=text)

    assert fake.sent_texts(CHAT) == [text]
    (call,) = fake.calls_for("sendMessage")
    assert call.params["parse_mode"] == "HTML"
    assert call.params["link_preview_options"] == {"is_disabled": True}
    assert "&lt;script&gt;" in call.params["text"]


def test_prebuilt_html_is_sent_as_markup(fake: FakeTelegram) -> None:
    message_id = client.send_html(
        chat_id=CHAT, html="<b>제목</b>\n본문 &amp; 끝 <a href='https://x.kr'>링크</a>"
    )

    (message,) = fake.messages(CHAT)
    assert message.message_id == message_id
    assert message.text == "제목\n본문 & 끝 링크"


# --- refusals ------------------------------------------------------------------------------------
def test_a_reporter_who_blocked_the_bot_gets_a_permanent_error_without_retry(fake: FakeTelegram) -> None:
    fake.fail("sendMessage", status=403, description="Forbidden: bot was blocked by the user")

    with pytest.raises(TelegramError) as caught:
        client.send_text(chat_id=CHAT, text="안녕하세요")

    assert caught.value.permanent is True
    assert caught.value.retry_after is None
    assert "blocked" in caught.value.description
    assert len(fake.calls_for("sendMessage")) == 1


@pytest.mark.parametrize(
    ("script", "words"),
    [
        (lambda fake: fake.unknown_chat(CHAT), "chat not found"),
        (lambda fake: fake.block(CHAT), "blocked"),
        (
            lambda fake: fake.fail("sendMessage", status=403, description="Forbidden: user is deactivated"),
            "deactivated",
        ),
    ],
)
def test_chats_that_cannot_be_reached_are_permanent_errors(
    fake: FakeTelegram, script: Any, words: str
) -> None:
    script(fake)

    with pytest.raises(TelegramError) as caught:
        client.send_html(chat_id=CHAT, html="안녕하세요")

    assert caught.value.permanent is True and words in caught.value.description.lower()
    assert len(fake.calls_for("sendMessage")) == 1


def test_a_server_error_is_transient(fake: FakeTelegram) -> None:
    fake.fail("sendMessage", status=502)

    with pytest.raises(TelegramError) as caught:
        client.send_text(chat_id=CHAT, text="안녕하세요")

    assert caught.value.permanent is False and caught.value.uncertain is False


def test_a_failure_midway_reports_the_chunks_already_delivered(fake: FakeTelegram) -> None:
    text = "\n\n".join(paragraphs(3, 3000))
    fake.fail("sendMessage", status=500, after=1)

    with pytest.raises(TelegramError) as caught:
        client.send_text(chat_id=CHAT, text=text)

    assert caught.value.permanent is False
    assert list(caught.value.sent) == [message.message_id for message in fake.messages(CHAT)]
    assert len(caught.value.sent) == 1


# --- editing and deleting -------------------------------------------------------------------------
def test_editing_replaces_the_text_and_an_unchanged_edit_is_not_an_error(fake: FakeTelegram) -> None:
    (message_id,) = client.send_text(chat_id=CHAT, text="초안 작성 중…")

    client.edit_text(chat_id=CHAT, message_id=message_id, text="사실 확인 중… <3건>")
    client.edit_text(chat_id=CHAT, message_id=message_id, text="사실 확인 중… <3건>")

    assert fake.visible_texts(CHAT) == ["사실 확인 중… <3건>"]
    assert [call.status for call in fake.calls_for("editMessageText")] == [200, 400]


def test_editing_a_missing_message_is_a_permanent_error(fake: FakeTelegram) -> None:
    with pytest.raises(TelegramError) as caught:
        client.edit_text(chat_id=CHAT, message_id=999, text="없음")

    assert caught.value.permanent is True and "not found" in caught.value.description


def test_delete_returns_false_when_telegram_refuses(fake: FakeTelegram) -> None:
    (message_id,) = client.send_text(chat_id=CHAT, text="sk-ant-키가 담긴 메시지")

    assert client.delete_message(chat_id=CHAT, message_id=message_id) is True
    assert client.delete_message(chat_id=CHAT, message_id=message_id) is False
    fake.fail("deleteMessage", status=400, description="Bad Request: message can't be deleted for everyone")
    assert client.delete_message(chat_id=CHAT, message_id=12345) is False
    assert fake.visible_texts(CHAT) == []


# --- files ----------------------------------------------------------------------------------------
def test_a_registered_file_is_downloaded(fake: FakeTelegram) -> None:
    fake.add_file("DOC1", b"%PDF-1.7 press release", file_name="release.pdf")

    assert client.download_file(file_id="DOC1", max_bytes=3 * 1024 * 1024) == b"%PDF-1.7 press release"
    assert [call.method for call in fake.calls] == ["getFile", "download"]


def test_an_oversized_file_is_refused_before_download(fake: FakeTelegram) -> None:
    fake.add_file("BIG", b"x" * 5000, file_name="big.pdf")

    with pytest.raises(TelegramError) as caught:
        client.download_file(file_id="BIG", max_bytes=4096)

    assert caught.value.permanent is True and "too big" in caught.value.description
    assert fake.calls_for("download") == []


def test_a_file_of_unreported_size_is_still_capped(fake: FakeTelegram) -> None:
    fake.add_file("BIG", b"x" * 5000, file_name="big.pdf", report_size=False)

    with pytest.raises(TelegramError) as caught:
        client.download_file(file_id="BIG", max_bytes=4096)

    assert caught.value.permanent is True and "too big" in caught.value.description


def test_an_invalid_file_id_is_a_permanent_error(fake: FakeTelegram) -> None:
    with pytest.raises(TelegramError) as caught:
        client.download_file(file_id="expired-id", max_bytes=1024)

    assert caught.value.permanent is True and "invalid file_id" in caught.value.description.lower()
    assert fake.calls_for("download") == []


def test_an_expired_download_link_is_a_permanent_error(fake: FakeTelegram) -> None:
    fake.add_file("DOC1", b"data", file_name="a.txt")
    fake.fail("download", status=404)

    with pytest.raises(TelegramError) as caught:
        client.download_file(file_id="DOC1", max_bytes=1024)

    assert caught.value.permanent is True and "expired" in caught.value.description


# --- errors --------------------------------------------------------------------------------------
def test_errors_survive_pickling_for_celery() -> None:
    error = TelegramError("Too Many Requests: retry after 60", permanent=False, retry_after=60.0, sent=(1, 2))

    copy = pickle.loads(pickle.dumps(error))  # noqa: S301  (our own bytes)

    assert (copy.description, copy.permanent, copy.retry_after, copy.sent) == (
        "Too Many Requests: retry after 60",
        False,
        60.0,
        (1, 2),
    )


# --- polling and webhook registration -------------------------------------------------------------
def test_get_updates_returns_plain_update_dicts_and_confirms_with_offset(fake: FakeTelegram) -> None:
    pushed = text_update(chat_id=CHAT, text="/start")
    fake.push_update(pushed)

    first = client.get_updates(offset=None, timeout=0)
    again = client.get_updates(offset=pushed["update_id"] + 1, timeout=0)

    (update,) = first
    assert json.loads(json.dumps(update)) == update  # plain JSON types, like a webhook body
    assert update["update_id"] == pushed["update_id"]
    for key in ("message_id", "date", "chat", "from", "text", "entities"):
        assert update["message"][key] == pushed["message"][key]
    assert again == []


def test_webhook_registration_and_removal_reach_telegram(fake: FakeTelegram) -> None:
    client.set_webhook(
        url="https://newsdesk.example.org/telegram/webhook/", secret="s3cret_-", allowed_updates=["message"]
    )
    assert fake.webhook == {
        "url": "https://newsdesk.example.org/telegram/webhook/",
        "secret_token": "s3cret_-",
        "allowed_updates": ["message"],
    }

    client.delete_webhook()
    assert fake.webhook == {}


def test_windows_line_endings_split_like_unix_ones() -> None:
    assert split_text("첫 문단입니다\r\n\r\n둘째 문단입니다", limit=12) == [
        "첫 문단입니다",
        "둘째 문단입니다",
    ]
    assert split_text("첫 줄입니다\r\n둘째 줄입니다", limit=10) == ["첫 줄입니다", "둘째 줄입니다"]

"""How a Bot API call runs (newsdesk.telegram.session), through the real client against the fake Bot
API: no getMe per call, flood control waited out or handed back, no resend after a lost answer, the
token kept out of every error and log line, and calls from any thread or event loop."""

from __future__ import annotations

import asyncio
import logging
import socket
import time
import traceback
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

from newsdesk.telegram import client, session
from newsdesk.telegram.client import TelegramError
from tests.fakes.telegram import FakeTelegram

CHAT = 424242


@pytest.fixture
def fake(fake_telegram: FakeTelegram) -> FakeTelegram:
    return fake_telegram


@pytest.fixture
def waits(monkeypatch: pytest.MonkeyPatch) -> list[float]:
    """Records flood-control waits instead of sleeping through them."""
    recorded: list[float] = []

    async def no_sleep(seconds: float) -> None:
        recorded.append(seconds)

    monkeypatch.setattr(session, "_sleep", no_sleep)
    return recorded


def test_no_getme_round_trip_is_made_per_call(fake: FakeTelegram) -> None:
    client.send_text(chat_id=CHAT, text="하나")
    client.send_html(chat_id=CHAT, html="둘")

    assert [call.method for call in fake.calls] == ["sendMessage", "sendMessage"]


def test_a_429_is_waited_out_and_the_message_arrives_exactly_once(fake: FakeTelegram) -> None:
    fake.fail("sendMessage", status=429, retry_after=1)
    started = time.monotonic()

    ids = client.send_text(chat_id=CHAT, text="속보입니다")

    assert time.monotonic() - started >= 1.0
    calls = fake.calls_for("sendMessage")
    assert [call.status for call in calls] == [429, 200]
    assert calls[1].at - calls[0].at >= 1.0
    assert [call.params["text"] for call in calls if call.ok] == ["속보입니다"]
    assert fake.sent_texts(CHAT) == ["속보입니다"]
    assert ids == [fake.messages(CHAT)[0].message_id]


def test_a_long_retry_after_goes_back_to_the_caller_and_nothing_is_sent(fake: FakeTelegram) -> None:
    fake.fail("sendMessage", status=429, retry_after=60)
    started = time.monotonic()

    with pytest.raises(TelegramError) as caught:
        client.send_text(chat_id=CHAT, text="속보입니다")

    assert time.monotonic() - started < 1.0
    assert caught.value.permanent is False
    assert caught.value.retry_after == 60
    assert fake.sent_texts(CHAT) == []
    assert len(fake.calls_for("sendMessage")) == 1


def test_flood_control_is_retried_at_most_three_times(fake: FakeTelegram, waits: list[float]) -> None:
    fake.fail("sendMessage", status=429, retry_after=2, times=4)

    with pytest.raises(TelegramError) as caught:
        client.send_text(chat_id=CHAT, text="속보입니다")

    assert waits == [2, 2, 2]
    assert len(fake.calls_for("sendMessage")) == 4
    assert caught.value.permanent is False and caught.value.retry_after == 2
    assert fake.sent_texts(CHAT) == []


def test_a_lost_answer_is_not_resent(fake: FakeTelegram, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(session, "READ_TIMEOUT", 0.3)
    fake.stall("sendMessage", 1.0)  # Telegram takes the message, the answer comes too late

    with pytest.raises(TelegramError) as caught:
        client.send_text(chat_id=CHAT, text="한 번만")

    assert caught.value.permanent is False and caught.value.uncertain is True
    assert len(fake.calls_for("sendMessage")) == 1
    assert fake.sent_texts(CHAT) == ["한 번만"]


def test_a_missing_token_is_a_permanent_error(fake: FakeTelegram, settings: Any) -> None:
    settings.TELEGRAM_BOT_TOKEN = ""

    with pytest.raises(TelegramError) as caught:
        client.send_text(chat_id=CHAT, text="안녕")

    assert caught.value.permanent is True and "TELEGRAM_BOT_TOKEN" in caught.value.description
    assert fake.calls == []


def closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def everything_said(error: BaseException) -> str:
    return str(error) + repr(error) + "".join(traceback.format_exception(error))


def test_the_bot_token_never_appears_in_logs_or_errors(
    fake: FakeTelegram, settings: Any, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    secret_part = fake.token.split(":", 1)[1]
    said: list[str] = []

    def attempt(action: Any) -> None:
        try:
            action()
        except TelegramError as exc:
            said.append(everything_said(exc))

    attempt(lambda: client.send_text(chat_id=CHAT, text="정상 메시지"))
    fake.fail("sendMessage", status=403)
    attempt(lambda: client.send_text(chat_id=CHAT, text="차단"))
    fake.fail("sendMessage", status=429, retry_after=90)
    attempt(lambda: client.send_text(chat_id=CHAT, text="과다"))
    attempt(lambda: client.download_file(file_id="nope", max_bytes=10))
    fake.add_file("F", b"abc")
    fake.fail("download", status=500)
    attempt(lambda: client.download_file(file_id="F", max_bytes=10))
    settings.TELEGRAM_BOT_TOKEN = fake.token[:-3] + "zzz"  # rejected by Telegram: 401
    attempt(lambda: client.send_text(chat_id=CHAT, text="틀린 토큰"))
    settings.TELEGRAM_BOT_TOKEN = fake.token
    settings.TELEGRAM_API_BASE_URL = f"http://127.0.0.1:{closed_port()}/bot"
    attempt(lambda: client.send_text(chat_id=CHAT, text="닫힌 포트"))
    settings.TELEGRAM_API_BASE_URL = "http://[::1"  # an unparseable URL: httpx complains about it
    attempt(lambda: client.send_text(chat_id=CHAT, text="잘못된 주소"))

    assert len(said) == 7
    logged = [record.getMessage() for record in caplog.records] + [caplog.text]
    for text in said + logged:
        assert secret_part not in text
    assert logging.getLogger("httpx").getEffectiveLevel() >= logging.WARNING
    assert logging.getLogger("telegram").getEffectiveLevel() >= logging.WARNING


def test_a_connection_error_is_transient_and_certainly_unsent(fake: FakeTelegram, settings: Any) -> None:
    settings.TELEGRAM_API_BASE_URL = f"http://127.0.0.1:{closed_port()}/bot"

    with pytest.raises(TelegramError) as caught:
        client.send_text(chat_id=CHAT, text="안녕")

    assert caught.value.permanent is False and caught.value.uncertain is False
    assert fake.token not in everything_said(caught.value)


def test_sends_from_many_threads_and_from_inside_an_event_loop_all_arrive_once(fake: FakeTelegram) -> None:
    def send(n: int) -> list[int]:
        return client.send_text(chat_id=1000 + n % 5, text=f"메시지 {n}")

    with ThreadPoolExecutor(max_workers=8) as pool:
        list(pool.map(send, range(40)))

    async def from_async_code() -> list[int]:
        return client.send_text(chat_id=2000, text="비동기 코드에서")

    assert asyncio.run(from_async_code()) == [1]
    for chat in range(1000, 1005):
        assert sorted(fake.sent_texts(chat)) == sorted(
            f"메시지 {n}" for n in range(40) if 1000 + n % 5 == chat
        )
    assert len(fake.calls_for("sendMessage")) == 41

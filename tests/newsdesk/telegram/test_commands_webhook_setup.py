"""`manage.py set_telegram_webhook URL` and `manage.py telegram_poll`, against the fake Bot API."""

from __future__ import annotations

from collections.abc import Iterator
from io import StringIO
from typing import Any

import pytest
from django.core.management import CommandError, call_command

from newsdesk.management.commands import telegram_poll
from tests.fakes.telegram import FakeTelegram, text_update

URL = "https://newsdesk.example.org/telegram/webhook/"
SECRET = "Webhook_Secret-0123456789"


@pytest.fixture
def fake(settings: Any) -> Iterator[FakeTelegram]:
    telegram = FakeTelegram()
    settings.TELEGRAM_BOT_TOKEN = telegram.token
    settings.TELEGRAM_API_BASE_URL = telegram.base_url
    settings.TELEGRAM_FILE_BASE_URL = telegram.file_base_url
    settings.TELEGRAM_WEBHOOK_SECRET = SECRET
    try:
        yield telegram
    finally:
        telegram.close()


def run(*args: str) -> tuple[str, str]:
    out, err = StringIO(), StringIO()
    call_command(*args, stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


# --- set_telegram_webhook -------------------------------------------------------------------------
def test_the_webhook_is_registered_with_the_secret_the_update_kinds_and_the_menu(fake: FakeTelegram) -> None:
    out, err = run("set_telegram_webhook", URL)

    assert fake.webhook == {
        "url": URL,
        "secret_token": SECRET,
        "allowed_updates": ["message", "callback_query"],
    }
    menu = [entry["command"] for entry in fake.commands]
    assert menu[:3] == ["check", "report", "status"] and "set_division" in menu
    assert all(any("가" <= ch <= "힣" for ch in entry["description"]) for entry in fake.commands)
    assert URL in out and err == ""
    assert SECRET not in out + err
    assert fake.token not in out + err and fake.token.split(":")[1] not in out + err


@pytest.mark.parametrize(
    ("secret", "reason"),
    [
        ("", "not set"),
        ("has space", "A-Z a-z 0-9 _ -"),
        ("비밀", "A-Z a-z 0-9 _ -"),
        ("x" * 257, "1-256"),
    ],
)
def test_a_missing_or_malformed_secret_is_refused(
    fake: FakeTelegram, settings: Any, secret: str, reason: str
) -> None:
    settings.TELEGRAM_WEBHOOK_SECRET = secret

    with pytest.raises(CommandError, match=reason) as caught:
        run("set_telegram_webhook", URL)

    assert fake.calls == []
    assert not secret or secret not in str(caught.value)


def test_a_secret_of_256_allowed_characters_is_accepted(fake: FakeTelegram, settings: Any) -> None:
    settings.TELEGRAM_WEBHOOK_SECRET = "aZ09_-" * 42 + "abcd"

    run("set_telegram_webhook", URL)

    assert fake.webhook["secret_token"] == settings.TELEGRAM_WEBHOOK_SECRET


@pytest.mark.parametrize(
    "url", ["http://newsdesk.example.org/telegram/webhook/", "ftp://x/", "/telegram/webhook/"]
)
def test_a_url_that_is_not_https_is_refused(fake: FakeTelegram, url: str) -> None:
    with pytest.raises(CommandError, match="https"):
        run("set_telegram_webhook", url)

    assert fake.calls == []


def test_http_is_accepted_for_local_tests_when_asked(fake: FakeTelegram) -> None:
    fake.require_https = False  # a local Bot API server or a fake accepts http

    run("set_telegram_webhook", "http://127.0.0.1:8000/telegram/webhook/", "--allow-http")

    assert fake.webhook["url"] == "http://127.0.0.1:8000/telegram/webhook/"


def test_telegrams_refusal_is_reported_without_the_token(fake: FakeTelegram) -> None:
    fake.fail("setWebhook", status=400, description="Bad Request: bad webhook: Failed to resolve host")

    with pytest.raises(CommandError, match=r"(?i)failed to resolve host") as caught:
        run("set_telegram_webhook", URL)

    assert fake.token.split(":")[1] not in str(caught.value)


def test_a_url_outside_the_webhook_path_gets_a_warning(fake: FakeTelegram) -> None:
    _out, err = run("set_telegram_webhook", "https://newsdesk.example.org/hook")

    assert "/telegram/webhook/" in err
    assert fake.webhook["url"] == "https://newsdesk.example.org/hook"


# --- telegram_poll --------------------------------------------------------------------------------
@pytest.fixture
def handled(monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    """Replaces the webhook's receive_update with a recorder (dedup by update_id, like the real one)."""
    received: list[dict[str, Any]] = []

    def receive_update(payload: dict[str, Any]) -> str:
        duplicate = any(seen["update_id"] == payload["update_id"] for seen in received)
        received.append(payload)
        return "duplicate" if duplicate else "stored"

    monkeypatch.setattr(telegram_poll, "load_handler", lambda: receive_update)
    return received


def test_polling_once_deletes_the_webhook_and_feeds_every_update_to_the_handler(
    fake: FakeTelegram, handled: list[dict[str, Any]]
) -> None:
    fake.webhook = {"url": URL}  # getUpdates is refused while a webhook is set
    first = fake.push_update(text_update(chat_id=7, text="/start"))
    second = fake.push_update(text_update(chat_id=7, text="이 보도자료로 기사 써줘"))

    out, err = run("telegram_poll", "--once", "--timeout", "0")

    assert fake.webhook == {}
    assert [update["update_id"] for update in handled] == [first, second]
    assert [update["message"]["text"] for update in handled] == ["/start", "이 보도자료로 기사 써줘"]
    assert f"update {first}: stored" in out and "2 stored" in out
    # The first round asks from the start; on the way out everything handled is confirmed.
    assert [call.params.get("offset") for call in fake.calls_for("getUpdates")] == [None, second + 1]
    assert fake.calls[0].method == "deleteWebhook"
    assert err == ""


def test_a_failing_update_is_not_confirmed_so_it_comes_again(
    fake: FakeTelegram, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = fake.push_update(text_update(chat_id=7, text="하나"))
    fake.push_update(text_update(chat_id=7, text="둘"))

    def receive_update(payload: dict[str, Any]) -> str:
        if payload["message"]["text"] == "둘":
            raise RuntimeError("database is locked")
        return "stored"

    monkeypatch.setattr(telegram_poll, "load_handler", lambda: receive_update)
    monkeypatch.setattr(telegram_poll.time, "sleep", lambda seconds: None)

    _out, err = run("telegram_poll", "--once", "--timeout", "0")

    assert "database is locked" in err
    assert fake.calls_for("getUpdates")[-1].params["offset"] == first + 1
    assert [update["message"]["text"] for update in client_updates()] == ["둘"]


def client_updates() -> list[dict[str, Any]]:
    from newsdesk.telegram import client

    return client.get_updates(offset=None, timeout=0)


def test_ctrl_c_stops_polling_cleanly_and_confirms_what_was_handled(
    fake: FakeTelegram, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = fake.push_update(text_update(chat_id=7, text="하나"))
    fake.push_update(text_update(chat_id=7, text="둘"))

    def receive_update(payload: dict[str, Any]) -> str:
        if payload["message"]["text"] == "둘":
            raise KeyboardInterrupt
        return "stored"

    monkeypatch.setattr(telegram_poll, "load_handler", lambda: receive_update)

    out, _ = run("telegram_poll", "--timeout", "0")  # no --once: only Ctrl-C ends it

    assert "Stopping." in out and "1 stored" in out
    assert fake.calls_for("getUpdates")[-1].params["offset"] == first + 1


def test_polling_stops_with_an_error_when_telegram_refuses(
    fake: FakeTelegram, handled: list[dict[str, Any]]
) -> None:
    fake.fail("getUpdates", status=409, description="Conflict: terminated by other getUpdates request")

    with pytest.raises(CommandError, match="terminated by other getUpdates"):
        run("telegram_poll", "--once", "--timeout", "0")

    assert handled == []


def test_the_default_handler_is_the_webhooks_receive_update() -> None:
    webhook = pytest.importorskip("newsdesk.telegram.webhook")

    assert telegram_poll.load_handler() is webhook.receive_update

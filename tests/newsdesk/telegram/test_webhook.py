"""POST /telegram/webhook/: secret-checked, stored once, enqueued on commit, answered at once."""

from __future__ import annotations

import json
import logging
import threading
from datetime import timedelta

import pytest
from django.db import connection
from django.test import Client
from django.utils import timezone

from agents.models import OutboxMessage
from newsdesk.models import TelegramUpdate
from newsdesk.telegram import spoofing
from tests.fakes.telegram import text_update

URL = "/telegram/webhook/"
HEADER = "HTTP_X_TELEGRAM_BOT_API_SECRET_TOKEN"


def post(client: Client, body: object, secret: str | None, raw: bytes | None = None):
    extra = {HEADER: secret} if secret is not None else {}
    data = raw if raw is not None else json.dumps(body)
    return client.post(URL, data=data, content_type="application/json", **extra)


@pytest.mark.django_db
@pytest.mark.parametrize(
    "given", [None, "", "wrong-secret", "test-webhook-secret_012", "test-webhook-secret_0123x"]
)
def test_it_rejects_a_spoofed_webhook_and_stores_nothing(client: Client, webhook_secret: str, given) -> None:
    response = post(client, text_update(chat_id=1, text="/help"), given)

    assert response.status_code == 403
    assert not TelegramUpdate.objects.exists()


@pytest.mark.django_db
def test_without_a_configured_secret_every_request_is_refused(client: Client, settings) -> None:
    settings.TELEGRAM_WEBHOOK_SECRET = ""

    assert post(client, text_update(chat_id=1, text="/help"), "").status_code == 403
    assert not TelegramUpdate.objects.exists()


@pytest.mark.django_db
@pytest.mark.parametrize(
    "raw", [b"{not json", b"[1, 2]", b'{"message": {}}', b'{"update_id": "7"}', b"\xff\xfe"]
)
def test_malformed_bodies_get_400_and_nothing_is_stored(
    client: Client, webhook_secret: str, raw: bytes
) -> None:
    assert post(client, None, webhook_secret, raw=raw).status_code == 400
    assert not TelegramUpdate.objects.exists()


@pytest.mark.django_db
def test_json_nested_1500_levels_deep_gets_400_not_500_and_nothing_is_stored(
    client: Client, webhook_secret: str
) -> None:
    raw = b'{"update_id": 7, "message": ' + b"[" * 1500 + b"]" * 1500 + b"}"

    assert post(client, None, webhook_secret, raw=raw).status_code == 400
    assert not TelegramUpdate.objects.exists()


@pytest.mark.django_db
def test_an_oversized_body_is_refused_before_it_is_read(client: Client, webhook_secret: str) -> None:
    update = text_update(chat_id=1, text="가" * 200_000)

    assert post(client, update, webhook_secret).status_code == 413
    assert not TelegramUpdate.objects.exists()


@pytest.mark.django_db
def test_an_update_is_stored_and_enqueued_once_committed(
    client: Client, webhook_secret: str, django_capture_on_commit_callbacks
) -> None:
    update = text_update(chat_id=5, text="/help")
    with django_capture_on_commit_callbacks() as callbacks:
        response = post(client, update, webhook_secret)

    assert response.status_code == 200
    assert TelegramUpdate.objects.get().update_id == update["update_id"]
    assert len(callbacks) == 1


@pytest.mark.django_db
def test_a_redelivered_update_is_answered_200_and_not_enqueued_again(
    client: Client, webhook_secret: str, django_capture_on_commit_callbacks
) -> None:
    update = text_update(chat_id=5, text="/help")
    with django_capture_on_commit_callbacks() as callbacks:
        first = post(client, update, webhook_secret)
        again = post(client, update, webhook_secret)

    assert first.json()["result"] == "stored" and again.json()["result"] == "duplicate"
    assert again.status_code == 200
    assert TelegramUpdate.objects.count() == 1 and len(callbacks) == 1


@pytest.mark.django_db
def test_kinds_we_do_not_handle_are_answered_and_dropped(client: Client, webhook_secret: str) -> None:
    edited = {"update_id": 99, "edited_message": {"message_id": 1, "text": "고침"}}

    response = post(client, edited, webhook_secret)

    assert response.status_code == 200 and response.json()["result"] == "ignored"
    assert not TelegramUpdate.objects.exists()


@pytest.mark.django_db(transaction=True)
def test_the_same_update_delivered_concurrently_is_stored_once(webhook_secret: str) -> None:
    update = text_update(chat_id=9, text="/help")
    results: list[str] = []

    def deliver() -> None:
        results.append(post(Client(), update, webhook_secret).json()["result"])
        connection.close()

    threads = [threading.Thread(target=deliver) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert sorted(results) == ["duplicate"] * 7 + ["stored"]
    assert TelegramUpdate.objects.count() == 1


@pytest.mark.django_db
def test_button_taps_come_through_the_same_secret_check(client: Client, webhook_secret: str) -> None:
    from tests.fakes.telegram import callback_update

    tap = callback_update(chat_id=1, message_id=3, data="div:경제부")

    assert post(client, tap, "wrong-secret").status_code == 403
    assert not TelegramUpdate.objects.exists()
    assert post(client, tap, webhook_secret).json() == {"ok": True, "result": "stored"}


@pytest.mark.django_db
def test_a_stored_update_whose_message_was_lost_is_queued_again_when_telegram_redelivers_it(
    client: Client, webhook_secret: str, django_capture_on_commit_callbacks, settings
) -> None:
    update = text_update(chat_id=5, text="/help")
    post(client, update, webhook_secret)
    OutboxMessage.objects.all().delete()  # its message reached the broker, and the broker lost it
    waited = timezone.now() - timedelta(seconds=settings.NEWSDESK_REQUEUE_AFTER_SECONDS + 1)
    TelegramUpdate.objects.update(received_at=waited)

    with django_capture_on_commit_callbacks() as callbacks:
        again = post(client, update, webhook_secret)

    assert again.json()["result"] == "duplicate" and len(callbacks) == 1
    stored = TelegramUpdate.objects.get()
    assert list(OutboxMessage.objects.values_list("task", "args")) == [
        ("newsdesk.telegram.tasks.handle_update", [stored.pk])
    ]


@pytest.mark.django_db
def test_a_redelivery_a_moment_after_the_first_adds_no_message_behind_the_one_on_its_way(
    client: Client, webhook_secret: str, django_capture_on_commit_callbacks
) -> None:
    update = text_update(chat_id=5, text="/help")
    post(client, update, webhook_secret)
    OutboxMessage.objects.all().delete()  # sent: in the broker, which the row cannot tell from lost

    with django_capture_on_commit_callbacks() as callbacks:
        again = post(client, update, webhook_secret)

    assert again.json()["result"] == "duplicate" and callbacks == []
    assert not OutboxMessage.objects.exists()  # the sweeper sends it again if it never arrives


@pytest.mark.django_db
def test_a_processed_update_is_never_queued_again(client: Client, webhook_secret: str) -> None:
    update = text_update(chat_id=5, text="/help")
    post(client, update, webhook_secret)
    OutboxMessage.objects.all().delete()
    TelegramUpdate.objects.update(processed_at=timezone.now())

    post(client, update, webhook_secret)

    assert not OutboxMessage.objects.exists()


@pytest.mark.django_db
def test_spoofed_requests_are_counted_with_one_log_line_not_one_each(
    client: Client, webhook_secret: str, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(spoofing, "refused", spoofing._Counter())
    with caplog.at_level(logging.INFO):
        for _ in range(50):
            assert post(client, text_update(chat_id=1, text="/help"), "wrong").status_code == 403

    assert spoofing.refused.total == 50
    assert len([r for r in caplog.records if r.levelno >= logging.WARNING]) == 1

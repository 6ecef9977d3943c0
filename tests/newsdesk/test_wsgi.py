"""The WSGI application: the webhook and every other path go through the full middleware stack."""

from __future__ import annotations

import io
import json
import logging
from typing import Any
from wsgiref.util import setup_testing_defaults

import pytest
from django.core.handlers.wsgi import WSGIHandler
from django.db import OperationalError

from newsdesk.models import TelegramUpdate
from tests.fakes.telegram import text_update

pytestmark = pytest.mark.django_db(transaction=True)  # the handler closes connections as in production
SECRET_HEADER = "HTTP_X_TELEGRAM_BOT_API_SECRET_TOKEN"


def call(
    path: str, *, method: str = "GET", body: bytes = b"", **headers: str
) -> tuple[int, dict[str, str], bytes]:
    environ: dict[str, Any] = {
        "PATH_INFO": path,
        "REQUEST_METHOD": method,
        "CONTENT_TYPE": "application/json",
        "CONTENT_LENGTH": str(len(body)),
        "wsgi.input": io.BytesIO(body),
        **headers,
    }
    setup_testing_defaults(environ)
    started: list[Any] = []
    chunks = WSGIHandler()(  # what get_wsgi_application() returns, without setting Django up again
        environ, lambda status, response_headers, *_: started.extend([status, response_headers])
    )
    content = b"".join(chunks)
    getattr(chunks, "close", lambda: None)()
    return int(started[0].split()[0]), dict(started[1]), content


def post_update(secret: str, update_id: int = 41) -> tuple[int, dict[str, str], bytes]:
    body = json.dumps({**text_update(chat_id=3, text="/help"), "update_id": update_id}).encode()
    return call("/telegram/webhook/", method="POST", body=body, **{SECRET_HEADER: secret})


def test_the_webhook_stores_an_update_and_answers_with_a_length(webhook_secret: str) -> None:
    status, headers, body = post_update(webhook_secret)

    assert (status, json.loads(body)) == (200, {"ok": True, "result": "stored"})
    assert TelegramUpdate.objects.get().update_id == 41
    assert headers["Content-Length"] == str(len(body))  # not chunked
    assert "Set-Cookie" not in headers  # no session, no CSRF cookie for a bot


def test_a_spoofed_update_is_refused(webhook_secret: str) -> None:
    assert post_update("wrong-secret")[0] == 403
    assert not TelegramUpdate.objects.exists()


def test_a_page_gets_the_browser_headers() -> None:
    status, headers, _ = call("/accounts/login/")

    assert status == 200
    assert "Content-Security-Policy" in headers and headers["X-Frame-Options"] == "DENY"
    assert "csrftoken" in headers.get("Set-Cookie", "")


def test_a_database_outage_on_the_webhook_answers_503_with_one_log_line(
    webhook_secret: str, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    from newsdesk import outage
    from newsdesk.telegram import queue

    def database_gone(**_: Any) -> bool:
        raise OperationalError("connection to server at 127.0.0.1 failed")

    monkeypatch.setattr(queue, "update_store", database_gone)
    monkeypatch.setattr(outage, "outage", outage._Outage())
    with caplog.at_level(logging.WARNING):
        answers = [post_update(webhook_secret, update_id=n) for n in (1, 2, 3)]

    assert {status for status, _, _ in answers} == {503}
    assert json.loads(answers[0][2])["detail"]  # the Korean message
    assert len([r for r in caplog.records if r.levelno >= logging.WARNING]) == 1

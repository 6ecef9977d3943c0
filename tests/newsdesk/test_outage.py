"""A database outage answers 503 with a Korean message and one log line, never a 500 traceback."""

from __future__ import annotations

import json
import logging

import pytest
from django.db import OperationalError
from django.test import Client

from agents import services
from newsdesk import outage
from newsdesk.services import token_issue
from tests.fixtures.press import PRESS_RELEASE

pytestmark = pytest.mark.django_db
BODY = json.dumps({"press_release": PRESS_RELEASE})


@pytest.fixture
def database_down(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(**_: object) -> None:
        raise OperationalError('connection to server at "127.0.0.1", port 5432 failed: Connection refused')

    monkeypatch.setattr(services, "draft_create", refuse)
    monkeypatch.setattr(outage, "outage", outage._Outage())


def test_the_api_answers_503_json_in_korean_and_logs_one_line_per_outage(
    reporter, database_down, caplog: pytest.LogCaptureFixture
) -> None:
    api = Client(HTTP_AUTHORIZATION=f"Bearer {token_issue(reporter=reporter)}", raise_request_exception=False)

    with caplog.at_level(logging.INFO):
        answers = [
            api.post(
                "/api/drafts",
                data=json.dumps({"press_release": PRESS_RELEASE}),
                content_type="application/json",
            )
            for _ in range(5)
        ]
        assert api.get("/api/drafts").status_code == 200  # the database answers reads again

    assert {a.status_code for a in answers} == {503}
    assert "데이터베이스" in answers[0].json()["detail"] and answers[0]["Retry-After"] == "30"
    lines = [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert [r.name for r in lines] == ["newsdesk.outage", "newsdesk.outage"], [r.getMessage() for r in lines]
    assert "answering 503" in lines[0].getMessage() and "5 request(s)" in lines[1].getMessage()
    assert all(r.exc_info is None for r in caplog.records)


def test_the_desk_answers_503_with_a_korean_page(reporter, database_down) -> None:
    desk = Client(raise_request_exception=False)
    desk.force_login(reporter.user)

    response = desk.post("/desk/", {"press_release": PRESS_RELEASE, "length_choice": "1000"})

    assert response.status_code == 503
    assert "잠시 후 다시 시도해 주세요" in response.content.decode()


def test_a_bug_still_answers_500(reporter, monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(**_: object) -> None:
        raise RuntimeError("a bug")

    monkeypatch.setattr(services, "draft_create", broken)
    api = Client(HTTP_AUTHORIZATION=f"Bearer {token_issue(reporter=reporter)}", raise_request_exception=False)

    response = api.post(
        "/api/drafts", data=json.dumps({"press_release": PRESS_RELEASE}), content_type="application/json"
    )

    assert response.status_code == 500

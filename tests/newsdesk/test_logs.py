"""A response we log ourselves is not logged again by Django; every other one still is."""

from __future__ import annotations

import logging

import pytest
from django.test import Client, RequestFactory

from newsdesk import logs

pytestmark = pytest.mark.django_db


def test_django_still_logs_an_ordinary_error_response(
    client: Client, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.WARNING, logger="django.request"):
        assert client.get("/no-such-page/").status_code == 404

    assert [r.getMessage() for r in caplog.records if r.name == "django.request"] == [
        "Not Found: /no-such-page/"
    ]


def test_the_line_of_a_request_marked_as_logged_elsewhere_is_dropped() -> None:
    marked, plain = RequestFactory().post("/telegram/webhook/"), RequestFactory().post("/telegram/webhook/")
    logs.mark_logged_elsewhere(marked)

    def record(request: object) -> logging.LogRecord:
        made = logging.LogRecord("django.request", logging.WARNING, __file__, 1, "Forbidden", None, None)
        made.request = request
        return made

    keep = logs.SkipLoggedElsewhere()
    assert not keep.filter(record(marked))
    assert keep.filter(record(plain)) and keep.filter(record(None))

"""The draft, monitor and shared pages long-poll: a poll waits for the run's next event and
answers with it at once, so a change is on screen as soon as it happens, not a polling interval
later."""

from __future__ import annotations

import threading
import time

import pytest
from django import db
from django.test import Client

from agents.models import Run
from agents.monitoring import services as monitoring
from agents.services import draft_create
from agents.work import runs
from newsdesk.desk import http as desk_http
from newsdesk.desk.sharing import share_path
from tests.fixtures.press import PRESS_RELEASE

pytestmark = pytest.mark.django_db(transaction=True)  # the event arrives on another connection


def later(seconds: float, action) -> threading.Thread:  # type: ignore[no-untyped-def]
    def run() -> None:
        time.sleep(seconds)
        try:
            action()
        finally:
            db.connections.close_all()

    thread = threading.Thread(target=run)
    thread.start()
    return thread


def test_a_poll_waits_for_the_next_stage_and_answers_with_it(desk: Client, reporter) -> None:
    run = draft_create(reporter=reporter, press_release=PRESS_RELEASE)
    Run.objects.filter(pk=run.pk).update(status=Run.Status.RUNNING)
    thread = later(0.5, lambda: runs.stage_set(run=Run.objects.get(pk=run.pk), stage="write"))

    response = desk.get(f"/desk/drafts/{run.pk}/status/?after=1", HTTP_HX_REQUEST="true")
    thread.join()

    html = response.content.decode()
    assert 'data-stage="write" aria-current="step"' in html
    assert "?after=2" in html  # the next poll waits for what comes after this stage


def test_a_poll_with_nothing_new_answers_after_its_wait_and_keeps_polling(
    desk: Client, reporter, monkeypatch
) -> None:
    monkeypatch.setattr(desk_http, "LONG_POLL_SECONDS", 0.3)
    run = draft_create(reporter=reporter, press_release=PRESS_RELEASE)

    response = desk.get(f"/desk/drafts/{run.pk}/status/?after=1", HTTP_HX_REQUEST="true")

    assert response.status_code == 200
    assert (
        "?after=1" in response.content.decode()
        and 'hx-trigger="load delay:100ms' in response.content.decode()
    )


def test_a_monitor_poll_waits_for_the_runs_next_event_and_answers_with_it(desk: Client, reporter) -> None:
    run = monitoring.check_request(reporter=reporter, channel="web")
    Run.objects.filter(pk=run.pk).update(status=Run.Status.RUNNING)
    thread = later(0.5, lambda: runs.stage_set(run=Run.objects.get(pk=run.pk), stage="filter"))

    started = time.monotonic()
    response = desk.get(f"/desk/monitor/runs/{run.pk}/status/?after=1", HTTP_HX_REQUEST="true")
    waited = time.monotonic() - started
    thread.join()

    html = response.content.decode()
    assert waited >= 0.4  # it waited for the event instead of answering with nothing new
    assert 'data-stage="filter"' in html and "stage-current" in html
    assert "?after=2" in html


def test_a_monitor_poll_for_an_ended_run_answers_at_once_and_stops_polling(desk: Client, reporter) -> None:
    run = monitoring.check_request(reporter=reporter, channel="web")
    runs.run_fail(run=run, message="실패")

    started = time.monotonic()
    response = desk.get(f"/desk/monitor/runs/{run.pk}/status/?after=1", HTTP_HX_REQUEST="true")

    assert time.monotonic() - started < 1
    assert "hx-trigger" not in response.content.decode()


def test_a_shared_poll_waits_for_the_next_stage_and_answers_with_it(client: Client, reporter) -> None:
    run = draft_create(reporter=reporter, press_release=PRESS_RELEASE)
    Run.objects.filter(pk=run.pk).update(status=Run.Status.RUNNING)
    thread = later(0.5, lambda: runs.stage_set(run=Run.objects.get(pk=run.pk), stage="write"))

    response = client.get(share_path(run) + "status/?after=1", HTTP_HX_REQUEST="true")
    thread.join()

    html = response.content.decode()
    assert 'data-stage="write" aria-current="step"' in html
    assert "status/?after=2" in html


def test_a_shared_poll_with_nothing_new_answers_after_its_wait_and_keeps_polling(
    client: Client, reporter, monkeypatch
) -> None:
    monkeypatch.setattr(desk_http, "LONG_POLL_SECONDS", 0.3)
    run = draft_create(reporter=reporter, press_release=PRESS_RELEASE)

    response = client.get(share_path(run) + "status/?after=1", HTTP_HX_REQUEST="true")

    assert response.status_code == 200
    html = response.content.decode()
    assert "status/?after=1" in html and 'hx-trigger="load delay:100ms' in html

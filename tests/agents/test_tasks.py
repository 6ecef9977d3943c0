"""Task robustness: ownership of a run, lost deliveries, the stalled-run sweeper and retention."""

from __future__ import annotations

from datetime import timedelta

import pytest
import time_machine
from django.utils import timezone

from agents import tasks
from agents.models import Run, Upload
from agents.models.runs import run_claim
from agents.retention import purge_all
from agents.services import draft_create
from tests.agents.drafting import submit, verify_pass
from tests.fakes.anthropic import FakeAnthropic
from tests.fixtures.press import PRESS_RELEASE

pytestmark = pytest.mark.django_db
STALE = timedelta(minutes=6)


def test_a_queued_run_is_claimed_once(reporter) -> None:
    run = draft_create(reporter=reporter, press_release=PRESS_RELEASE)

    assert run_claim(run_id=run.pk, task_id="a", stale_after=STALE)
    assert not run_claim(run_id=run.pk, task_id="b", stale_after=STALE)  # a duplicate message
    assert run_claim(run_id=run.pk, task_id="a", stale_after=STALE)  # the same message redelivered
    run.refresh_from_db()
    assert run.attempts == 2 and run.status == Run.Status.RUNNING


def test_an_abandoned_run_can_be_taken_over_after_the_time_limit(reporter) -> None:
    run = draft_create(reporter=reporter, press_release=PRESS_RELEASE)
    run_claim(run_id=run.pk, task_id="a", stale_after=STALE)

    with time_machine.travel(timezone.now() + STALE + timedelta(seconds=1)):
        assert run_claim(run_id=run.pk, task_id="b", stale_after=STALE)


def test_a_run_whose_worker_keeps_dying_stops_after_three_deliveries(reporter) -> None:
    run = draft_create(reporter=reporter, press_release=PRESS_RELEASE)
    for _ in range(3):  # three deliveries that each died without finishing
        run_claim(run_id=run.pk, task_id="same-message", stale_after=STALE)

    tasks.draft_run.apply(args=[run.pk], task_id="same-message")

    run.refresh_from_db()
    assert run.status == Run.Status.FAILED and run.error_code == "too_many_attempts"
    assert "다시 시도" in run.error


def test_the_sweeper_requeues_a_run_whose_message_was_lost(
    reporter, fake_llm: FakeAnthropic, django_capture_on_commit_callbacks
) -> None:
    run = draft_create(reporter=reporter, press_release=PRESS_RELEASE)
    Run.objects.filter(pk=run.pk).update(enqueued_at=timezone.now() - timedelta(minutes=11))
    submit(fake_llm)
    verify_pass(fake_llm)
    sent: list[int] = []
    original = tasks.draft_run.delay
    tasks.draft_run.delay = lambda run_id: sent.append(run_id)  # type: ignore[method-assign]
    try:
        assert tasks.sweep_stalled_runs() == 1
        assert tasks.sweep_stalled_runs() == 0  # not again within ten minutes
    finally:
        tasks.draft_run.delay = original  # type: ignore[method-assign]
    assert sent == [run.pk]
    tasks.draft_run.apply(args=[run.pk])
    run.refresh_from_db()
    assert run.status == Run.Status.DONE


def test_the_sweeper_fails_a_run_that_hung_past_every_retry(reporter) -> None:
    run = draft_create(reporter=reporter, press_release=PRESS_RELEASE)
    Run.objects.filter(pk=run.pk).update(
        status=Run.Status.RUNNING, started_at=timezone.now() - timedelta(hours=2)
    )

    tasks.sweep_stalled_runs()

    run.refresh_from_db()
    assert run.status == Run.Status.FAILED and run.error_code == "stalled"


def test_upload_bytes_nobody_parsed_are_dropped_after_an_hour_and_purge_is_idempotent(reporter) -> None:
    upload = Upload.objects.create(reporter=reporter, file_name="a.pdf", size=3, content=b"%PD")
    Upload.objects.filter(pk=upload.pk).update(created_at=timezone.now() - timedelta(minutes=61))

    assert purge_all()["upload_bytes"] == 1
    assert purge_all()["upload_bytes"] == 0
    upload.refresh_from_db()
    assert upload.content is None

"""A run's progress reads as steps: done ones, the current or failed one, and those still to come."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from agents import selectors
from agents.models import Run
from agents.work import runs
from newsdesk import messages as msg
from newsdesk.desk.presenters.drafts import draft_page
from newsdesk.desk.presenters.progress import last_event_seq, progress_of, shown_seq
from tests.factories import RunFactory

pytestmark = pytest.mark.django_db


def states(run: Run) -> list[tuple[str, str]]:
    return [(step.key, step.state) for step in progress_of(run=run).steps]


def test_a_draft_in_its_write_stage_has_two_steps_done_and_one_current(reporter) -> None:
    run = RunFactory(reporter=reporter, status=Run.Status.RUNNING)
    runs.stage_set(run=run, stage="write")

    assert states(run) == [
        ("analyze", "done"),
        ("search", "done"),
        ("write", "current"),
        ("verify", "todo"),
        ("done", "todo"),
    ]
    assert progress_of(run=run).done == 2 and last_event_seq(run=run) == 1


def test_a_failed_verify_run_marks_its_stage_failed_and_shows_no_retry(reporter) -> None:
    run = RunFactory(reporter=reporter, status=Run.Status.RUNNING, input={"mode": "verify"})
    runs.stage_set(run=run, stage="verify")
    runs.event_add(run=run, kind="retry", message="재시도 중 1/3")
    assert progress_of(run=run).retry == "재시도 중 1/3"

    runs.run_fail(run=run, message="실패")

    assert selectors.run_mode(run=run) == "verify"
    assert states(run) == [("verify", "failed"), ("done", "todo")]
    assert progress_of(run=run).retry == ""


def test_a_finished_edit_has_every_step_done_and_its_time_from_start_to_finish(reporter) -> None:
    start = timezone.now() - timedelta(minutes=5)
    run = RunFactory(
        reporter=reporter,
        kind=Run.Kind.EDIT,
        status=Run.Status.DONE,
        started_at=start,
        finished_at=start + timedelta(seconds=42),
    )

    progress = progress_of(run=run)

    assert [step.state for step in progress.steps] == ["done", "done"]
    assert progress.steps[0].label == msg.DESK_STAGE_EDIT
    assert progress.elapsed_seconds == 42


def test_a_stage_set_after_the_run_was_read_is_shown_with_the_event_the_long_poll_waits_past(
    reporter,
) -> None:
    run = RunFactory(reporter=reporter, status=Run.Status.RUNNING)
    runs.stage_set(run=run, stage="search")
    read_by_the_view = Run.objects.get(pk=run.pk)
    runs.stage_set(run=run, stage="write")  # the worker moves on while the request renders

    page = draft_page(reporter=reporter, run=read_by_the_view)

    current = [step.key for step in page.progress.steps if step.state == "current"]
    assert current == ["write"] and page.last_seq == last_event_seq(run=run) == 2


def test_an_ended_run_hands_no_event_to_poll_past(reporter) -> None:
    run = RunFactory(reporter=reporter, status=Run.Status.RUNNING)
    runs.stage_set(run=run, stage="write")
    read_by_the_view = Run.objects.get(pk=run.pk)
    runs.run_finish(run=run)

    assert shown_seq(run=read_by_the_view) == 0 and read_by_the_view.is_finished

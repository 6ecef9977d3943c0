"""A run is finished by exactly one delivery, whatever the order of claim, sweep and finish; and a
delivery that loses the database for a moment retries itself at once, keeping the run."""

from __future__ import annotations

from datetime import timedelta
from types import SimpleNamespace
from typing import Any

import pytest
from celery.exceptions import Retry
from django.db import OperationalError
from django.utils import timezone

from agents import services, tasks
from agents.models import OutboxMessage, Run, RunEvent
from agents.models.runs import run_claim
from agents.services import draft_create
from agents.work import blips, ownership, runs
from tests.fixtures.press import PRESS_RELEASE

pytestmark = pytest.mark.django_db
LONG_AGO = timedelta(hours=1)


class FakeTask:
    """What execute_run reads of a Celery task; a retry is recorded instead of sent."""

    def __init__(self, *, retries: int = 0, kwargs: dict[str, Any] | None = None) -> None:
        self.name = "agents.tasks.draft_run"
        self.request = SimpleNamespace(id="task-1", retries=retries, is_eager=True, kwargs=kwargs or {})
        self.retried: list[dict[str, Any]] = []

    def retry(self, **options: Any) -> Retry:
        self.retried.append(options)
        return Retry("retry", when=options["countdown"])


def queued(reporter: Any) -> Run:
    run = draft_create(reporter=reporter, press_release=PRESS_RELEASE)
    OutboxMessage.objects.all().delete()  # its message went to the broker
    Run.objects.filter(pk=run.pk).update(enqueued_at=timezone.now() - LONG_AGO)
    return run


def claimed_by(owner: str, reporter: Any) -> Run:
    run = queued(reporter)
    assert run_claim(run_id=run.pk, task_id="a", owner=owner)
    return Run.objects.get(pk=run.pk)


def finish(run: Run, results: list[str], name: str) -> None:
    """A run's result and its done state, saved together (as the drafting pipeline does)."""

    def save() -> None:
        RunEvent.objects.create(run=run, seq=500 + ord(name), kind="info", message=name)
        results.append(name)

    runs.finish_with(run=run, message="끝", save=save)


def test_a_silent_owner_that_wakes_after_the_takeover_cannot_finish_the_run_again(reporter) -> None:
    a = ownership.new_owner()
    run_of_a = claimed_by(a, reporter)
    Run.objects.filter(pk=run_of_a.pk).update(heartbeat_at=timezone.now() - LONG_AGO)
    assert tasks.sweep_stalled_runs() == 1  # A went silent: the run is sent again
    b = ownership.new_owner()
    assert run_claim(run_id=run_of_a.pk, task_id="b", owner=b)
    results: list[str] = []
    finish(Run.objects.get(pk=run_of_a.pk), results, "B")

    with pytest.raises(runs.RunTakenOver):
        finish(run_of_a, results, "A")  # A wakes up with its result

    run = Run.objects.get(pk=run_of_a.pk)
    saved = list(RunEvent.objects.filter(run=run, kind="info").values_list("message", flat=True))
    assert saved == ["B"]  # A's result was rolled back with its refused finish
    assert run.owner == b and run.status == Run.Status.DONE
    assert RunEvent.objects.filter(run=run, kind="done").count() == 1


def test_a_late_failure_of_the_old_owner_leaves_the_new_owners_result(reporter) -> None:
    run_of_a = claimed_by(ownership.new_owner(), reporter)
    Run.objects.filter(pk=run_of_a.pk).update(owner="b", status=Run.Status.DONE)  # taken over, finished by B

    runs.run_fail(run=run_of_a, message="실패", code="internal")

    run = Run.objects.get(pk=run_of_a.pk)
    assert run.status == Run.Status.DONE and run.error == ""
    assert not RunEvent.objects.filter(run=run, kind="error").exists()


def test_a_message_the_sweeper_sent_for_a_run_claimed_meanwhile_runs_nothing(reporter) -> None:
    run = queued(reporter)  # looks lost to the sweeper
    bodies: list[str] = []

    def body(*, run: Run) -> None:
        if not bodies:
            bodies.append("A")
            # The sweeper selected it while queued; A claimed it since: the sweeper's requeue only
            # sends a message (it takes nothing from A), and B's delivery of it claims nothing.
            services.run_requeue(run=run)
            tasks.execute_run(FakeTask(), run.pk, body)
        runs.run_finish(run=run)

    tasks.execute_run(FakeTask(), run.pk, body)

    assert bodies == ["A"]
    assert Run.objects.get(pk=run.pk).status == Run.Status.DONE


def test_a_database_blip_mid_run_retries_in_seconds_with_the_same_owner_who_takes_the_run_back(
    reporter,
) -> None:
    run = queued(reporter)
    calls: list[int] = []

    def body(*, run: Run) -> None:
        calls.append(1)
        if len(calls) == 1:
            raise OperationalError("server closed the connection unexpectedly")
        runs.run_finish(run=run)

    first = FakeTask()
    with pytest.raises(Retry):
        tasks.execute_run(first, run.pk, body)
    [retry] = first.retried
    assert retry["countdown"] <= blips.LONGEST_WAIT and retry["max_retries"] == blips.RETRIES
    assert Run.objects.get(pk=run.pk).status == Run.Status.RUNNING  # not failed, not waiting for the sweeper

    tasks.execute_run(FakeTask(retries=1, kwargs=retry["kwargs"]), run.pk, body, retry["kwargs"]["owner"])

    run.refresh_from_db()
    assert run.status == Run.Status.DONE and len(calls) == 2
    assert run.attempts == 1  # taking its own run back is not another attempt
    assert not RunEvent.objects.filter(run=run, kind="error").exists()


def test_the_backoff_is_short_and_bounded() -> None:
    waits = [blips.backoff(retries) for retries in range(8)]

    assert waits[0] <= blips.FIRST_WAIT and max(waits) <= blips.LONGEST_WAIT
    assert sum(waits) < 30

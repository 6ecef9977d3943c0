"""Task robustness: ownership of a run, lost deliveries, the stalled-run sweeper and retention."""

from __future__ import annotations

import subprocess
import sys
import time
from datetime import timedelta

import pytest
import time_machine
from django.utils import timezone

from agents import tasks
from agents.models import OutboxMessage, Run, Upload
from agents.models.runs import run_claim, run_release
from agents.retention import purge_all
from agents.services import draft_create
from agents.work import ownership
from tests.agents.draft_script import submit, verify_pass
from tests.fakes.anthropic import FakeAnthropic
from tests.fixtures.press import PRESS_RELEASE

pytestmark = pytest.mark.django_db
REQUEUE = timedelta(seconds=120)


def dead_owner() -> str:
    """The owner string of a process of this machine that has exited (a killed pool child)."""
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return f"{ownership.HOST}:{child.pid}:gone"


def test_a_queued_run_is_claimed_once(reporter) -> None:
    run = draft_create(reporter=reporter, press_release=PRESS_RELEASE)

    assert run_claim(run_id=run.pk, task_id="a", owner=ownership.new_owner())
    assert not run_claim(run_id=run.pk, task_id="b", owner=ownership.new_owner())  # a duplicate message
    assert not run_claim(run_id=run.pk, task_id="a", owner=ownership.new_owner())  # redelivered, owner alive
    run.refresh_from_db()
    assert run.attempts == 1 and run.status == Run.Status.RUNNING


def test_a_run_whose_owner_went_silent_is_taken_over_after_the_heartbeat_goes_stale(reporter) -> None:
    run = draft_create(reporter=reporter, press_release=PRESS_RELEASE)
    run_claim(run_id=run.pk, task_id="a", owner=ownership.new_owner())

    with time_machine.travel(timezone.now() + ownership.stale_after() - timedelta(seconds=5)):
        assert not run_claim(run_id=run.pk, task_id="b", owner=ownership.new_owner())
    with time_machine.travel(timezone.now() + ownership.stale_after() + timedelta(seconds=1)):
        assert run_claim(run_id=run.pk, task_id="b", owner=ownership.new_owner())


def test_a_run_whose_owner_process_died_on_this_machine_is_taken_over_at_once(reporter) -> None:
    run = draft_create(reporter=reporter, press_release=PRESS_RELEASE)
    run_claim(run_id=run.pk, task_id="a", owner=ownership.new_owner())
    Run.objects.filter(pk=run.pk).update(owner=dead_owner())

    assert run_claim(run_id=run.pk, task_id="a", owner=ownership.new_owner())
    run.refresh_from_db()
    assert run.attempts == 2


def test_a_run_released_for_a_retry_is_claimed_by_the_retry_and_left_alone_by_the_sweeper(reporter) -> None:
    run = draft_create(reporter=reporter, press_release=PRESS_RELEASE)
    owner = ownership.new_owner()
    run_claim(run_id=run.pk, task_id="a", owner=owner)
    Run.objects.filter(pk=run.pk).update(enqueued_at=timezone.now() - timedelta(hours=1))

    run_release(run_id=run.pk, owner=owner, for_seconds=30)

    assert tasks.sweep_stalled_runs() == 0
    assert run_claim(run_id=run.pk, task_id="a", owner=ownership.new_owner())


@pytest.mark.django_db(transaction=True)  # the heartbeat writes from its own thread and connection
def test_the_heartbeat_keeps_a_claim_fresh_while_the_body_runs(reporter, settings) -> None:
    settings.NEWSDESK_HEARTBEAT_SECONDS = 0.05
    run = draft_create(reporter=reporter, press_release=PRESS_RELEASE)
    owner = ownership.new_owner()
    run_claim(run_id=run.pk, task_id="a", owner=owner)
    Run.objects.filter(pk=run.pk).update(heartbeat_at=timezone.now() - timedelta(hours=1))

    with ownership.heartbeat(Run, pk=run.pk, owner=owner):
        deadline = time.monotonic() + 5
        while Run.objects.get(pk=run.pk).heartbeat_at < timezone.now() - timedelta(minutes=1):
            assert time.monotonic() < deadline, "no heartbeat"
            time.sleep(0.02)


def test_a_run_whose_worker_keeps_dying_stops_after_three_deliveries(reporter) -> None:
    run = draft_create(reporter=reporter, press_release=PRESS_RELEASE)
    for _ in range(3):  # three deliveries that each died without finishing
        Run.objects.filter(pk=run.pk).update(owner=dead_owner())
        run_claim(run_id=run.pk, task_id="same-message", owner=ownership.new_owner())
    Run.objects.filter(pk=run.pk).update(owner=dead_owner())

    tasks.draft_run.apply(args=[run.pk], task_id="same-message")

    run.refresh_from_db()
    assert run.status == Run.Status.FAILED and run.error_code == "too_many_attempts"
    assert "다시 시도" in run.error


def test_the_sweeper_requeues_a_run_whose_message_was_lost(reporter, fake_llm: FakeAnthropic) -> None:
    run = draft_create(reporter=reporter, press_release=PRESS_RELEASE)
    OutboxMessage.objects.all().delete()  # published, then lost with the broker
    Run.objects.filter(pk=run.pk).update(enqueued_at=timezone.now() - REQUEUE - timedelta(seconds=1))
    submit(fake_llm)
    verify_pass(fake_llm)

    assert tasks.sweep_stalled_runs() == 1
    assert tasks.sweep_stalled_runs() == 0  # its message waits in the outbox: not twice
    assert list(OutboxMessage.objects.values_list("task", "args")) == [("agents.tasks.draft_run", [run.pk])]
    tasks.draft_run.apply(args=[run.pk])
    run.refresh_from_db()
    assert run.status == Run.Status.DONE


def test_the_sweeper_requeues_a_running_run_whose_heartbeat_went_stale(reporter) -> None:
    run = draft_create(reporter=reporter, press_release=PRESS_RELEASE)
    OutboxMessage.objects.all().delete()
    run_claim(run_id=run.pk, task_id="a", owner="elsewhere:1:x")
    long_ago = timezone.now() - ownership.stale_after() - timedelta(seconds=1)
    Run.objects.filter(pk=run.pk).update(heartbeat_at=long_ago, enqueued_at=long_ago)

    assert tasks.sweep_stalled_runs() == 1
    assert OutboxMessage.objects.get().key == f"run:{run.pk}"
    assert run_claim(run_id=run.pk, task_id="b", owner=ownership.new_owner())


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

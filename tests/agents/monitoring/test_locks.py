"""One job per reporter at a time: the database lock, the 409, and scheduled runs that wait."""

from __future__ import annotations

import threading
from datetime import timedelta
from typing import Any
from unittest import mock

import pytest
from django.db import connection
from django.utils import timezone

from agents import tasks
from agents.models import JobLock, Run
from agents.monitoring import locks
from agents.monitoring.services import JobAlreadyRunning, check_request, report_request, scheduled_fire

pytestmark = pytest.mark.django_db


def test_a_lock_is_held_inside_the_block_and_released_after(reporter: Any) -> None:
    assert not locks.job_running(reporter_id=reporter.pk)

    with locks.job_lock(reporter_id=reporter.pk, kind="check"):
        assert locks.job_running(reporter_id=reporter.pk)

    assert not locks.job_running(reporter_id=reporter.pk) and not JobLock.objects.exists()


def test_a_second_job_of_the_same_reporter_is_refused_while_another_reporter_is_free(
    reporter: Any, other_reporter: Any
) -> None:
    with locks.job_lock(reporter_id=reporter.pk, kind="check"):
        with pytest.raises(locks.JobBusy) as busy, locks.job_lock(reporter_id=reporter.pk, kind="report"):
            pass
        with locks.job_lock(reporter_id=other_reporter.pk, kind="report"):
            assert locks.job_running(reporter_id=other_reporter.pk)

    assert "이미 실행 중" in busy.value.user_message


def test_the_lock_is_released_when_the_job_raises(reporter: Any) -> None:
    with pytest.raises(RuntimeError), locks.job_lock(reporter_id=reporter.pk):
        raise RuntimeError("boom")

    assert not locks.job_running(reporter_id=reporter.pk)


def test_a_stale_lock_of_a_crashed_worker_is_taken_over(reporter: Any) -> None:
    past = timezone.now() - timedelta(seconds=1)
    JobLock.objects.create(reporter=reporter, kind="check", token="dead", acquired_at=past, expires_at=past)

    assert not locks.job_running(reporter_id=reporter.pk)
    with locks.job_lock(reporter_id=reporter.pk, kind="report"):
        assert JobLock.objects.get(reporter=reporter).kind == "report"


def test_a_reservation_whose_message_was_lost_expires_and_its_run_is_closed(reporter: Any) -> None:
    lost = check_request(reporter=reporter, channel="web")
    JobLock.objects.update(expires_at=timezone.now() - timedelta(seconds=1))

    fresh = check_request(reporter=reporter, channel="web")

    lost.refresh_from_db()
    assert lost.status == Run.Status.FAILED and "오래 멈춰" in lost.error
    assert JobLock.objects.get(reporter=reporter).run_id == fresh.pk


def test_an_expired_lock_row_never_releases_its_successors_lock(reporter: Any) -> None:
    with locks.job_lock(reporter_id=reporter.pk) as first:
        JobLock.objects.update(expires_at=timezone.now() - timedelta(seconds=1))
        with locks.job_lock(reporter_id=reporter.pk):
            locks.job_release(reporter_id=reporter.pk, token=first.token)  # the old holder finishing late
            assert locks.job_running(reporter_id=reporter.pk)


@pytest.mark.django_db(transaction=True)
def test_of_two_workers_acquiring_at_the_same_moment_exactly_one_wins(reporter: Any) -> None:
    barrier = threading.Barrier(4)
    outcomes: list[str] = []

    def worker() -> None:
        try:
            barrier.wait()
            with locks.job_lock(reporter_id=reporter.pk, kind="check"):
                outcomes.append("won")
                barrier_done.wait(timeout=5)
        except locks.JobBusy:
            outcomes.append("busy")
            barrier_done.wait(timeout=5)
        finally:
            connection.close()

    barrier_done = threading.Barrier(4)
    threads = [threading.Thread(target=worker) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=20)

    assert sorted(outcomes) == ["busy", "busy", "busy", "won"]
    assert not JobLock.objects.exists()


def test_a_manual_request_while_a_job_runs_gets_already_running_and_creates_nothing(reporter: Any) -> None:
    first = check_request(reporter=reporter, channel="api")

    with pytest.raises(JobAlreadyRunning) as refused:
        report_request(reporter=reporter, channel="api")

    assert refused.value.status == 409 and "이미 실행 중" in refused.value.user_message
    assert list(Run.objects.values_list("pk", flat=True)) == [first.pk]


def test_the_worker_adopts_the_reservation_of_its_own_run_and_frees_the_reporter_after(
    reporter: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen: list[bool] = []
    monkeypatch.setattr(
        "agents.monitoring.services.run_check",
        lambda **kwargs: seen.append(locks.job_running(reporter_id=reporter.pk)),
    )
    run = check_request(reporter=reporter, channel="web")

    tasks.monitor_check.apply(args=[run.pk])

    assert seen == [True] and not locks.job_running(reporter_id=reporter.pk)


def test_a_scheduled_run_finding_the_reporter_busy_waits_its_turn_instead_of_failing(reporter: Any) -> None:
    running = check_request(reporter=reporter, channel="telegram")
    scheduled = scheduled_fire(reporter_id=reporter.pk, command="report")

    with mock.patch.object(tasks.monitor_report, "apply_async") as resend:
        tasks.monitor_report.apply(args=[scheduled.pk])

    scheduled.refresh_from_db()
    assert scheduled.status == Run.Status.QUEUED
    resend.assert_called_once_with(
        args=(scheduled.pk,), kwargs={"waits": 1}, countdown=tasks.LOCK_WAIT_SECONDS
    )
    assert scheduled.events.filter(message__contains="기다리는 중").exists()
    assert JobLock.objects.get(reporter=reporter).run_id == running.pk


def test_a_run_that_waited_too_long_fails_with_a_message(reporter: Any) -> None:
    check_request(reporter=reporter, channel="telegram")
    scheduled = scheduled_fire(reporter_id=reporter.pk, command="check")

    tasks.monitor_check.apply(args=[scheduled.pk], kwargs={"waits": tasks.LOCK_WAITS})

    scheduled.refresh_from_db()
    assert scheduled.status == Run.Status.FAILED and scheduled.error_code == "busy"
    assert "건너뛰었습니다" in scheduled.error


def test_a_transient_model_error_keeps_the_reporters_place_until_the_retry(
    reporter: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from agents.llm import client as llm

    held_between: list[bool] = []
    calls = iter([llm.LLMTransient("잠시 후"), None])

    def flaky(**kwargs: Any) -> None:
        error = next(calls)
        if error is not None:
            raise error
        held_between.append(JobLock.objects.get(reporter=reporter).token != "")

    monkeypatch.setattr("agents.monitoring.services.run_check", flaky)
    run = check_request(reporter=reporter, channel="web")

    tasks.monitor_check.apply(args=[run.pk])

    assert held_between == [True]  # the retry adopted the reservation the first attempt handed over
    assert not locks.job_running(reporter_id=reporter.pk)

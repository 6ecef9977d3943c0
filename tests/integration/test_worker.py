"""Drafts through a real Celery worker process, a real Redis broker and PostgreSQL."""

from __future__ import annotations

import time

import pytest

from agents.models import Article, Run
from agents.services import draft_create
from tests.agents.draft_script import submit, verify_pass
from tests.fakes.anthropic import FakeAnthropic
from tests.fixtures.press import PRESS_RELEASE

pytestmark = [
    pytest.mark.integration,
    pytest.mark.xdist_group("worker"),
    pytest.mark.django_db(transaction=True),
]


def wait_finished(run: Run, timeout: float = 40) -> Run:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        run.refresh_from_db()
        if run.is_finished:
            return run
        time.sleep(0.2)
    raise AssertionError(f"run {run.pk} still {run.status} after {timeout} s")


def test_a_draft_runs_through_a_real_worker_on_redis_and_postgresql(
    reporter, worker, fake_llm: FakeAnthropic
) -> None:
    submit(fake_llm)
    verify_pass(fake_llm)

    run = wait_finished(draft_create(reporter=reporter, press_release=PRESS_RELEASE))

    assert run.status == Run.Status.DONE, run.error
    assert Article.objects.filter(run=run).count() == 1
    assert [r.api_key for r in fake_llm.requests] == ["sk-ant-test-kim-0001"] * 2


def test_a_worker_child_killed_mid_draft_is_redelivered_and_finishes_once(
    reporter, worker, fake_llm: FakeAnthropic
) -> None:
    fake_llm.stall(30, expect="loop")  # the first attempt hangs here and is killed
    submit(fake_llm)
    verify_pass(fake_llm)

    run = draft_create(reporter=reporter, press_release=PRESS_RELEASE)
    deadline = time.monotonic() + 20
    while len(fake_llm.requests) < 1 and time.monotonic() < deadline:
        time.sleep(0.1)
    worker.kill_children()
    run = wait_finished(run)

    assert run.status == Run.Status.DONE, run.error
    assert run.attempts == 2
    assert Article.objects.filter(run=run).count() == 1


def test_a_started_worker_beats_for_each_queue_it_consumes(worker) -> None:
    from newsdesk import workers

    assert workers.queue_states() == {"llm": workers.LIVE, "io": workers.LIVE}

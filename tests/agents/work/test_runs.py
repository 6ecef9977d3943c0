"""A run's result, its done state and its done event are saved together; the event needs no
savepoint, and a seq taken by another writer rolls the whole save back and runs it once more."""

from __future__ import annotations

import pytest

from agents.models import Run, RunEvent
from agents.services import draft_create
from agents.work import runs
from tests.fixtures.press import PRESS_RELEASE

pytestmark = pytest.mark.django_db(transaction=True)  # outside a test transaction, as in the worker


def running_run(reporter) -> Run:  # type: ignore[no-untyped-def]
    run = draft_create(reporter=reporter, press_release=PRESS_RELEASE)
    Run.objects.filter(pk=run.pk).update(status=Run.Status.RUNNING, attempts=1)
    run.refresh_from_db()
    runs.stage_set(run=run, stage="write")
    return run


def test_a_finished_run_has_its_result_its_state_and_its_done_event(reporter) -> None:
    run = running_run(reporter)
    saved: list[int] = []

    result = runs.finish_with(run=run, message="끝", save=lambda: saved.append(1) or "article")

    assert result == "article" and saved == [1]
    assert Run.objects.get(pk=run.pk).status == Run.Status.DONE
    assert list(RunEvent.objects.filter(run=run).values_list("seq", "kind")) == [
        (1, "stage"),
        (2, "stage"),
        (3, "done"),
    ]


def test_a_done_event_that_loses_its_seq_rolls_the_save_back_and_saves_once_more(reporter) -> None:
    run = running_run(reporter)
    RunEvent.objects.create(run=run, seq=3, kind="info", message="다른 작업자")  # takes the seq it expects
    attempts: list[int] = []

    def save() -> int:
        attempts.append(1)
        RunEvent.objects.create(run=run, seq=100 + len(attempts), kind="info", message="결과")
        return len(attempts)

    assert runs.finish_with(run=run, message="끝", save=save) == 2

    seqs = list(RunEvent.objects.filter(run=run).values_list("seq", "kind"))
    assert (101, "info") not in seqs  # the first attempt's writes were rolled back
    assert (102, "info") in seqs and seqs[-1] == (103, "done")
    assert Run.objects.get(pk=run.pk).status == Run.Status.DONE

"""Each queue's worker is known live, stopped or never seen; /healthz and the desk say so."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from newsdesk import workers
from newsdesk.models import WorkerBeat

pytestmark = pytest.mark.django_db


def age_beats(*, queue: str, seconds: int) -> None:
    WorkerBeat.objects.filter(queue=queue).update(beat_at=timezone.now() - timedelta(seconds=seconds))


def test_a_queue_no_worker_ever_consumed_reads_never() -> None:
    assert workers.queue_states() == {"llm": workers.NEVER, "io": workers.NEVER}


def test_a_worker_that_stops_beating_reads_stopped_after_the_stale_time(settings) -> None:
    workers.beat(node="llm@h", queues=["llm"])
    workers.beat(node="io@h", queues=["io"])
    age_beats(queue="io", seconds=settings.NEWSDESK_HEARTBEAT_STALE_SECONDS + 1)

    assert workers.queue_states() == {"llm": workers.LIVE, "io": workers.STOPPED}


def test_one_live_worker_is_enough_for_its_queue(settings) -> None:
    workers.beat(node="io@a", queues=["io"])
    workers.beat(node="io@b", queues=["io"])
    age_beats(queue="io", seconds=settings.NEWSDESK_HEARTBEAT_STALE_SECONDS + 1)
    workers.beat(node="io@b", queues=["io"])

    assert workers.queue_states()["io"] == workers.LIVE


def test_a_worker_stopping_cleanly_reads_stopped_at_once() -> None:
    workers.start_heartbeat(node="llm@h", queues=["llm"])
    workers.stop_heartbeat()

    assert workers.queue_states()["llm"] == workers.STOPPED


def test_healthz_answers_503_naming_the_queue_without_a_worker(client: Client, settings) -> None:
    workers.beat(node="w@h", queues=["llm", "io"])
    age_beats(queue="io", seconds=settings.NEWSDESK_HEARTBEAT_STALE_SECONDS + 1)

    response = client.get("/healthz")

    assert response.status_code == 503
    assert response.json()["workers"] == {"llm": "ok", "io": "error: no live worker"}


def test_healthz_answers_503_before_any_worker_has_started(client: Client) -> None:
    response = client.get("/healthz")

    assert response.status_code == 503
    assert response.json()["workers"] == {
        "llm": "error: no worker has started",
        "io": "error: no worker has started",
    }

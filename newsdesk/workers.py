"""Which queues have a live consumer: each worker beats for the queues it consumes.

A worker that dies (the broker killed it, the machine ran out of memory) stops beating; after
NEWSDESK_HEARTBEAT_STALE_SECONDS its queue reads as having no live worker, /healthz answers 503
and the desk tells a reporter that uploads cannot be read right now instead of letting them wait.
A worker that stops cleanly marks its beats stale at once. Beats are never deleted: a queue that
had a worker and has none now ("stopped") is told apart from one that never had any ("never": a
database no worker has used yet, as in unit tests), which only /healthz reports.
"""

from __future__ import annotations

import logging
import os
import threading
from datetime import timedelta

from django.conf import settings
from django.db import DatabaseError, close_old_connections, connection
from django.utils import timezone

from newsdesk.models import WorkerBeat

logger = logging.getLogger(__name__)

# The queues the product routes work to (settings.CELERY_TASK_ROUTES and the default queue).
QUEUES = ("llm", "io")

_beating: dict[str, object] = {}


def start_heartbeat(*, node: str, queues: list[str]) -> None:
    """Beats now and then every NEWSDESK_HEARTBEAT_SECONDS in a daemon thread of this worker."""
    stop = threading.Event()
    _beating.update(node=node, queues=queues, stop=stop)
    beat(node=node, queues=queues)
    thread = threading.Thread(
        target=_beat_until, args=(stop, node, queues), name="worker-heartbeat", daemon=True
    )
    thread.start()


def stop_heartbeat() -> None:
    stop = _beating.get("stop")
    if isinstance(stop, threading.Event):
        stop.set()
        gone = timezone.now() - timedelta(days=1)
        WorkerBeat.objects.filter(node=str(_beating["node"]), pid=os.getpid()).update(beat_at=gone)


def beat(*, node: str, queues: list[str]) -> None:
    now = timezone.now()
    for queue in queues:
        WorkerBeat.objects.update_or_create(
            node=node, queue=queue, defaults={"pid": os.getpid(), "beat_at": now}
        )


LIVE, STOPPED, NEVER = "live", "stopped", "never"


def queue_states() -> dict[str, str]:
    """For each queue the product uses: LIVE (a worker beat recently), STOPPED or NEVER."""
    cutoff = timezone.now() - timedelta(seconds=settings.NEWSDESK_HEARTBEAT_STALE_SECONDS)
    latest: dict[str, bool] = {}
    for queue, beat_at in WorkerBeat.objects.values_list("queue", "beat_at"):
        latest[queue] = latest.get(queue, False) or beat_at >= cutoff
    return {queue: NEVER if queue not in latest else LIVE if latest[queue] else STOPPED for queue in QUEUES}


def stopped_queues() -> set[str]:
    """The queues whose workers were running and are gone; empty when that cannot be read."""
    try:
        return {queue for queue, state in queue_states().items() if state == STOPPED}
    except DatabaseError:
        return set()  # the database is the louder problem; pages say nothing of workers then


def uploads_readable() -> bool:
    """False when the file worker was running and is gone: nobody reads an upload right now."""
    return "io" not in stopped_queues()


def _beat_until(stop: threading.Event, node: str, queues: list[str]) -> None:
    while not stop.wait(settings.NEWSDESK_HEARTBEAT_SECONDS):
        try:
            close_old_connections()
            beat(node=node, queues=queues)
        except DatabaseError:
            # The database is away; the next beat tries again. A worker is not dead for it.
            logger.warning("worker heartbeat not written: database unavailable")
        finally:
            connection.close()

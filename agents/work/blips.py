"""A task that loses its database for a moment retries itself within seconds, keeping its row.

Before, a handler that hit OperationalError (PostgreSQL restarting, a connection reset) failed,
and its row waited for the sweeper: heartbeat stale after a minute, requeue after two, so the
reporter's answer came minutes late. Now the task closes its broken connection and sends itself
again with a short, bounded backoff, carrying its owner id: the row it had claimed is still
marked as its own (the database could not be told otherwise), and a claim by the same owner
reclaims it (`ownership.reclaim`, not counted as another attempt). Nothing is done twice: every
reply and result is recorded before it goes out, so the retry skips what the first try finished.
"""

from __future__ import annotations

import contextlib
import logging
import random
from typing import Any

from celery import Task
from celery.exceptions import Retry
from django.db import InterfaceError, OperationalError, connection

log = logging.getLogger(__name__)
DB_ERRORS: tuple[type[Exception], ...] = (OperationalError, InterfaceError)
FIRST_WAIT = 0.5  # seconds; doubled each try up to LONGEST_WAIT
LONGEST_WAIT = 4.0
RETRIES = 20  # about a minute of outage; past that the sweeper is the net, as before


def retry_after_db_error(task: Task, exc: Exception, *, owner: str, **carried: Any) -> Retry:
    """Closes the broken connection and schedules the task again with its owner; raise what this
    returns (Celery's Retry, or `exc` itself once the retries are used up).

    `carried`: what this try knows and the next one needs (the reply whose claim the blip cut);
    given every time, so a value of an earlier try is replaced, never carried on stale."""
    if not connection.in_atomic_block:  # (a test's wrapping transaction keeps its connection)
        with contextlib.suppress(Exception):  # closing a dead connection may fail: it is dropped
            connection.close()
    retries = task.request.retries
    countdown = backoff(retries)
    log.warning(
        "%s: database unreachable (%s); trying again in %.1f s", task.name, type(exc).__name__, countdown
    )
    kwargs: dict[str, Any] = {**(task.request.kwargs or {}), "owner": owner, **carried}
    return task.retry(exc=exc, countdown=countdown, kwargs=kwargs, max_retries=RETRIES)


def backoff(retries: int) -> float:
    """0.5, 1, 2, 4, 4 … s, with jitter so a restarted database is not hit all at once."""
    return min(LONGEST_WAIT, FIRST_WAIT * 2**retries) * random.uniform(0.75, 1.0)

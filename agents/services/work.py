"""The work plumbing a face's own tasks share with the engine's.

The Telegram face keeps rows of its own (updates, result deliveries) handled by tasks of its own,
under the same two rules as a run: work is recorded with its task message in one transaction (the
outbox; a relay hands it to the broker), and a row is handled by one delivery at a time, which
owns it and keeps its heartbeat while it works. These are those rules, for a row of any model.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime, timedelta
from typing import Any

from celery import Task
from celery.exceptions import Retry
from django.db.models import Model, Q

from agents.work import blips, outbox, ownership


def message_record(*, task: str, args: list[Any], key: str, countdown: float = 0) -> None:
    """Records `task(*args)` in the caller's transaction; it is sent once that commits.
    `countdown` delays the task, counted from now."""
    outbox.enqueue(task=task, args=args, key=key, countdown=countdown)


def message_record_with_row(*, row: Model, unique: str, task: str, key_prefix: str) -> bool:
    """Inserts `row` with the message of `task(row.pk)` keyed `key_prefix + pk`, unless a row with
    its `unique` value exists; False (nothing written) for such a duplicate."""
    return outbox.create_once(row, unique=unique, task=task, key_prefix=key_prefix) is not None


def message_waiting(*, key: str) -> bool:
    """Whether a message recorded under `key` still waits to be sent."""
    return outbox.pending(key)


def owner_new() -> str:
    """An owner id for this delivery: host, process and a token."""
    return ownership.new_owner()


def owner_stale_after() -> timedelta:
    """How long an owner may stay silent before its row counts as abandoned."""
    return ownership.stale_after()


def owner_silent_q(*, now: datetime | None = None) -> Q:
    """Rows whose owner stopped beating (or never did and was claimed long ago)."""
    return ownership.silent_q(now)


def owner_reclaim(*, model: type[Model], pk: int, base: Q, owner: str) -> bool:
    """A retry after a database blip takes back the row its owner still holds; True if it did."""
    return ownership.reclaim(model, pk=pk, base=base, owner=owner)


DB_ERRORS = blips.DB_ERRORS  # a lost connection: retried in seconds, not left to the sweeper


def retry_after_db_error(*, task: Task, exc: Exception, owner: str, **carried: Any) -> Retry:
    """The Retry to raise: the task again in a moment, on a fresh connection, keeping its row."""
    return blips.retry_after_db_error(task, exc, owner=owner, **carried)


def owner_take_over(*, model: type[Model], pk: int, base: Q, owner: str, **updates: Any) -> bool:
    """Claims a row held by an owner that died on this machine; True if this delivery now owns it."""
    return ownership.take_over(model, pk=pk, base=base, owner=owner, **updates)


@contextmanager
def owner_heartbeat(*, model: type[Model], pk: int, owner: str, enabled: bool = True) -> Iterator[None]:
    """Keeps the row's heartbeat from a thread of its own while the body runs."""
    with ownership.heartbeat(model, pk=pk, owner=owner, enabled=enabled):
        yield

"""One job per reporter at a time, held in the database so every web and worker process sees it.

The lock is a `JobLock` row; its unique reporter column makes acquisition atomic: an INSERT
either wins or raises IntegrityError, in a short transaction of its own. Release deletes the
row in a `finally`. A worker killed by the hard time limit never reaches its `finally`, so every
row carries an expiry: past it, the next acquirer deletes the row and takes over (a crashed
worker blocks a reporter for at most `HOLD_TTL`).

Two ways in:
- `job_reserve` at request time (manual /check, /report): the row is created for the queued run
  with an empty token, in the same transaction that creates the run, so two simultaneous
  requests cannot both be accepted (v1 tested the lock, then took it: a race).
- `job_lock` in the worker: a context manager that either adopts this run's reservation or
  takes a free lock, and raises `JobBusy` when another job holds it. `hand_over` turns a held
  lock back into a reservation (used while Celery waits to retry the same run).

Any face can use it for any job kind; `job_running` answers "is something running for this
reporter?" (the Telegram handler's "이미 실행 중" check).
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone

from agents import messages as msg
from agents.errors import UserFacingError
from agents.models import JobLock, Run
from agents.work import runs

log = logging.getLogger(__name__)

# A queued run keeps its reservation this long; a backlog longer than that frees the reporter.
RESERVE_TTL = timedelta(minutes=10)


def hold_ttl() -> timedelta:
    """A held lock outlives the hard task time limit by a minute, never more."""
    return timedelta(seconds=int(getattr(settings, "CELERY_TASK_TIME_LIMIT", 300)) + 60)


class JobBusy(UserFacingError):
    """Another job of this reporter holds the lock."""

    code = "busy"

    def __init__(self, *, reporter_id: int, kind: str = "") -> None:
        super().__init__(msg.MONITOR_ALREADY_RUNNING)
        self.reporter_id = reporter_id
        self.kind = kind


@dataclass
class HeldLock:
    """The handle `job_lock` yields."""

    reporter_id: int
    run_id: int | None
    token: str

    def hand_over(self, *, ttl: timedelta) -> None:
        """Keeps the lock for this run as a reservation (a retry of the same run will adopt it)."""
        JobLock.objects.filter(reporter_id=self.reporter_id, token=self.token).update(
            token="", expires_at=timezone.now() + ttl
        )
        self.token = ""


def job_running(*, reporter_id: int) -> bool:
    """True while a job of this reporter holds or has reserved the lock (expired rows ignored)."""
    return JobLock.objects.filter(reporter_id=reporter_id, expires_at__gt=timezone.now()).exists()


def job_reserve(*, reporter_id: int, run_id: int, kind: str, ttl: timedelta = RESERVE_TTL) -> None:
    """Reserves the lock for a queued run; raises JobBusy when the reporter has a job going.

    Call it inside the transaction that creates the run: JobBusy then rolls the run back too.
    """
    if not _insert(reporter_id=reporter_id, run_id=run_id, kind=kind, token="", ttl=ttl):
        raise JobBusy(reporter_id=reporter_id, kind=kind)


@contextmanager
def job_lock(*, reporter_id: int, run_id: int | None = None, kind: str = "") -> Iterator[HeldLock]:
    """Holds the reporter's lock for the block; raises JobBusy (before the block) when taken.

    A reservation made for the same `run_id` is adopted. The lock is released on the way out,
    exceptions included, unless it was handed over.
    """
    token = secrets.token_hex(16)
    if not _adopt(reporter_id=reporter_id, run_id=run_id, token=token) and not _insert(
        reporter_id=reporter_id, run_id=run_id, kind=kind, token=token, ttl=hold_ttl()
    ):
        raise JobBusy(reporter_id=reporter_id, kind=kind)
    held = HeldLock(reporter_id=reporter_id, run_id=run_id, token=token)
    try:
        yield held
    finally:
        if held.token:
            job_release(reporter_id=reporter_id, token=held.token)


def job_release(*, reporter_id: int, token: str) -> None:
    """Deletes the lock only if `token` still holds it (never a successor's lock)."""
    JobLock.objects.filter(reporter_id=reporter_id, token=token).delete()


def purge_expired_locks() -> int:
    """Deletes lock rows past their expiry (the hourly purge; acquisition takes them over anyway)."""
    deleted, _ = JobLock.objects.filter(expires_at__lte=timezone.now()).delete()
    return deleted


# --- internals --------------------------------------------------------------------------------
def _adopt(*, reporter_id: int, run_id: int | None, token: str) -> bool:
    if run_id is None:
        return False
    adopted = JobLock.objects.filter(
        reporter_id=reporter_id, run_id=run_id, token="", expires_at__gt=timezone.now()
    ).update(token=token, expires_at=timezone.now() + hold_ttl())
    return adopted == 1


def _insert(*, reporter_id: int, run_id: int | None, kind: str, token: str, ttl: timedelta) -> bool:
    now = timezone.now()
    try:
        with transaction.atomic():
            _take_over_expired(reporter_id=reporter_id, run_id=run_id, now=now)
            with transaction.atomic():  # a savepoint: the unique violation must not poison the outer block
                JobLock.objects.create(
                    reporter_id=reporter_id,
                    run_id=run_id,
                    kind=kind,
                    token=token,
                    acquired_at=now,
                    expires_at=now + ttl,
                )
    except IntegrityError:
        return False
    return True


def _take_over_expired(*, reporter_id: int, run_id: int | None, now: datetime) -> None:
    stale = JobLock.objects.select_for_update().filter(reporter_id=reporter_id, expires_at__lte=now).first()
    if stale is None:
        return
    log.warning(
        "job lock of reporter %s expired (run %s, %s); taking over", reporter_id, stale.run_id, stale.kind
    )
    stale_run_id = stale.run_id
    stale.delete()
    if stale_run_id is None or stale_run_id == run_id:
        return  # our own reservation ran out while queued: we are here now, nothing to close
    # A reservation that expired while its run still waits in the queue means the message was
    # lost (or is hopelessly late): close the run so it does not show "대기" forever.
    run = Run.objects.filter(pk=stale_run_id, status=Run.Status.QUEUED).first()
    if run is not None:
        runs.run_fail(run=run, message=msg.RUN_STALLED, code="stalled")

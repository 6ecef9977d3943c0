"""Run lifecycle: start, progress events, finish, fail. Every face reads progress from RunEvent rows."""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from datetime import datetime
from typing import TypeVar

from django.db import IntegrityError, connection, transaction
from django.db.models import Max
from django.utils import timezone

from agents import messages as msg
from agents.models import LLMCall, Run, RunEvent

log = logging.getLogger(__name__)

DRAFT_STAGES = ["analyze", "search", "write", "verify", "done"]

T = TypeVar("T")
EventListener = Callable[[Run, RunEvent], None]
_listeners: list[EventListener] = []


CreatedHook = Callable[[Run], None]
_created: ContextVar[CreatedHook | None] = ContextVar("run_created", default=None)


@contextmanager
def on_created(hook: CreatedHook) -> Iterator[None]:
    """Runs queued in this block call hook inside the transaction that creates them, so a caller
    can tie a run to what asked for it atomically (a split paste to the job it started)."""
    token = _created.set(hook)
    try:
        yield
    finally:
        _created.reset(token)


def created(run: Run) -> None:
    """Called by every service that queues a run, inside its transaction."""
    hook = _created.get()
    if hook is not None:
        hook(run)


def add_listener(listener: EventListener) -> None:
    """Faces (Telegram) subscribe to progress without agents importing them."""
    if listener not in _listeners:
        _listeners.append(listener)


def event_add(*, run: Run, kind: str, message: str, savepoint: bool = True) -> RunEvent:
    event = _append(run, kind, message[:500], savepoint=savepoint)
    run._next_event_seq = event.seq + 1  # type: ignore[attr-defined]
    for listener in _listeners:
        try:
            listener(run, event)
        except Exception:  # a broken listener must never break the run itself
            log.exception("run event listener failed")
    return event


def _append(run: Run, kind: str, message: str, *, savepoint: bool = True) -> RunEvent:
    """One INSERT in the usual case: the worker that owns a run remembers the next seq (and
    guesses the first one), so it rarely asks the database. Two writers can still race for a seq; the unique
    constraint decides and the loser re-reads. A savepoint is needed only inside a transaction; without
    one (savepoint=False) a lost race aborts the caller's whole transaction, which must then retry it."""
    seq = getattr(run, "_next_event_seq", None)
    if seq is None and run.attempts == 1 and run.status == Run.Status.RUNNING:
        seq = 2  # a first delivery: only the "queued" event exists (a wrong guess is just retried)
    for _ in range(3):
        if seq is None:
            seq = (run.events.aggregate(m=Max("seq"))["m"] or 0) + 1
        try:
            if connection.in_atomic_block and not savepoint:
                return RunEvent.objects.create(run=run, seq=seq, kind=kind, message=message)
            if connection.in_atomic_block:
                with transaction.atomic():
                    return RunEvent.objects.create(run=run, seq=seq, kind=kind, message=message)
            return RunEvent.objects.create(run=run, seq=seq, kind=kind, message=message)
        except IntegrityError:
            if connection.in_atomic_block and not savepoint:
                raise  # the transaction is broken: only the caller can roll it back and retry
            seq = None
    raise RuntimeError("could not append a run event")


def stage_set(*, run: Run, stage: str, message: str = "") -> None:
    run.stage = stage
    Run.objects.filter(pk=run.pk).update(stage=stage)
    event_add(run=run, kind=RunEvent.Kind.STAGE, message=message or msg.STAGE_LABELS.get(stage, stage))


class RunTakenOver(Exception):
    """The run's owner changed since this delivery read it (its heartbeat went stale and another
    delivery claimed it): this one's outcome is dropped, the owner's stands."""


def _settle(run: Run, **fields: object) -> bool:
    """Writes the run's outcome only if it is still the owner's that read it: one conditional
    UPDATE, so two deliveries of one run can never both finish it."""
    for name, value in fields.items():
        setattr(run, name, value)
    return Run.objects.filter(pk=run.pk, owner=run.owner).update(**fields, timings=run.timings) == 1


def run_finish(*, run: Run, message: str = "완료", savepoint: bool = True) -> None:
    """Marks the run done; RunTakenOver (roll the result back) when another delivery owns it now."""
    if not _settle(run, status=Run.Status.DONE, stage="done", finished_at=timezone.now(), error=""):
        raise RunTakenOver(f"run {run.pk} is owned by another delivery now")
    event_add(run=run, kind=RunEvent.Kind.DONE, message=message, savepoint=savepoint)


def finish_with(*, run: Run, message: str, save: Callable[[], T]) -> T:
    """Saves a run's result, marks the run done and appends its done event in one transaction.

    The event goes in without a savepoint (two round trips fewer per run): if another writer took
    its seq, the whole transaction rolls back, so nothing half-saved stays, and it is run once more
    with the seq re-read from the database.
    """
    for attempt in (1, 2):
        try:
            with transaction.atomic():
                result = save()
                run_finish(run=run, message=message, savepoint=attempt > 1)
                return result
        except IntegrityError:
            if attempt > 1:
                raise
            log.warning("run %s: its done event lost a seq race; saving once more", run.pk)
            run._next_event_seq = None  # type: ignore[attr-defined]
    raise AssertionError("unreachable")


def run_fail(*, run: Run, message: str, code: str = "") -> None:
    """Marks the run failed, unless another delivery owns it now (then its outcome stands)."""
    fields = {"status": Run.Status.FAILED, "error": message, "error_code": code[:30]}
    if not _settle(run, **fields, finished_at=timezone.now()):
        log.warning("run %s not failed here: another delivery owns it now", run.pk)
        return
    event_add(run=run, kind=RunEvent.Kind.ERROR, message=message)


ROUTING_PURPOSES = ("select_conversations", "route_to_tool")


def calls_attach(*, run: Run, reporter_id: int, since: datetime) -> int:
    """The context-selection and routing calls that led to `run` are counted in it.

    They are made before the run exists (the router decides whether there is one), so they are
    recorded without a run and attached here once it is queued.
    """
    return LLMCall.objects.filter(
        reporter_id=reporter_id, run__isnull=True, created_at__gte=since, purpose__in=ROUTING_PURPOSES
    ).update(run=run)

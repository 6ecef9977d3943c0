"""Celery tasks: thin adapters that load a row by primary key and call a service.

Every run task is idempotent: a finished run is left alone, each delivery is counted in
Run.attempts, and a run whose worker keeps dying stops after a few attempts instead of looping
(task_reject_on_worker_lost requeues on a lost worker; the broker keeps no count of its own).
"""

from __future__ import annotations

import logging
import random
from collections.abc import Callable
from datetime import timedelta
from typing import Any

from celery import Task, shared_task
from celery.exceptions import SoftTimeLimitExceeded
from django.conf import settings
from django.db.models import Q
from django.utils import timezone

from agents import messages as msg
from agents import services
from agents.errors import UserFacingError
from agents.llm import client as llm
from agents.models import Run, Upload
from agents.models.runs import run_claim, run_release
from agents.work import blips, outbox, ownership, runs

log = logging.getLogger(__name__)
MAX_RETRIES = 3
LOST_DELIVERIES_ALLOWED = 2


def retry_delay(retries: int) -> float:
    """Exponential backoff with jitter: about 4, 8, 16 s."""
    return min(60.0, 4.0 * 2**retries) * random.uniform(0.75, 1.25)


def execute_run(task: Task, run_id: int, body: Callable[..., Any], owner: str = "") -> None:
    """Claims the run and runs `body` on it. `owner` is given only by a retry after a database
    blip (agents.work.blips): the run is still that delivery's and is taken back, not counted."""
    retrying, owner = bool(owner), owner or ownership.new_owner()
    try:
        if not run_claim(run_id=run_id, task_id=task.request.id or "", owner=owner, retrying=retrying):
            return  # finished already, or another live delivery owns it
        run = Run.objects.select_related("reporter").get(pk=run_id)
        lost = run.attempts - 1 - task.request.retries
        if lost > LOST_DELIVERIES_ALLOWED:
            runs.run_fail(run=run, message=msg.RUN_TOO_MANY_ATTEMPTS, code="too_many_attempts")
            return
        with ownership.heartbeat(Run, pk=run_id, owner=owner, enabled=not task.request.is_eager):
            _execute(task, run, body, owner)
    except blips.DB_ERRORS as exc:
        raise blips.retry_after_db_error(task, exc, owner=owner) from exc


def _execute(task: Task, run: Run, body: Callable[..., Any], owner: str) -> None:
    try:
        body(run=run)
    except UserFacingError as exc:  # bad input, a file, the model, a schedule: the reporter reads why
        if isinstance(exc, llm.LLMError) and exc.transient and task.request.retries < MAX_RETRIES:
            runs.event_add(
                run=run,
                kind="retry",
                message=msg.RETRYING.format(attempt=task.request.retries + 1, limit=MAX_RETRIES),
            )
            countdown = retry_delay(task.request.retries)
            run_release(run_id=run.pk, owner=owner, for_seconds=countdown)
            raise task.retry(countdown=countdown, exc=exc) from exc
        _record_key_refusal(run, exc)
        runs.run_fail(run=run, message=exc.user_message, code=exc.code)
    except SoftTimeLimitExceeded:
        runs.run_fail(run=run, message=msg.RUN_TIMED_OUT, code="timeout")
    except runs.RunTakenOver:
        log.warning("run %s was taken over by another delivery; its result is that one's", run.pk)
    except blips.DB_ERRORS:
        raise  # the database is away, not the run's fault: retried in seconds (execute_run)
    except Exception:
        log.exception("run %s failed unexpectedly", run.pk)
        runs.run_fail(run=run, message=msg.RUN_INTERNAL_ERROR, code="internal")


def _record_key_refusal(run: Run, exc: UserFacingError) -> None:
    if isinstance(exc, llm.LLMKeyRefused) and run.reporter.anthropic_key_encrypted:
        run.reporter.anthropic_key_status = "refused"
        run.reporter.save(update_fields=["anthropic_key_status"])


@shared_task(bind=True, max_retries=MAX_RETRIES)
def draft_run(self: Task, run_id: int, owner: str = "") -> None:
    execute_run(self, run_id, owner=owner, body=services.draft_execute)


@shared_task(bind=True, max_retries=MAX_RETRIES)
def edit_run(self: Task, run_id: int, owner: str = "") -> None:
    execute_run(self, run_id, owner=owner, body=services.edit_execute)


@shared_task
def extract_upload(upload_id: int) -> None:
    upload = Upload.objects.filter(pk=upload_id, status=Upload.Status.PENDING).first()
    if upload is not None:
        services.upload_extract(upload=upload)


@shared_task
def sweep_stalled_runs() -> int:
    """Level-triggered safety net (beat, every NEWSDESK_SWEEP_SECONDS): send again what was lost.

    A run still queued NEWSDESK_REQUEUE_AFTER_SECONDS after it was sent never reached a worker
    (the broker lost its message); a running one whose heartbeat went stale lost its worker. Both
    get a fresh message, at most once per interval, unless one is already waiting in the outbox;
    the claim keeps every run single. A run past every time limit and retry is failed.
    """
    now = timezone.now()
    requeue_after = timedelta(seconds=settings.NEWSDESK_REQUEUE_AFTER_SECONDS)
    stale = ownership.stale_after()
    lost = Run.objects.filter(status=Run.Status.QUEUED, enqueued_at__lt=now - requeue_after)
    silent = Run.objects.filter(
        Q(enqueued_at__isnull=True) | Q(enqueued_at__lt=now - stale),
        status=Run.Status.RUNNING,
        heartbeat_at__lt=now - stale,
    )
    requeued = 0
    for run in [*lost.exclude(kind=Run.Kind.CHAT)[:100], *silent.exclude(kind=Run.Kind.CHAT)[:100]]:
        if not outbox.pending(f"run:{run.pk}"):
            services.run_requeue(run=run)
            requeued += 1
    limit = now - timedelta(seconds=settings.CELERY_TASK_TIME_LIMIT * (MAX_RETRIES + 2) + 300)
    for run in Run.objects.filter(status=Run.Status.RUNNING, started_at__lt=limit)[:100]:
        runs.run_fail(run=run, message=msg.RUN_STALLED, code="stalled")
    return requeued


@shared_task
def purge_expired() -> dict[str, int]:
    """Hourly retention purge; idempotent and safe to run twice at once."""
    from agents.retention import purge_all

    return purge_all()


# --- monitoring: /check, /report and their schedules ------------------------------------------
LOCK_WAIT_SECONDS = 30
LOCK_WAITS = 20  # a run waits up to 10 minutes for the reporter's previous job, then gives up


@shared_task(bind=True, max_retries=MAX_RETRIES)
def monitor_check(self: Task, run_id: int, waits: int = 0, owner: str = "") -> None:
    from agents.monitoring import services as monitoring

    execute_monitor(self, run_id, waits, monitoring.check_execute, owner=owner)


@shared_task(bind=True, max_retries=MAX_RETRIES)
def monitor_report(self: Task, run_id: int, waits: int = 0, owner: str = "") -> None:
    from agents.monitoring import services as monitoring

    execute_monitor(self, run_id, waits, monitoring.report_execute, owner=owner)


@shared_task
def monitor_scheduled(reporter_id: int, command: str) -> None:
    """Beat's daily entry (one PeriodicTask per reporter, command and time)."""
    from agents.monitoring import services as monitoring

    monitoring.scheduled_fire(reporter_id=reporter_id, command=command)


def execute_monitor(task: Task, run_id: int, waits: int, body: Callable[..., Any], owner: str = "") -> None:
    """execute_run under the reporter's job lock; a busy lock means wait, never fail at once.

    While Celery waits to retry a transient model error, the lock is kept as a reservation for
    this run, so no other job slips in between two attempts of the same run.
    """
    from celery.exceptions import Retry

    from agents.monitoring import locks

    run = Run.objects.filter(pk=run_id).first()
    if run is None or run.is_finished:
        return
    try:
        with locks.job_lock(reporter_id=run.reporter_id, run_id=run.pk, kind=run.kind) as held:
            try:
                execute_run(task, run_id, body, owner)
            except Retry:
                held.hand_over(ttl=locks.RESERVE_TTL)
                raise
    except locks.JobBusy:
        if waits >= LOCK_WAITS:
            if run.status == Run.Status.QUEUED:  # a running one belongs to another delivery: leave it
                runs.run_fail(run=run, message=msg.MONITOR_WAIT_GAVE_UP, code="busy")
            return
        if waits == 0:
            runs.event_add(run=run, kind="info", message=msg.MONITOR_WAITING)
        # A fresh message, not task.retry(): waiting must not use up the model-error retries.
        task.apply_async(args=(run_id,), kwargs={"waits": waits + 1}, countdown=LOCK_WAIT_SECONDS)

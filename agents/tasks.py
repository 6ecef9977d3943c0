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
from django.utils import timezone

from agents import llm, runs, services
from agents import messages as msg
from agents.attachments import AttachmentUnavailable
from agents.models import Run, Upload
from agents.models.runs import run_claim
from agents.sources.files import FileRejected
from agents.writing import WritingFailed

log = logging.getLogger(__name__)
MAX_RETRIES = 3
LOST_DELIVERIES_ALLOWED = 2


def retry_delay(retries: int) -> float:
    """Exponential backoff with jitter: about 4, 8, 16 s."""
    return min(60.0, 4.0 * 2**retries) * random.uniform(0.75, 1.25)


def execute_run(task: Task, run_id: int, body: Callable[..., Any]) -> None:
    stale = timedelta(seconds=settings.CELERY_TASK_TIME_LIMIT + 60)
    if not run_claim(run_id=run_id, task_id=task.request.id or "", stale_after=stale):
        return  # finished already, or another delivery of a duplicate message owns it
    run = Run.objects.select_related("reporter").get(pk=run_id)
    lost = run.attempts - 1 - task.request.retries
    if lost > LOST_DELIVERIES_ALLOWED:
        runs.run_fail(run=run, message=msg.RUN_TOO_MANY_ATTEMPTS, code="too_many_attempts")
        return
    try:
        body(run=run)
    except llm.LLMError as exc:
        if exc.transient and task.request.retries < MAX_RETRIES:
            runs.event_add(
                run=run,
                kind="retry",
                message=msg.RETRYING.format(attempt=task.request.retries + 1, limit=MAX_RETRIES),
            )
            raise task.retry(countdown=retry_delay(task.request.retries), exc=exc) from exc
        _record_key_refusal(run, exc)
        runs.run_fail(run=run, message=exc.user_message, code=exc.code)
    except (WritingFailed, FileRejected, AttachmentUnavailable) as exc:
        runs.run_fail(run=run, message=exc.user_message, code=getattr(exc, "code", "input"))
    except services.InputError as exc:
        runs.run_fail(run=run, message=exc.message, code="input")
    except SoftTimeLimitExceeded:
        runs.run_fail(run=run, message=msg.RUN_TIMED_OUT, code="timeout")
    except Exception:
        log.exception("run %s failed unexpectedly", run_id)
        runs.run_fail(run=run, message=msg.RUN_INTERNAL_ERROR, code="internal")


def _record_key_refusal(run: Run, exc: llm.LLMError) -> None:
    if isinstance(exc, llm.LLMKeyRefused) and run.reporter.anthropic_key_encrypted:
        run.reporter.anthropic_key_status = "refused"
        run.reporter.save(update_fields=["anthropic_key_status"])


@shared_task(bind=True, max_retries=MAX_RETRIES)
def draft_run(self: Task, run_id: int) -> None:
    execute_run(self, run_id, services.draft_execute)


@shared_task(bind=True, max_retries=MAX_RETRIES)
def edit_run(self: Task, run_id: int) -> None:
    execute_run(self, run_id, services.edit_execute)


@shared_task
def extract_upload(upload_id: int) -> None:
    upload = Upload.objects.filter(pk=upload_id, status=Upload.Status.PENDING).first()
    if upload is not None:
        services.upload_extract(upload=upload)


@shared_task
def sweep_stalled_runs() -> int:
    """Level-triggered safety net: requeue runs whose message was lost, fail runs that hung.

    A queued run older than two minutes never reached a worker (broker restart, lost message);
    a running one past the hard time limit plus retries will never finish.
    """
    now = timezone.now()
    requeued = 0
    lost = Run.objects.filter(
        status=Run.Status.QUEUED,
        enqueued_at__lt=now - timedelta(minutes=10),
        kind__in=[Run.Kind.DRAFT, Run.Kind.EDIT],
    )
    for run in lost[:100]:
        # Requeue at most every ten minutes: a long backlog must not multiply its own messages.
        Run.objects.filter(pk=run.pk).update(enqueued_at=now)
        (edit_run if run.kind == Run.Kind.EDIT else draft_run).delay(run.pk)
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

"""Entry points the faces (API, web desk, Telegram, beat) call for /check, /report and schedules.

Requests (`check_request`, `report_request`) validate what can be validated at once, create a
queued `Run`, reserve the reporter's job lock and record its task message (agents.work.outbox) in the
same transaction. A second request while a job runs raises `JobAlreadyRunning` (an `InputError`
with status 409 and a Korean "이미 실행 중" message) and creates nothing.

Scheduled runs (`scheduled_fire`, called by beat through `agents.tasks.monitor_scheduled`) take
no reservation: their task waits for the lock instead of failing (nobody is there to ask again).

The task bodies (`check_execute`, `report_execute`) are what `agents.tasks.execute_run` calls;
Naver failures end the run here with the client's Korean message, model failures go back to
execute_run (which retries transient ones), and the reporter's window only moves on success.

Schedules: see agents.monitoring.schedules (re-exported below).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

from django.db import transaction
from django.utils import timezone

from agents import messages as msg
from agents.llm import client as llm
from agents.models import MonitorItem, MonitorResult, ReportCache, Run
from agents.monitoring import locks
from agents.monitoring.check import run_check
from agents.monitoring.departments import DepartmentProfile, profile_for
from agents.monitoring.report import run_report
from agents.monitoring.schedules import (
    ScheduleResult,
    schedule_add,
    schedule_command,
    schedule_delete_all,
    schedule_list,
    schedule_off,
    schedule_remove,
    schedule_set,
    schedule_text,
)
from agents.reporters import ReporterLike
from agents.services.common import RUN_TASKS, InputError, require_api_key
from agents.sources.naver import NaverError
from agents.work import outbox, runs
from agents.work.run_inputs import MonitorRunInput

log = logging.getLogger(__name__)

__all__ = [
    "JobAlreadyRunning",
    "ScheduleResult",
    "check_execute",
    "check_request",
    "history_clear",
    "report_execute",
    "report_request",
    "schedule_add",
    "schedule_command",
    "schedule_delete_all",
    "schedule_list",
    "schedule_off",
    "schedule_remove",
    "schedule_set",
    "schedule_text",
    "scheduled_fire",
]


class JobAlreadyRunning(InputError):
    """A job of this reporter is running or queued; the API answers 409 with `message`."""

    def __init__(self, message: str = msg.MONITOR_ALREADY_RUNNING) -> None:
        super().__init__(message, status=409)


# --- requests -------------------------------------------------------------------------------
def check_request(*, reporter: ReporterLike, channel: str) -> Run:
    """Queues a /check for the reporter (channel: "web" | "api" | "telegram").

    Raises InputError before queueing when the reporter has no keywords (422, the message says
    how to set them), an unknown department (422) or no usable API key (400), and
    JobAlreadyRunning (409) when another job of the reporter is running or queued.
    """
    _keywords(reporter)
    _profile(reporter)
    require_api_key(reporter=reporter)
    return _queue(reporter=reporter, kind=Run.Kind.CHECK, channel=channel)


def report_request(*, reporter: ReporterLike, channel: str) -> Run:
    """Queues a /report (the department briefing of the KST day); errors as `check_request`."""
    _profile(reporter)
    require_api_key(reporter=reporter)
    return _queue(reporter=reporter, kind=Run.Kind.REPORT, channel=channel)


def scheduled_fire(*, reporter_id: int, command: str) -> Run | None:
    """Beat's daily call: queues the scheduled run (channel "schedule"); it waits for the lock.

    Problems (no keywords, no key) are not checked here: the run fails with the Korean message,
    so the reporter hears about it. A schedule whose reporter is gone deletes itself.
    """
    if command not in ("check", "report"):
        log.error("scheduled run with an unknown command %r for reporter %s", command, reporter_id)
        return None
    reporter_model: Any = Run._meta.get_field("reporter").related_model  # agents never import newsdesk
    reporter = reporter_model.objects.filter(pk=reporter_id).first()
    if reporter is None:
        removed = schedule_delete_all(reporter_id=reporter_id)
        log.warning("reporter %s is gone; removed %d orphan schedules", reporter_id, removed)
        return None
    kind = Run.Kind.CHECK if command == "check" else Run.Kind.REPORT
    return _queue(reporter=reporter, kind=kind, channel=Run.Channel.SCHEDULE, reserve=False)


def _queue(*, reporter: ReporterLike, kind: str, channel: str, reserve: bool = True) -> Run:
    snapshot = MonitorRunInput(department=reporter.department, keywords=list(reporter.keywords or []))
    with transaction.atomic():
        run = Run.objects.create(
            reporter_id=reporter.pk,
            kind=kind,
            channel=channel,
            input=snapshot.stored(),
            enqueued_at=timezone.now(),
        )
        if reserve:
            try:
                locks.job_reserve(reporter_id=reporter.pk, run_id=run.pk, kind=kind)
            except locks.JobBusy as exc:
                raise JobAlreadyRunning(exc.user_message) from exc  # rolls the run back too
        runs.event_add(run=run, kind="stage", message=msg.RUN_QUEUED)
        outbox.enqueue(task=RUN_TASKS[kind], args=[run.pk], key=f"run:{run.pk}")
        runs.created(run)
    return run


def history_clear(*, reporter: ReporterLike, kinds: Sequence[str] = (Run.Kind.CHECK,)) -> int:
    """Forgets the reporter's monitoring history of `kinds` (check, report); returns rows deleted.

    v1 wiped the /check history when keywords changed and both histories when the department
    changed. Besides what the model remembers, the /check history holds the
    URLs already analysed, which a new keyword set must be free to see again. Runs stay.
    """
    deleted = 0
    for kind in kinds:
        deleted += MonitorItem.objects.filter(reporter_id=reporter.pk, kind=kind).delete()[0]
        deleted += MonitorResult.objects.filter(run__reporter_id=reporter.pk, run__kind=kind).delete()[0]
        if kind == Run.Kind.REPORT:
            deleted += ReportCache.objects.filter(reporter_id=reporter.pk).delete()[0]
    return deleted


# --- task bodies ----------------------------------------------------------------------------
def check_execute(*, run: Run) -> None:
    """The /check task body (agents.tasks.monitor_check → execute_run)."""
    reporter = run.reporter
    keywords = _keywords(reporter)
    profile = _profile(reporter)
    ctx = _context(run)
    try:
        run_check(run=run, ctx=ctx, profile=profile, keywords=keywords)
    except NaverError as exc:
        log.warning("check run %s: naver failed: %s", run.pk, exc)
        runs.run_fail(run=run, message=exc.user_message, code=f"naver_{exc.code}")


def report_execute(*, run: Run) -> None:
    """The /report task body (agents.tasks.monitor_report → execute_run)."""
    profile = _profile(run.reporter)
    ctx = _context(run)
    try:
        run_report(run=run, ctx=ctx, profile=profile)
    except NaverError as exc:
        log.warning("report run %s: naver failed: %s", run.pk, exc)
        runs.run_fail(run=run, message=exc.user_message, code=f"naver_{exc.code}")


def _context(run: Run) -> llm.CallContext:
    reporter = run.reporter
    return llm.reporter_context(reporter=reporter, run_id=run.pk, writing=False)


def _keywords(reporter: ReporterLike) -> list[str]:
    keywords = [str(k).strip() for k in (reporter.keywords or []) if str(k).strip()]
    if not keywords:
        raise InputError(msg.CHECK_NO_KEYWORDS, field="keywords")
    return list(dict.fromkeys(keywords))


def _profile(reporter: ReporterLike) -> DepartmentProfile:
    profile = profile_for(reporter.department)
    if profile is None:
        raise InputError(
            msg.MONITOR_UNKNOWN_DEPARTMENT.format(department=reporter.department), field="department"
        )
    return profile

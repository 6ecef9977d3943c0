"""What every service shares: the input error the faces turn into 400/422, the key check, queueing
a run (through the outbox: its message is published once the row is committed, or later by the
relay if the broker is away) and saving a finished article's issues."""

from __future__ import annotations

from contextlib import AbstractContextManager
from typing import Any

from django.db import transaction
from django.utils import timezone

from agents import messages as msg
from agents.errors import UserFacingError
from agents.llm import client as llm
from agents.models import Article, Run, VerificationIssue
from agents.reporters import ReporterLike
from agents.verification.summary import tally
from agents.verification.verify import Issue
from agents.work import outbox, runs

# The task that executes each kind of run, by name: services record work, never import tasks.
RUN_TASKS: dict[str, str] = {
    Run.Kind.DRAFT: "agents.tasks.draft_run",
    Run.Kind.EDIT: "agents.tasks.edit_run",
    Run.Kind.CHECK: "agents.tasks.monitor_check",
    Run.Kind.REPORT: "agents.tasks.monitor_report",
}


def run_requeue(*, run: Run) -> None:
    """Sends a stored run to the workers again (the sweeper's path); its claim keeps it single."""
    with transaction.atomic():
        Run.objects.filter(pk=run.pk).update(enqueued_at=timezone.now())
        outbox.enqueue(task=RUN_TASKS[run.kind], args=[run.pk], key=f"run:{run.pk}")


class InputError(UserFacingError):
    """Bad input from a reporter; `status` is the HTTP status the API answers with."""

    def __init__(self, user_message: str, *, field: str = "", status: int = 422) -> None:
        super().__init__(user_message)
        self.field = field
        self.status = status


def require_api_key(*, reporter: ReporterLike) -> str:
    try:
        return llm.resolve_api_key(reporter.anthropic_key())
    except llm.LLMKeyMissing as exc:
        raise InputError(exc.user_message, field="anthropic_api_key", status=400) from exc


def runs_tied_to(hook: runs.CreatedHook) -> AbstractContextManager[None]:
    """In this block, every run a service queues calls hook inside its creating transaction: a face
    ties the run to what asked for it, atomically (a split Telegram paste to its job)."""
    return runs.on_created(hook)


def queue_run(
    *, reporter: ReporterLike, kind: str, channel: str, input: dict[str, Any], **fields: Any
) -> Run:
    with transaction.atomic():
        run = Run.objects.create(
            reporter_id=reporter.pk,
            kind=kind,
            channel=channel,
            input=input,
            enqueued_at=timezone.now(),
            **fields,
        )
        runs.event_add(run=run, kind="stage", message=msg.RUN_QUEUED)
        outbox.enqueue(task=RUN_TASKS[kind], args=[run.pk], key=f"run:{run.pk}")
        runs.created(run)
    return run


def save_issues(article: Article, issues: list[Issue]) -> None:
    VerificationIssue.objects.bulk_create(
        VerificationIssue(
            article=article,
            claim=i.claim[:1000],
            status=i.status,
            kind=i.kind,
            source=i.source[:1000],
            origin=i.origin,
            sentence_index=i.sentence_index,
            action=i.action,
            reason=i.reason[:500],
            formula=i.formula[:500],
            rule=i.rule[:40],
        )
        for i in issues
    )


def done_message(verdict: str, issues: list[Issue]) -> str:
    confirmed, removed = tally(issues)
    if verdict == "revised":
        return msg.DRAFT_DONE_REVISED.format(confirmed=confirmed, removed=removed)
    return msg.DRAFT_DONE.format(confirmed=confirmed)

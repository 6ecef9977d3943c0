"""What every service shares: the input error the faces turn into 400/422, the key check, queueing
a run (its task is sent only once the row is committed) and saving a finished article's issues."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone

from agents import llm, runs
from agents import messages as msg
from agents.models import Article, Run, VerificationIssue
from agents.verify import Issue, tally


class InputError(Exception):
    """Bad input from a reporter; `status` is the HTTP status the API answers with."""

    def __init__(self, message: str, *, field: str = "", status: int = 422) -> None:
        super().__init__(message)
        self.message = message
        self.field = field
        self.status = status


def require_api_key(*, reporter: Any) -> str:
    try:
        return llm.resolve_api_key(reporter.anthropic_key())
    except llm.LLMKeyMissing as exc:
        raise InputError(exc.user_message, field="anthropic_api_key", status=400) from exc


def queue_run(*, reporter: Any, kind: str, channel: str, input: dict[str, Any], **fields: Any) -> Run:
    from agents import tasks  # tasks import services; import here to keep the module graph acyclic

    with transaction.atomic():
        run = Run.objects.create(
            reporter=reporter, kind=kind, channel=channel, input=input, enqueued_at=timezone.now(), **fields
        )
        runs.event_add(run=run, kind="stage", message=msg.RUN_QUEUED)
        task = tasks.edit_run if kind == Run.Kind.EDIT else tasks.draft_run
        task.delay_on_commit(run.pk)  # type: ignore[attr-defined]  # DjangoTask API, not in the stubs
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
        )
        for i in issues
    )


def done_message(verdict: str, issues: list[Issue]) -> str:
    confirmed, removed = tally(issues)
    if verdict == "revised":
        return msg.DRAFT_DONE_REVISED.format(confirmed=confirmed, removed=removed)
    return msg.DRAFT_DONE.format(confirmed=confirmed)

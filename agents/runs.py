"""Run lifecycle: start, progress events, finish, fail. Every face reads progress from RunEvent rows."""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import datetime

from django.db import IntegrityError, transaction
from django.utils import timezone

from agents.models import LLMCall, Run, RunEvent

log = logging.getLogger(__name__)

STAGES: dict[str, str] = {
    "queued": "대기",
    "analyze": "자료 분석",
    "search": "관련 기사 검색",
    "write": "초안 작성",
    "verify": "사실 확인",
    "done": "완료",
}
DRAFT_STAGES = ["analyze", "search", "write", "verify", "done"]

EventListener = Callable[[Run, RunEvent], None]
_listeners: list[EventListener] = []


def add_listener(listener: EventListener) -> None:
    """Faces (Telegram) subscribe to progress without agents importing them."""
    if listener not in _listeners:
        _listeners.append(listener)


def event_add(*, run: Run, kind: str, message: str) -> RunEvent:
    for _ in range(3):  # two writers can race for the same seq; the unique constraint decides
        try:
            with transaction.atomic():
                event = run.add_event(kind, message[:500])
            break
        except IntegrityError:
            continue
    else:
        raise RuntimeError("could not append a run event")
    for listener in _listeners:
        try:
            listener(run, event)
        except Exception:  # a broken listener must never break the run itself
            log.exception("run event listener failed")
    return event


def stage_set(*, run: Run, stage: str, message: str = "") -> None:
    run.stage = stage
    Run.objects.filter(pk=run.pk).update(stage=stage)
    event_add(run=run, kind=RunEvent.Kind.STAGE, message=message or STAGES.get(stage, stage))


def run_finish(*, run: Run, message: str = "완료") -> None:
    run.status = Run.Status.DONE
    run.stage = "done"
    run.finished_at = timezone.now()
    run.error = ""
    run.save(update_fields=["status", "stage", "finished_at", "error", "timings"])
    event_add(run=run, kind=RunEvent.Kind.DONE, message=message)


def run_fail(*, run: Run, message: str, code: str = "") -> None:
    run.status = Run.Status.FAILED
    run.error = message
    run.error_code = code[:30]
    run.finished_at = timezone.now()
    run.save(update_fields=["status", "error", "error_code", "finished_at", "timings"])
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

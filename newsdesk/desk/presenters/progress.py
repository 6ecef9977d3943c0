"""A run's progress as the desk shows it: its stages, how far it got, its events."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime

from django.db.models import Max
from django.utils import timezone

from agents import messages as agent_msg
from agents import selectors as agent_selectors
from agents.models import Run, RunEvent
from newsdesk import messages as msg


@dataclass(frozen=True)
class Step:
    key: str
    label: str
    state: str  # done | current | failed | todo


@dataclass(frozen=True)
class Progress:
    steps: list[Step]
    done: int
    total: int
    elapsed_seconds: int
    retry: str  # the latest "재시도 중 n/3" while the run is still going
    events: list[RunEvent]


def progress_of(*, run: Run, now: datetime | None = None) -> Progress:
    return stage_progress(run, agent_selectors.run_stages(run=run), lambda key: _stage_label(run, key), now)


def stage_progress(run: Run, keys: list[str], label: Callable[[str], str], now: datetime | None) -> Progress:
    events = list(agent_selectors.events_after(run=run))
    position = keys.index(run.stage) if run.stage in keys else -1
    if run.status == Run.Status.DONE:
        position = len(keys)
    steps = [Step(key, label(key), _step_state(run, index, position)) for index, key in enumerate(keys)]
    retries = [e.message for e in events if e.kind == RunEvent.Kind.RETRY]
    return Progress(
        steps=steps,
        done=sum(1 for step in steps if step.state == "done"),
        total=len(steps),
        elapsed_seconds=_elapsed(run, now or timezone.now()),
        retry=retries[-1] if retries and not run.is_finished else "",
        events=events,
    )


def _stage_label(run: Run, key: str) -> str:
    if key == "write" and run.kind == Run.Kind.EDIT:
        return msg.DESK_STAGE_EDIT
    return agent_msg.STAGE_LABELS.get(key, key)


def _step_state(run: Run, index: int, position: int) -> str:
    if index < position:
        return "done"
    if index == position:
        return "failed" if run.status == Run.Status.FAILED else "current"
    return "todo"


def _elapsed(run: Run, now: datetime) -> int:
    start = run.started_at or run.created_at
    end = run.finished_at or now
    return max(0, int((end - start).total_seconds()))


def run_after_event(*, run: Run, after: int, wait: float, step: float = 0.1) -> Run:
    """The run once it has an event past `after` (or when `wait` seconds have gone), re-read."""
    deadline = time.monotonic() + wait
    while time.monotonic() < deadline:
        if RunEvent.objects.filter(run_id=run.pk, seq__gt=after).exists():
            break
        time.sleep(step)
    run.refresh_from_db()
    return run


def last_event_seq(*, run: Run) -> int:
    return RunEvent.objects.filter(run_id=run.pk).aggregate(m=Max("seq"))["m"] or 0


def shown_seq(*, run: Run) -> int:
    """The event number a status region hands its long poll, for a run about to be shown.

    Read before the run is re-read: a stage is set before its event is added, so the stage shown
    is then at least as new as that event. Read the other way round, an event added in between
    would be counted as seen while the page still shows the stage before it, and the long poll,
    waiting for a later event, would skip that stage on screen. 0 for an ended run (no polling).
    """
    if run.is_finished:
        return 0
    seq = last_event_seq(run=run)
    run.refresh_from_db()
    return 0 if run.is_finished else seq

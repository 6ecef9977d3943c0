"""What the monitoring page shows: /check and /report runs, their items, and the schedules."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime
from urllib.parse import urlsplit

from django.utils import timezone

from agents import messages as agent_msg
from agents.models import MonitorItem, Run
from agents.monitoring import selectors as monitor_selectors
from agents.monitoring import services as monitoring
from newsdesk import messages as msg
from newsdesk.desk.presenters.progress import Progress, shown_seq, stage_progress
from newsdesk.models import Reporter
from newsdesk.telegram import formatters

MONITOR_STAGES = ["search", "filter", "scrape", "analyze", "done"]
_ACTION_TAGS = {"modified": formatters.TAG_MODIFIED, "added": formatters.TAG_ADDED}


@dataclass(frozen=True)
class MonitorRow:
    """One article of a check or briefing as the page shows it (v1's presentation, see formatters)."""

    category: str
    action: str
    tags: list[tuple[str, str]]  # (css key, label): ("exclusive", "[단독]"), ("modified", "[수정]")…
    publisher: str  # "[연합뉴스]", "[연합뉴스 등 다수]" or ""
    title: str
    url: str  # "" unless http(s): a javascript: URL from the model must never become a link
    time: str  # "09:15" today (KST), "5/2 09:15" on another day
    pub_time: datetime | None
    summary: str
    reason: str
    scraped: bool
    also: str = ""  # "같은 소식: 뉴시스 09:15 · 서울신문 10:40" (one event, one item)
    id: int = 0  # the item's id: its "후속 기사" button starts a draft from it


@dataclass(frozen=True)
class MonitorPanel:
    """A check or report run: its live progress while it goes, its result once it is done."""

    run: Run
    view: monitor_selectors.MonitorView
    progress: Progress
    items: list[MonitorRow]
    collapsed: list[MonitorRow]  # skipped items (check) or already-reported ones (report)
    window: str
    last_seq: int = 0  # the newest event shown: the long poll waits for one past it

    @property
    def expired(self) -> bool:
        """Done, but the result is older than the retention period and no longer shown."""
        return self.run.status == Run.Status.DONE and self.view.result is None

    @property
    def listed(self) -> int:
        """Everything the run delivered: shown items plus the collapsed ones."""
        return len(self.items) + len(self.collapsed)


@dataclass(frozen=True)
class MonitorSection:
    kind: str
    latest: MonitorPanel | None
    previous: MonitorPanel | None  # the last successful run, while the latest one has not succeeded


@dataclass(frozen=True)
class ScheduleRow:
    command: str
    label: str
    times: list[str]


@dataclass(frozen=True)
class MonitorHome:
    check: MonitorSection
    report: MonitorSection
    schedules: list[ScheduleRow]


def monitor_progress(*, run: Run, now: datetime | None = None) -> Progress:
    return stage_progress(run, MONITOR_STAGES, lambda key: msg.DESK_MONITOR_STAGES.get(key, key), now)


def monitor_panel(
    *, run: Run, view: monitor_selectors.MonitorView | None = None, now: datetime | None = None
) -> MonitorPanel:
    last_seq = shown_seq(run=run)  # first: it may re-read the run
    now = now or timezone.now()
    view = view or monitor_selectors.monitor_view(run=run)
    today = now.astimezone(formatters.KST).date()
    collapsed = view.skipped if run.kind == Run.Kind.CHECK else view.unchanged
    return MonitorPanel(
        run=run,
        view=view,
        progress=monitor_progress(run=run, now=now),
        items=[monitor_row(item=item, today=today) for item in view.items],
        collapsed=[monitor_row(item=item, today=today) for item in collapsed],
        window=formatters.window_label(view.window_start, view.window_end),
        last_seq=last_seq,
    )


def monitor_row(*, item: MonitorItem, today: date) -> MonitorRow:
    exclusive = item.category == MonitorItem.Category.EXCLUSIVE
    tags = [("exclusive", formatters.TAG_EXCLUSIVE)] if exclusive else []
    if item.action in _ACTION_TAGS:
        tags.append((item.action, _ACTION_TAGS[item.action]))
    title = item.title.strip()
    if exclusive and title.startswith(formatters.TAG_EXCLUSIVE):
        title = title[len(formatters.TAG_EXCLUSIVE) :].strip()  # no "[단독] [단독]"
    url = item.url or item.originallink
    return MonitorRow(
        category=item.category,
        action=item.action,
        tags=tags,
        publisher=formatters.publisher_label(item),
        title=title,
        url=url if urlsplit(url).scheme in ("http", "https") else "",
        time=formatters.time_label(item.pub_time, today),
        pub_time=item.pub_time,
        summary=item.summary,
        reason=item.reason,
        scraped=item.body_scraped,
        also=formatters.also_reported_line(item, today),
        id=item.pk,
    )


def monitor_home(*, reporter: Reporter) -> MonitorHome:
    return MonitorHome(
        check=monitor_section(reporter=reporter, kind=Run.Kind.CHECK),
        report=monitor_section(reporter=reporter, kind=Run.Kind.REPORT),
        schedules=schedule_rows(schedules=monitoring.schedule_list(reporter=reporter)),
    )


def monitor_section(*, reporter: Reporter, kind: str) -> MonitorSection:
    latest = monitor_selectors.latest_run(reporter=reporter, kind=kind)
    previous = None
    if latest is not None and latest.status != Run.Status.DONE:
        finished = monitor_selectors.latest_finished(reporter=reporter, kind=kind)
        previous = monitor_panel(run=finished.run, view=finished) if finished else None
    return MonitorSection(kind=kind, latest=monitor_panel(run=latest) if latest else None, previous=previous)


def schedule_rows(*, schedules: dict[str, list[str]]) -> list[ScheduleRow]:
    return [
        ScheduleRow(command=command, label=agent_msg.SCHEDULE_COMMAND_NAMES[command], times=times)
        for command, times in schedules.items()
    ]

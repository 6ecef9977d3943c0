"""Reads of monitoring results for the faces (web page, API, Telegram).

Every read starts from the reporter, and every read hides history older than
`MONITOR_RETENTION` (5 days) even before the hourly purge has deleted it.

`MonitorView` is what the web page and the Telegram formatters render: the run, its window and
counts, and its items split the way v1 displayed them —
- check: `items` (exclusive/important, newest first) and `skipped` (collapsed list);
- report: `items` (scenario A: the briefing; B: modified + added, newest first) and
  `unchanged` (B: the items already reported, collapsed list).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, datetime

from django.db.models import QuerySet

from agents.models import MonitorItem, MonitorResult, Run
from agents.monitoring.common import kst_day, retention_cutoff
from agents.reporters import ReporterLike
from agents.work.run_inputs import MonitorRunInput

MONITOR_KINDS = (Run.Kind.CHECK, Run.Kind.REPORT)


@dataclass(frozen=True)
class MonitorView:
    run: Run
    result: MonitorResult | None  # None while queued/running, or when the run failed
    items: list[MonitorItem] = field(default_factory=list)
    skipped: list[MonitorItem] = field(default_factory=list)
    unchanged: list[MonitorItem] = field(default_factory=list)

    @property
    def kind(self) -> str:
        return self.run.kind

    @property
    def department(self) -> str:
        if self.result and self.result.department:
            return self.result.department
        return MonitorRunInput.model_validate(self.run.input).department

    @property
    def window_start(self) -> datetime | None:
        return self.result.window_start if self.result else None

    @property
    def window_end(self) -> datetime | None:
        return self.result.window_end if self.result else None

    @property
    def day(self) -> date | None:
        """The KST day of the briefing (report) or of the check's window end."""
        if self.result is None:
            return None
        return self.result.day or kst_day(self.result.window_end)

    @property
    def scenario(self) -> str:
        return self.result.scenario if self.result else ""

    @property
    def filtered_out(self) -> int:
        return self.result.filtered_out if self.result else 0

    @property
    def analysed(self) -> int:
        return self.result.analysed if self.result else 0

    @property
    def total(self) -> int:
        """v1's "전체 N건" of a check: every returned item plus the pre-filter drops."""
        return len(self.items) + len(self.skipped) + self.filtered_out

    @property
    def modified_count(self) -> int:
        return sum(item.action == MonitorItem.Action.MODIFIED for item in self.items)

    @property
    def added_count(self) -> int:
        return sum(item.action == MonitorItem.Action.ADDED for item in self.items)


def run_get(*, reporter: ReporterLike, run_id: int) -> Run | None:
    """Any run of this reporter (another reporter's run is "not found")."""
    return Run.objects.filter(reporter_id=reporter.pk, pk=run_id).first()


def run_items(*, run: Run) -> QuerySet[MonitorItem]:
    """The items a check/report run delivered, in display order; none once expired."""
    return MonitorItem.objects.filter(run=run, created_at__gte=retention_cutoff()).order_by("position", "id")


def item_get(*, reporter: ReporterLike, item_id: int) -> MonitorItem | None:
    """One reported item of this reporter's (another reporter's, or an expired one, is "not found")."""
    return MonitorItem.objects.filter(
        reporter_id=reporter.pk, pk=item_id, created_at__gte=retention_cutoff()
    ).first()


def monitor_view(*, run: Run) -> MonitorView:
    """The run with its result and items split for display."""
    result = MonitorResult.objects.filter(run=run, created_at__gte=retention_cutoff()).first()
    items = list(run_items(run=run))
    if run.kind == Run.Kind.CHECK:
        return MonitorView(
            run=run,
            result=result,
            items=[i for i in items if i.category != MonitorItem.Category.SKIP],
            skipped=[i for i in items if i.category == MonitorItem.Category.SKIP],
        )
    return MonitorView(
        run=run,
        result=result,
        items=[i for i in items if i.action != MonitorItem.Action.UNCHANGED],
        unchanged=[i for i in items if i.action == MonitorItem.Action.UNCHANGED],
    )


def latest_run(*, reporter: ReporterLike, kind: str) -> Run | None:
    """The reporter's newest check or report run of the last 5 days, whatever its status."""
    return (
        Run.objects.filter(reporter_id=reporter.pk, kind=kind, created_at__gte=retention_cutoff())
        .order_by("-created_at", "-pk")
        .first()
    )


def latest_check(*, reporter: ReporterLike) -> MonitorView | None:
    run = latest_run(reporter=reporter, kind=Run.Kind.CHECK)
    return monitor_view(run=run) if run else None


def latest_report(*, reporter: ReporterLike) -> MonitorView | None:
    run = latest_run(reporter=reporter, kind=Run.Kind.REPORT)
    return monitor_view(run=run) if run else None


def latest_finished(*, reporter: ReporterLike, kind: str) -> MonitorView | None:
    """The newest *successful* run's view (the page shows it under a run still in progress)."""
    run = (
        Run.objects.filter(
            reporter_id=reporter.pk, kind=kind, status=Run.Status.DONE, created_at__gte=retention_cutoff()
        )
        .order_by("-created_at", "-pk")
        .first()
    )
    return monitor_view(run=run) if run else None

"""The /report pipeline: the department briefing of the KST day, scenario A or B.

window (since the last successful report, ≤ 3 h) → Naver search for the department's
`report_keywords` → publisher whitelist → articles analysed before dropped by URL →
`filter_news` → scrape → `submit_report` with 2 days of briefing history → back-mapping →
one transaction: today's briefing (ReportCache/ReportItem), the run's snapshot, figures,
`last_report_at`, run done.

Scenario A (no item yet today) selects stories; scenario B compares with today's items and
answers `modified` (item_id = the 항목 number shown) or `added`. Fixes of v1 bugs:
- an item_id is only a number from *this* prompt's list of this reporter's items of today; 0,
  an unknown number or a second modification of the same item makes the story `added`, so no
  other row can be written (v1 updated whatever row had that DB id) and nothing is dropped;
- a modified item takes the new article's title, link, outlet and time with its new summary
  (v1 kept the old headline and link next to the new summary);
- today's items are sent once, as existing_items, not also as history (v1 sent both, with
  contradicting instructions).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, timedelta

from django.db import transaction
from django.utils import timezone

from agents import messages as msg
from agents.llm import client as llm
from agents.models import MonitorItem, MonitorResult, ReportCache, ReportItem, Run
from agents.monitoring import analysis, clustering, common, material
from agents.monitoring.departments import DepartmentProfile
from agents.monitoring.mapping import Mapped, map_result
from agents.monitoring.material import BriefingHistory, Candidate, ExistingItem
from agents.sources.titles import is_exclusive
from agents.work import runs

log = logging.getLogger(__name__)
HISTORY_DAYS = 2  # v1: get_recent_report_items(days=2)


@dataclass
class Change:
    """One story the model reported: an update of `target`, or a new item when target is None."""

    mapped: Mapped
    summary: str
    reason: str
    exclusive: bool
    target: ReportItem | None = None


def run_report(*, run: Run, ctx: llm.CallContext, profile: DepartmentProfile) -> None:
    """Runs the whole pipeline for `run` and finishes it. Raises NaverError / LLMError."""
    reporter = run.reporter
    window = common.window_for(last_at=reporter.last_report_at, now=timezone.now())
    today = common.kst_day(window.end)
    existing = list(
        ReportItem.objects.filter(cache__reporter_id=reporter.pk, cache__day=today).order_by("position", "id")
    )
    keywords = profile.report_keywords
    common.stage(run, "search", msg.STAGE_REPORT_SEARCH.format(department=profile.name, count=len(keywords)))
    seen = common.seen_urls(
        reporter_id=reporter.pk, kind=Run.Kind.REPORT, since=window.end - timedelta(days=HISTORY_DAYS)
    )
    gathered = common.gather(keywords=keywords, since=window.start, seen=seen, check_titles=False)
    common.info(run, msg.MONITOR_FOUND.format(searched=gathered.searched, kept=len(gathered.items)))
    tally = common.Tally(searched=gathered.searched, candidates=len(gathered.items))
    # One event, one item: the model reads each group's earliest result; the others are listed.
    groups = clustering.group_candidates(common.as_candidates(gathered.items))
    candidates = [group.lead for group in groups]
    if candidates:
        common.stage(run, "filter", msg.STAGE_MONITOR_FILTER.format(count=len(candidates)))
        listing = material.filter_user(candidates)
        keep = analysis.filter_news(
            ctx=ctx, purpose="report_filter", profile=profile, listing=listing, count=len(candidates)
        )
        tally.filtered_out = len(candidates) - len(keep)
        candidates = [candidates[i] for i in keep]
    changes: list[Change] = []
    if candidates:
        candidates = common.scrape_for(run, candidates)
        common.stage(run, "analyze", msg.STAGE_REPORT_ANALYZE.format(count=len(candidates)))
        text = material.report_user(
            candidates=candidates,
            history=briefing_history(reporter_id=reporter.pk, today=today),
            existing=[ExistingItem(title=item.title, summary=item.summary) for item in existing],
        )
        result = analysis.submit_report(
            ctx=ctx,
            department=profile.name,
            material=text,
            count=len(candidates),
            update=bool(existing),
            today=today,
        )
        changes = plan_changes(result.results, candidates, existing)
    saved = _Save(run=run, window=window, today=today, department=profile.name, tally=tally, groups=groups)
    saved.commit(candidates=candidates, existing=existing, changes=changes)


def briefing_history(*, reporter_id: int, today: date) -> list[BriefingHistory]:
    """Items of the previous two briefing days, newest first (today's go in as existing_items)."""
    rows = (
        ReportItem.objects.filter(
            cache__reporter_id=reporter_id,
            cache__day__gte=today - timedelta(days=HISTORY_DAYS),
            cache__day__lt=today,
        )
        .select_related("cache")
        .order_by("-cache__day", "-created_at")
    )
    return [BriefingHistory(title=row.title, summary=row.summary, day=row.cache.day) for row in rows[:200]]


def plan_changes(
    results: Sequence[analysis.ReportResult], candidates: Sequence[Candidate], existing: Sequence[ReportItem]
) -> list[Change]:
    """Maps every result to its article and (scenario B) to the existing item it modifies."""
    changes: list[Change] = []
    used: set[str] = set()
    taken: set[int] = set()
    for entry in results:
        mapped = map_result(
            title=entry.title,
            source_indices=entry.source_indices,
            merged_indices=entry.merged_indices,
            candidates=candidates,
        )
        if mapped.candidate is not None:
            if mapped.candidate.url in used:
                log.info("report: dropping a second item for %s", mapped.candidate.url)
                continue
            used.add(mapped.candidate.url)
        target = None
        if getattr(entry, "action", "added") == "modified":
            target = _existing_target(int(getattr(entry, "item_id", 0)), existing, taken)
        tagged = mapped.candidate is not None and is_exclusive(mapped.candidate.title)
        changes.append(Change(mapped, entry.summary, entry.reason, entry.exclusive or tagged, target))
    return changes


def _existing_target(item_id: int, existing: Sequence[ReportItem], taken: set[int]) -> ReportItem | None:
    if not 1 <= item_id <= len(existing):
        log.warning(
            "report: item_id %s is not one of today's %d items; treated as added", item_id, len(existing)
        )
        return None
    item = existing[item_id - 1]
    if item.pk in taken:
        log.warning("report: item %s modified twice; the second one is treated as added", item_id)
        return None
    taken.add(item.pk)
    return item


@dataclass
class _Save:
    run: Run
    window: common.Window
    today: date
    department: str
    tally: common.Tally
    groups: Sequence[clustering.Group[Candidate]] = ()

    def commit(
        self, *, candidates: Sequence[Candidate], existing: list[ReportItem], changes: list[Change]
    ) -> None:
        update = bool(existing)
        with transaction.atomic():
            cache, _ = ReportCache.objects.get_or_create(reporter_id=self.run.reporter_id, day=self.today)
            cache.save(update_fields=["updated_at"])  # retention counts from the last use
            changed = [
                self._apply(change, cache, update, len(existing) + n) for n, change in enumerate(changes)
            ]
            changed.sort(key=common.newest_first)
            clustering.attach_others(changed, self.groups)
            modified = {change.target.pk for change in changes if change.target is not None}
            unchanged = [
                _snapshot(item, MonitorItem.Action.UNCHANGED) for item in existing if item.pk not in modified
            ]
            for position, item in enumerate(changed + unchanged):
                item.run, item.reporter_id, item.position = self.run, self.run.reporter_id, position
            MonitorItem.objects.bulk_create(changed + unchanged)
            self._result(candidates, update)
            reporter = self.run.reporter
            reporter.last_report_at = self.window.end  # only here, on success
            reporter.save(update_fields=["last_report_at"])
            runs.run_finish(run=self.run, message=self._done(update, changes, candidates))

    def _apply(self, change: Change, cache: ReportCache, update: bool, position: int) -> MonitorItem:
        item = change.target
        if item is None:
            item = ReportItem(cache=cache, position=position, created_run=self.run)
        _fill(item, change)
        item.updated_run = self.run
        item.save()
        if not update:
            action = MonitorItem.Action.NONE
        elif change.target is not None:
            action = MonitorItem.Action.MODIFIED
        else:
            action = MonitorItem.Action.ADDED
        return _snapshot(item, action)

    def _result(self, candidates: Sequence[Candidate], update: bool) -> None:
        MonitorResult.objects.create(
            run=self.run,
            window_start=self.window.start,
            window_end=self.window.end,
            day=self.today,
            department=self.department,
            scenario=MonitorResult.Scenario.UPDATE if update else MonitorResult.Scenario.FIRST,
            searched=self.tally.searched,
            candidates=self.tally.candidates,
            filtered_out=self.tally.filtered_out,
            analysed=len(candidates),
            not_scraped=sum(not c.scraped for c in candidates),
            seen_urls=common.urls_of(candidates),
        )

    @staticmethod
    def _done(update: bool, changes: list[Change], candidates: Sequence[Candidate]) -> str:
        if not candidates:
            return msg.REPORT_DONE_EMPTY
        modified = sum(change.target is not None for change in changes)
        if update:
            return msg.REPORT_DONE_UPDATE.format(modified=modified, added=len(changes) - modified)
        return msg.REPORT_DONE_FIRST.format(count=len(changes))


def _fill(item: ReportItem, change: Change) -> None:
    candidate = change.mapped.candidate
    item.title = common.clip(change.mapped.title, common.TITLE_CHARS)
    item.publisher = candidate.publisher if candidate else ""
    item.url = candidate.url if candidate else ""
    item.originallink = candidate.originallink if candidate else ""
    item.pub_time = candidate.pub_date if candidate else None
    item.summary = common.clip(change.summary)
    if change.reason.strip() or change.target is None:  # v1: an empty reason keeps the old one
        item.reason = common.clip(change.reason)
    item.exclusive = change.exclusive
    item.source_count = change.mapped.source_count
    item.source_urls = list(change.mapped.source_urls)
    item.body_scraped = candidate.scraped if candidate else True


def _snapshot(item: ReportItem, action: str) -> MonitorItem:
    return MonitorItem(
        kind=MonitorItem.Kind.REPORT,
        category=MonitorItem.Category.EXCLUSIVE if item.exclusive else MonitorItem.Category.IMPORTANT,
        action=action,
        title=item.title,
        publisher=item.publisher,
        url=item.url,
        originallink=item.originallink,
        pub_time=item.pub_time,
        summary=item.summary,
        reason=item.reason,
        source_count=item.source_count,
        source_urls=list(item.source_urls or []),
        body_scraped=item.body_scraped,
        report_item=item,
    )

"""The /check pipeline, step by step.

window (since the last successful check, ≤ 3 h) → Naver search for the reporter's keywords →
publisher whitelist → photo/video title tags → articles analysed before dropped by URL →
`filter_news` on title + description → scrape the survivors (800 characters; a failed page keeps
its description, flagged) → `submit_analysis` with 72 h of history (reported and skipped) →
back-mapping, title first → one transaction: items, figures, `last_check_at`, run done.

No result is written before that last transaction, so any failure (Naver, the model, a crash)
leaves the window where it was: the next check covers the same time again.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from datetime import datetime, timedelta

from django.db import transaction
from django.utils import timezone

from agents import messages as msg
from agents.llm import client as llm
from agents.models import MonitorItem, MonitorResult, Run
from agents.monitoring import analysis, clustering, common, material
from agents.monitoring.analysis import SubmitAnalysisInput
from agents.monitoring.departments import DepartmentProfile
from agents.monitoring.mapping import Mapped, map_result
from agents.monitoring.material import Candidate, CheckHistory
from agents.sources.titles import is_exclusive
from agents.work import runs

log = logging.getLogger(__name__)
HISTORY = timedelta(hours=72)  # v1: reported_articles of the last 72 h, skipped ones included


def run_check(*, run: Run, ctx: llm.CallContext, profile: DepartmentProfile, keywords: Sequence[str]) -> None:
    """Runs the whole pipeline for `run` and finishes it. Raises NaverError / LLMError."""
    reporter = run.reporter
    window = common.window_for(last_at=reporter.last_check_at, now=timezone.now())
    since_label = window.start.astimezone(common.KST).strftime("%H:%M")
    common.stage(run, "search", msg.STAGE_CHECK_SEARCH.format(count=len(keywords), since=since_label))
    seen = common.seen_urls(reporter_id=reporter.pk, kind=Run.Kind.CHECK, since=window.end - HISTORY)
    gathered = common.gather(keywords=keywords, since=window.start, seen=seen, check_titles=True)
    common.info(run, msg.MONITOR_FOUND.format(searched=gathered.searched, kept=len(gathered.items)))
    tally = common.Tally(searched=gathered.searched, candidates=len(gathered.items))
    # One event, one item: the model reads each group's earliest result; the others are listed.
    groups = clustering.group_candidates(common.as_candidates(gathered.items))
    candidates = [group.lead for group in groups]
    if candidates:
        common.stage(run, "filter", msg.STAGE_MONITOR_FILTER.format(count=len(candidates)))
        keep = analysis.filter_news(
            ctx=ctx,
            purpose="check_filter",
            profile=profile,
            listing=material.filter_user(candidates),
            count=len(candidates),
            keywords=keywords,
        )
        tally.filtered_out = len(candidates) - len(keep)
        candidates = [candidates[i] for i in keep]
    items: list[MonitorItem] = []
    if candidates:
        candidates = common.scrape_for(run, candidates)
        common.stage(run, "analyze", msg.STAGE_CHECK_ANALYZE.format(count=len(candidates)))
        history = check_history(reporter_id=reporter.pk, now=window.end)
        result = analysis.submit_analysis(
            ctx=ctx,
            department=profile.name,
            keywords=keywords,
            material=material.analysis_user(candidates=candidates, history=history, keywords=keywords),
            count=len(candidates),
            today=common.kst_day(window.end),
        )
        items = build_items(result, candidates)
        clustering.attach_others(items, groups)
    _save(run=run, window=window, tally=tally, department=profile.name, candidates=candidates, items=items)


def check_history(*, reporter_id: int, now: datetime) -> list[CheckHistory]:
    """The last 72 h of /check items (reported and skipped), newest first — the model's memory."""
    rows = MonitorItem.objects.filter(
        reporter_id=reporter_id,
        kind=MonitorItem.Kind.CHECK,
        created_at__gte=now - HISTORY,
    ).order_by("-created_at", "position")
    return [
        CheckHistory(
            checked_at=row.created_at,
            topic_cluster=row.topic_cluster or row.title,
            summary=row.summary,
            category=row.category,
            reason=row.reason,
        )
        for row in rows[:300]
    ]


def build_items(result: SubmitAnalysisInput, candidates: Sequence[Candidate]) -> list[MonitorItem]:
    """Reported items newest first, then skipped ones; one item per article at most."""
    used: set[str] = set()
    reported: list[MonitorItem] = []
    for entry in result.results:
        mapped = map_result(
            title=entry.title,
            source_indices=entry.source_indices,
            merged_indices=entry.merged_indices,
            candidates=candidates,
        )
        if _duplicate(mapped, used):
            continue
        tagged = mapped.candidate is not None and is_exclusive(mapped.candidate.title)
        exclusive = entry.category == "exclusive" or tagged
        category = MonitorItem.Category.EXCLUSIVE if exclusive else MonitorItem.Category.IMPORTANT
        reported.append(_item(mapped, category, entry.topic_cluster, entry.summary, entry.reason))
    reported.sort(key=common.newest_first)
    used.update(url for item in reported for url in item.source_urls)  # merged ones are not skipped
    skipped: list[MonitorItem] = []
    for skip in result.skipped:
        mapped = map_result(
            title=skip.title, source_indices=skip.source_indices, merged_indices=[], candidates=candidates
        )
        if _duplicate(mapped, used):
            continue  # a merged article listed again under skipped (v1 says it must not be)
        skipped.append(_item(mapped, MonitorItem.Category.SKIP, skip.topic_cluster, "", skip.reason))
    return reported + skipped


def _duplicate(mapped: Mapped, used: set[str]) -> bool:
    if mapped.candidate is None:
        return False
    key = mapped.candidate.url
    if key in used:
        log.info("check: dropping a second item for %s", key)
        return True
    used.add(key)
    return False


def _item(mapped: Mapped, category: str, topic: str, summary: str, reason: str) -> MonitorItem:
    candidate = mapped.candidate
    return MonitorItem(
        kind=MonitorItem.Kind.CHECK,
        category=category,
        topic_cluster=common.clip(topic, 200),
        title=common.clip(mapped.title, common.TITLE_CHARS),
        publisher=candidate.publisher if candidate else "",
        url=candidate.url if candidate else "",
        originallink=candidate.originallink if candidate else "",
        pub_time=candidate.pub_date if candidate else None,
        summary=common.clip(summary),
        reason=common.clip(reason),
        source_count=mapped.source_count,
        source_urls=list(mapped.source_urls),
        body_scraped=candidate.scraped if candidate else True,
    )


def _save(
    *,
    run: Run,
    window: common.Window,
    tally: common.Tally,
    department: str,
    candidates: Sequence[Candidate],
    items: list[MonitorItem],
) -> None:
    important = sum(item.category != MonitorItem.Category.SKIP for item in items)
    with transaction.atomic():
        MonitorResult.objects.create(
            run=run,
            window_start=window.start,
            window_end=window.end,
            department=department,
            searched=tally.searched,
            candidates=tally.candidates,
            filtered_out=tally.filtered_out,
            analysed=len(candidates),
            not_scraped=sum(not c.scraped for c in candidates),
            seen_urls=common.urls_of(candidates),
        )
        for position, item in enumerate(items):
            item.run, item.reporter_id, item.position = run, run.reporter_id, position
        MonitorItem.objects.bulk_create(items)
        reporter = run.reporter
        reporter.last_check_at = window.end  # only here, on success (v1: failures keep the window)
        reporter.save(update_fields=["last_check_at"])
        total = len(items) + tally.filtered_out
        done = msg.CHECK_DONE.format(important=important, total=total) if items else msg.CHECK_DONE_EMPTY
        runs.run_finish(run=run, message=done)

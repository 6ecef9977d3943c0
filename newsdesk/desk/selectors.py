"""What the desk pages show, read from the agents' rows. Every read starts from the reporter."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime
from decimal import Decimal
from typing import Any
from urllib.parse import urlsplit

from django.conf import settings
from django.db.models import Max
from django.utils import timezone
from django.utils.safestring import SafeString

from agents import catalog
from agents import messages as agent_msg
from agents import selectors as agent_selectors
from agents.models import Article, MonitorItem, Run, RunEvent
from agents.monitoring import selectors as monitor_selectors
from agents.monitoring.schedules import schedule_list
from agents.runs import DRAFT_STAGES, STAGES
from newsdesk import messages as msg
from newsdesk.desk import diff
from newsdesk.desk.presenters.provenance import Trace, trace_of
from newsdesk.desk.presenters.verify import (
    FLAGGED,
    ClaimGroup,
    ClaimRow,
    claim_groups,
    claim_rows,
    claims_by_sentence,
    ordered,
    sentence_texts,
)
from newsdesk.models import Reporter
from newsdesk.telegram import formatters
from styles.lint import position_label

REVISION_LIMIT = 50  # a runaway edit chain must not turn one page view into hundreds of queries


# --- progress -------------------------------------------------------------------------------
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


def run_mode(run: Run) -> str:
    """draft | edit | verify: which pipeline the run goes through."""
    if run.kind == Run.Kind.EDIT:
        return "edit"
    return "verify" if run.input.get("mode") == "verify" else "draft"


def stages_of(run: Run) -> list[str]:
    return {"edit": ["write", "done"], "verify": ["verify", "done"]}.get(run_mode(run), DRAFT_STAGES)


def progress_of(*, run: Run, now: datetime | None = None) -> Progress:
    return _progress(run, stages_of(run), lambda key: _stage_label(run, key), now)


def _progress(run: Run, keys: list[str], label: Callable[[str], str], now: datetime | None) -> Progress:
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
    return STAGES.get(key, key)


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


# --- result ---------------------------------------------------------------------------------
@dataclass(frozen=True)
class DiffView:
    html: SafeString
    changed: bool


@dataclass(frozen=True)
class SourceLink:
    title: str
    url: str  # "" unless http(s): a javascript: URL from the model must never become a link


@dataclass(frozen=True)
class Cost:
    mode: str
    draft_seconds: str
    verify_seconds: str
    llm_calls: int
    cost_usd: str
    model: str = ""  # the label of the model that wrote it ("" for articles from before it was kept)
    style: str = ""


@dataclass(frozen=True)
class RevisionLink:
    run_id: int
    revision: int
    instruction: str
    current: bool
    pending: bool = False


@dataclass(frozen=True)
class LintRow:
    rule: str
    text: str
    position: str  # "2문단 15번째 글자"
    suggestion: str
    fixable: bool  # "고쳐줘" fixes it in code


def lint_rows(*, article: Article) -> list[LintRow]:
    return [
        LintRow(
            h.rule, h.text, position_label(article.body, h.start), h.suggestion, h.replacement is not None
        )
        for h in agent_selectors.article_lint(article=article)
    ]


@dataclass(frozen=True)
class Result:
    article: Article
    parent: Article | None
    claims: list[ClaimRow]
    groups: list[ClaimGroup]  # the same claims grouped by sentence, problems first
    flagged: int
    verify_diff: DiffView  # draft body → final body, cuts linked to claims
    revision_diff: DiffView | None  # previous revision's body → this body
    headline_diff: DiffView | None
    sources: list[SourceLink]
    cost: Cost
    revisions: list[RevisionLink]
    lint: list[LintRow] = field(default_factory=list)
    trace: Trace | None = None  # sentence provenance beside the sources


@dataclass(frozen=True)
class DraftPage:
    run: Run
    mode: str
    progress: Progress
    result: Result | None
    last_seq: int = 0  # the newest event shown: the long poll waits for one past it


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


def draft_page(*, reporter: Reporter, run: Run) -> DraftPage:
    article = agent_selectors.article_of(run) if run.status == Run.Status.DONE else None
    result = result_of(reporter=reporter, run=run, article=article) if article else None
    return DraftPage(
        run=run,
        mode=run_mode(run),
        progress=progress_of(run=run),
        result=result,
        last_seq=0 if run.is_finished else last_event_seq(run=run),
    )


def result_of(*, reporter: Reporter, run: Run, article: Article) -> Result:
    prefix = f"a{article.pk}"
    claims = claim_rows(issues=ordered(article.issues.all()), anchor_prefix=prefix)
    texts = sentence_texts(headline=article.headline, body=article.draft_body)
    parent = article.parent
    segments = diff.link_claims(
        diff.word_diff(article.draft_body, article.body), claims_by_sentence(claims=claims)
    )
    revision_diff = headline_diff = None
    if parent is not None:
        revision_diff = _diff_view(diff.word_diff(parent.body, article.body), "")
        if parent.headline != article.headline:
            headline_diff = _diff_view(diff.word_diff(parent.headline, article.headline), "")
    return Result(
        article=article,
        parent=parent,
        claims=claims,
        groups=claim_groups(claims=claims, texts=texts),
        flagged=sum(1 for c in claims if c.status in FLAGGED),
        verify_diff=_diff_view(segments, prefix),
        revision_diff=revision_diff,
        headline_diff=headline_diff,
        sources=source_links(sources=article.sources),
        cost=cost_of(run=run),
        revisions=revisions_of(reporter=reporter, article=article),
        lint=lint_rows(article=article),
        trace=trace_of(provenance=article.provenance, material=article.source_material),
    )


def _diff_view(segments: list[diff.Segment], prefix: str) -> DiffView:
    return DiffView(html=diff.render_diff(segments, anchor_prefix=prefix), changed=diff.has_changes(segments))


def source_links(*, sources: Sequence[Any]) -> list[SourceLink]:
    links = []
    for source in sources:
        if not isinstance(source, dict):
            continue
        url = str(source.get("url") or "")
        safe = url if urlsplit(url).scheme in ("http", "https") else ""
        links.append(SourceLink(title=str(source.get("title") or url), url=safe))
    return links


def cost_of(*, run: Run) -> Cost:
    usage = agent_selectors.run_usage(run=run)
    timings = run.timings or {}
    article = agent_selectors.article_of(run)
    return Cost(
        mode=run_mode(run),
        draft_seconds=_seconds(timings.get("draft_seconds")),
        verify_seconds=_seconds(timings.get("verify_seconds")),
        llm_calls=usage.llm_calls,
        cost_usd=_dollars(usage.cost_usd),
        model=catalog.label_for(article.model) if article and article.model else "",
        style=article.style if article else "",
    )


def _seconds(value: Any) -> str:
    seconds = float(value or 0)
    return str(round(seconds)) if seconds >= 1 else f"{seconds:.1f}"


def _dollars(cost: Decimal) -> str:
    if cost and cost < Decimal("0.001"):
        return f"{cost:.4f}"
    return f"{cost:.3f}"


def revisions_of(*, reporter: Reporter, article: Article) -> list[RevisionLink]:
    """Every revision of the article's family (ancestors, itself, later edits), plus edits under way."""
    family = [*_ancestors(reporter, article), article, *_descendants(reporter, article)]
    links = [RevisionLink(a.run_id, a.revision, a.instruction, a.pk == article.pk) for a in family]
    pending = Run.objects.filter(
        reporter=reporter, parent_article=article, status__in=(Run.Status.QUEUED, Run.Status.RUNNING)
    ).only("id", "input")
    links += [
        RevisionLink(r.pk, article.revision + 1, r.input.get("instruction", ""), False, True) for r in pending
    ]
    return links if len(links) > 1 else []


def _ancestors(reporter: Reporter, article: Article) -> list[Article]:
    chain: list[Article] = []
    parent_id = article.parent_id
    while parent_id is not None and len(chain) < REVISION_LIMIT:
        parent = Article.objects.filter(reporter=reporter, pk=parent_id).only(*_LINK_FIELDS).first()
        if parent is None:
            break
        chain.insert(0, parent)
        parent_id = parent.parent_id
    return chain


def _descendants(reporter: Reporter, article: Article) -> list[Article]:
    found: list[Article] = []
    frontier = [article.pk]
    while frontier and len(found) < REVISION_LIMIT:
        children = list(
            Article.objects.filter(reporter=reporter, parent_id__in=frontier)
            .only(*_LINK_FIELDS)
            .order_by("revision", "created_at")
        )
        found += children
        frontier = [child.pk for child in children]
    return sorted(found, key=lambda a: (a.revision, a.created_at))


_LINK_FIELDS = ("id", "run_id", "parent_id", "revision", "instruction", "created_at")


# --- lists and profile ------------------------------------------------------------------------
@dataclass(frozen=True)
class DraftRow:
    run: Run
    mode: str
    article: Article | None


def draft_rows(*, reporter: Reporter, limit: int = 50) -> list[DraftRow]:
    runs = agent_selectors.draft_list(reporter=reporter, limit=limit)
    return [DraftRow(run=run, mode=run_mode(run), article=agent_selectors.article_of(run)) for run in runs]


def can_use_model(*, reporter: Reporter) -> bool:
    """Whether a model call has a key to use: the reporter's own, or the server's fallback."""
    return reporter.has_anthropic_key or bool(settings.ANTHROPIC_API_KEY)


# --- monitoring (/check and /report results) --------------------------------------------------
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


@dataclass(frozen=True)
class MonitorPanel:
    """A check or report run: its live progress while it goes, its result once it is done."""

    run: Run
    view: monitor_selectors.MonitorView
    progress: Progress
    items: list[MonitorRow]
    collapsed: list[MonitorRow]  # skipped items (check) or already-reported ones (report)
    window: str

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
    return _progress(run, MONITOR_STAGES, lambda key: msg.DESK_MONITOR_STAGES.get(key, key), now)


def monitor_panel(
    *, run: Run, view: monitor_selectors.MonitorView | None = None, now: datetime | None = None
) -> MonitorPanel:
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
    )


def monitor_row(*, item: MonitorItem, today: date) -> MonitorRow:
    exclusive = item.category == MonitorItem.Category.EXCLUSIVE
    tags = [("exclusive", formatters.TAG_EXCLUSIVE)] if exclusive else []
    if item.action in _ACTION_TAGS:
        tags.append((item.action, _ACTION_TAGS[item.action]))
    title = item.title.strip()
    if exclusive and title.startswith(formatters.TAG_EXCLUSIVE):
        title = title[len(formatters.TAG_EXCLUSIVE) :].strip()  # no "[단독] [단독]" (v1 ba71b0b)
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
    )


def monitor_home(*, reporter: Reporter) -> MonitorHome:
    return MonitorHome(
        check=monitor_section(reporter=reporter, kind=Run.Kind.CHECK),
        report=monitor_section(reporter=reporter, kind=Run.Kind.REPORT),
        schedules=schedule_rows(schedules=schedule_list(reporter=reporter)),
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

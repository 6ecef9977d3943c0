"""What the draft pages show: a run's result, its cost and revisions, and the list of drafts."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any
from urllib.parse import urlsplit

from django.conf import settings
from django.utils.safestring import SafeString

from agents import selectors as agent_selectors
from agents.models import Article, Run
from agents.monitoring import selectors as monitor_selectors
from newsdesk.desk import diff
from newsdesk.desk.presenters.progress import Progress, progress_of, shown_seq
from newsdesk.desk.presenters.provenance import Trace, trace_of
from newsdesk.desk.presenters.verify import (
    ClaimGroup,
    ClaimRow,
    claim_groups,
    claim_rows,
    claims_by_sentence,
    ordered,
    sentence_texts,
)
from newsdesk.models import Reporter
from styles.lint import position_label

REVISION_LIMIT = 50  # a runaway edit chain must not turn one page view into hundreds of queries


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
    embargo: str = ""  # "보도 가능: … 이후" while the release is embargoed, "" once it has passed
    needs_check: int = 0  # suspect claims kept for the reporter to check ("확인 필요")


@dataclass(frozen=True)
class DraftPage:
    run: Run
    mode: str
    progress: Progress
    result: Result | None
    last_seq: int = 0  # the newest event shown: the long poll waits for one past it


def draft_page(*, reporter: Reporter, run: Run) -> DraftPage:
    last_seq = shown_seq(run=run)  # first: it may re-read the run
    article = agent_selectors.article_of(run) if run.status == Run.Status.DONE else None
    result = result_of(reporter=reporter, run=run, article=article) if article else None
    return DraftPage(
        run=run,
        mode=agent_selectors.run_mode(run=run),
        progress=progress_of(run=run),
        result=result,
        last_seq=last_seq,
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
        flagged=sum(1 for c in claims if c.flagged),
        needs_check=sum(1 for c in claims if c.needs_check),
        verify_diff=_diff_view(segments, prefix),
        revision_diff=revision_diff,
        headline_diff=headline_diff,
        sources=source_links(sources=article.sources),
        cost=cost_of(run=run),
        revisions=revisions_of(reporter=reporter, article=article),
        lint=lint_rows(article=article),
        trace=trace_of(provenance=article.provenance, material=article.source_material),
        embargo=agent_selectors.article_embargo_notice(article=article),
    )


def _diff_view(segments: list[diff.Segment], prefix: str) -> DiffView:
    return DiffView(html=diff.render_diff(segments, anchor_prefix=prefix), changed=diff.has_changes(segments))


@dataclass(frozen=True)
class FollowUp:
    """The monitor item a new draft follows up (shown above the form)."""

    id: int
    outlet: str
    title: str
    url: str  # "" unless http(s)
    summary: str


def follow_up(*, reporter: Reporter, item_id: int) -> FollowUp | None:
    item = monitor_selectors.item_get(reporter=reporter, item_id=item_id)
    if item is None:
        return None
    url = item.originallink or item.url
    return FollowUp(
        id=item.pk,
        outlet=item.publisher,
        title=item.title,
        url=url if urlsplit(url).scheme in ("http", "https") else "",
        summary=item.summary,
    )


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
        mode=agent_selectors.run_mode(run=run),
        draft_seconds=_seconds(timings.get("draft_seconds")),
        verify_seconds=_seconds(timings.get("verify_seconds")),
        llm_calls=usage.llm_calls,
        cost_usd=_dollars(usage.cost_usd),
        model=agent_selectors.model_label(model=article.model) if article and article.model else "",
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


@dataclass(frozen=True)
class DraftRow:
    run: Run
    mode: str
    article: Article | None


def draft_rows(*, reporter: Reporter, limit: int = 50) -> list[DraftRow]:
    runs = agent_selectors.draft_list(reporter=reporter, limit=limit)
    return [
        DraftRow(run=run, mode=agent_selectors.run_mode(run=run), article=agent_selectors.article_of(run))
        for run in runs
    ]


def can_use_model(*, reporter: Reporter) -> bool:
    """Whether a model call has a key to use: the reporter's own, or the server's fallback."""
    return reporter.has_anthropic_key or bool(settings.ANTHROPIC_API_KEY)

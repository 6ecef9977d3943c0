"""Reads for the faces. Every query starts from the reporter: another reporter's run is "not found"."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from decimal import Decimal
from typing import Any

from django.db.models import Count, QuerySet, Sum
from django.db.models.functions import Coalesce, TruncDate
from django.utils import timezone

from agents.facts.attribution import source_kind, source_outlet, with_kinds
from agents.facts.embargo import embargo_until, is_embargoed, publish_label
from agents.llm import catalog
from agents.models import Article, LLMCall, Run, RunEvent
from agents.reporters import ReporterLike
from agents.verification.guard import Sentence, normalize_body, split_sentences
from agents.verification.summary import Summary, summary
from agents.work.run_inputs import is_verify
from agents.work.runs import DRAFT_STAGES
from styles.lint import Hit
from styles.selectors import lint_body

DRAFT_KINDS = (Run.Kind.DRAFT, Run.Kind.EDIT)


def runs_of(*, reporter: ReporterLike) -> QuerySet[Run]:
    return Run.objects.filter(reporter_id=reporter.pk)


def draft_get(*, reporter: ReporterLike, run_id: int) -> Run | None:
    return (
        runs_of(reporter=reporter)
        .filter(pk=run_id, kind__in=DRAFT_KINDS)
        .select_related("article", "parent_article")
        .first()
    )


def draft_list(*, reporter: ReporterLike, limit: int = 50) -> QuerySet[Run]:
    return (
        runs_of(reporter=reporter)
        .filter(kind__in=DRAFT_KINDS)
        .select_related("article")
        .order_by("-created_at")[:limit]
    )


def job_active(*, reporter: ReporterLike) -> bool:
    """One job per reporter: any unfinished run counts (drafts, edits, checks, briefings)."""
    return runs_of(reporter=reporter).filter(status__in=[Run.Status.QUEUED, Run.Status.RUNNING]).exists()


def article_get(*, reporter: ReporterLike, article_id: int) -> Article | None:
    return Article.objects.filter(pk=article_id, reporter_id=reporter.pk).first()


def article_of(run: Run) -> Article | None:
    try:
        return run.article
    except Article.DoesNotExist:
        return None


def events_after(*, run: Run, after: int = 0) -> QuerySet[RunEvent]:
    return run.events.filter(seq__gt=after).order_by("seq")


@dataclass(frozen=True)
class RunUsage:
    llm_calls: int
    input_tokens: int
    output_tokens: int
    cache_read_input_tokens: int
    cache_creation_input_tokens: int
    cost_usd: Decimal

    def as_dict(self) -> dict[str, Any]:
        return {**self.__dict__, "cost_usd": float(self.cost_usd)}


def run_usage(*, run: Run) -> RunUsage:
    totals = LLMCall.objects.filter(run=run).aggregate(
        llm_calls=Count("id"),
        input_tokens=Coalesce(Sum("input_tokens"), 0),
        output_tokens=Coalesce(Sum("output_tokens"), 0),
        cache_read_input_tokens=Coalesce(Sum("cache_read_input_tokens"), 0),
        cache_creation_input_tokens=Coalesce(Sum("cache_creation_input_tokens"), 0),
        cost_usd=Coalesce(Sum("cost_usd"), Decimal(0)),
    )
    return RunUsage(**totals)


@dataclass(frozen=True)
class ModelCost:
    model: str
    llm_calls: int
    cost_usd: Decimal


def daily_cost_by_model(*, reporter: ReporterLike, day: date) -> list[ModelCost]:
    """A reporter's model calls on one (local) day, per model, dearest first."""
    rows = (
        LLMCall.objects.filter(reporter_id=reporter.pk, created_at__date=day)
        .values("model")
        .annotate(llm_calls=Count("id"), cost_usd=Coalesce(Sum("cost_usd"), Decimal(0)))
        .order_by("-cost_usd", "model")
    )
    return [ModelCost(**row) for row in rows]


@dataclass(frozen=True)
class Spend:
    llm_calls: int
    cost_usd: Decimal


def reporter_spend(*, reporter_id: int, since: datetime) -> Spend:
    """Every model call paid for by this reporter since `since`, in runs or not (routing, replies)."""
    totals = LLMCall.objects.filter(reporter_id=reporter_id, created_at__gte=since).aggregate(
        llm_calls=Count("id"), cost_usd=Coalesce(Sum("cost_usd"), Decimal(0))
    )
    return Spend(**totals)


def spend_today_and_month(*, reporter_id: int) -> tuple[Spend, Spend]:
    """Today's and this month's spend, by the newsroom's calendar (TIME_ZONE, KST)."""
    now = timezone.localtime()
    day = now.replace(hour=0, minute=0, second=0, microsecond=0)
    return (
        reporter_spend(reporter_id=reporter_id, since=day),
        reporter_spend(reporter_id=reporter_id, since=day.replace(day=1)),
    )


def daily_usage(*, days: int = 31) -> list[dict[str, Any]]:
    """Per reporter, KST day and model: calls, tokens and dollars, newest day first (for the admin)."""
    since = timezone.localtime().replace(hour=0, minute=0, second=0, microsecond=0) - timedelta(days=days - 1)
    rows = (
        LLMCall.objects.filter(created_at__gte=since)
        .annotate(day=TruncDate("created_at", tzinfo=timezone.get_current_timezone()))
        .values("day", "reporter_id", "reporter__display_name", "reporter__user__username", "model")
        .annotate(
            calls=Count("id"),
            input_tokens=Coalesce(Sum("input_tokens"), 0),
            output_tokens=Coalesce(Sum("output_tokens"), 0),
            cost_usd=Coalesce(Sum("cost_usd"), Decimal(0)),
        )
        .order_by("-day", "-cost_usd")
    )
    return [{**row, "model_label": catalog.label_for(row["model"])} for row in rows]


def article_provenance(*, article: Article) -> list[dict[str, Any]]:
    """The sentences and their spans, each span with its source's kind (rows saved before spans
    carried one get it from the stored material)."""
    return with_kinds(article.provenance, article.source_material)


def source_kinds(*, material: Sequence[dict[str, Any]]) -> list[tuple[str, str]]:
    """(kind, outlet) of every stored source, in order: outlet is "" but for articles."""
    return [(source_kind(doc), source_outlet(doc)) for doc in material]


def article_lint(*, article: Article) -> list[Hit]:
    """The house-style lint list of an article's body, with the rules as they stand now."""
    return lint_body(body=article.body, department=article.department, reporter_id=article.reporter_id)


def verification_summary(*, article: Article) -> Summary:
    """What the fact check of `article` counted: kinds checked, confirmed, flagged, cut."""
    return summary(article.issues.all())


def model_label(*, model: str) -> str:
    """The name a reporter knows a model by (its id when the table does not list it)."""
    return catalog.label_for(model)


def default_model_label(*, department: str) -> str:
    return catalog.label_for(catalog.default_model(department=department))


def model_of(*, reporter: ReporterLike) -> str:
    """The model the reporter's next draft uses: their choice while it is offered, else the default."""
    return catalog.model_for(chosen=reporter.llm_model, department=reporter.department)


def run_mode(*, run: Run) -> str:
    """draft | edit | verify: which pipeline the run goes through (a verify-only check is a draft
    run whose input says so)."""
    if run.kind == Run.Kind.EDIT:
        return "edit"
    return "verify" if is_verify(run.input) else "draft"


def run_stages(*, run: Run) -> list[str]:
    """The stages a draft, edit or verify-only run passes through, in order."""
    return {"edit": ["write", "done"], "verify": ["verify", "done"]}.get(run_mode(run=run), DRAFT_STAGES)


def body_normalized(*, body: str) -> str:
    """The body as verification reads it: lines stripped, one blank line between paragraphs."""
    return normalize_body(body)


def body_sentences(*, body: str) -> list[Sentence]:
    """The body's sentences numbered as verification numbers them (1-based, with their paragraph):
    an issue names its sentence by this number, so a face linking the two splits text here."""
    return split_sentences(body)


def article_embargo_notice(*, article: Article, now: datetime | None = None) -> str:
    """The line "보도 가능: 12월 1일(월) 06:00 이후" while the article's release is embargoed; "" once the
    moment has passed, or when there is none."""
    moment = timezone.now() if now is None else now
    if not is_embargoed(article.embargo, now=moment):
        return ""
    until = embargo_until(article.embargo)
    return publish_label(until) if until else ""

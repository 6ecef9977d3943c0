"""Verify-only: a reporter's own article against their sources (code guard at once; with a key,
the model check as a queued run)."""

from __future__ import annotations

import time
from collections.abc import Sequence
from datetime import date

from django.utils import timezone

from agents import messages as msg
from agents.drafting.material import SourceDoc, article_length
from agents.llm import client as llm
from agents.models import Article, Run
from agents.reporters import ReporterLike
from agents.services.common import InputError, done_message, queue_run, require_api_key, save_issues
from agents.services.tracing import outlets_credited, traced
from agents.verification.verify import Verification, verify_article
from agents.work import runs
from agents.work.run_inputs import VerifyRunInput

VERIFY_ARTICLE_LIMIT = 20_000
VERIFY_SOURCES_LIMIT = 20
VERIFY_SOURCES_CHARS = 200_000


def verify_material(*, article: str, sources: Sequence[str]) -> tuple[str, list[SourceDoc]]:
    """Validates a reporter's own article and sources; returns the article and numbered sources."""
    article = article.strip()
    texts = [s for s in (src.strip() for src in sources) if s]
    if not article:
        raise InputError(msg.VERIFY_ARTICLE_EMPTY, field="article")
    if len(article) > VERIFY_ARTICLE_LIMIT:
        raise InputError(msg.VERIFY_ARTICLE_TOO_LONG.format(limit=VERIFY_ARTICLE_LIMIT), field="article")
    if not texts:
        raise InputError(msg.VERIFY_SOURCES_EMPTY, field="sources")
    if len(texts) > VERIFY_SOURCES_LIMIT or sum(map(len, texts)) > VERIFY_SOURCES_CHARS:
        message = msg.VERIFY_TOO_MANY_SOURCES.format(limit=VERIFY_SOURCES_LIMIT, chars=VERIFY_SOURCES_CHARS)
        raise InputError(message, field="sources")
    return article, [SourceDoc("press_release", f"자료 {n}", text) for n, text in enumerate(texts, start=1)]


def verify_by_code(*, article: str, sources: Sequence[str], reference: date | None = None) -> Verification:
    """The code guard alone, at once: no model, no key. Flagged sentences are cut from the body.

    `reference` is the day of writing that relative dates (지난달, 오는 15일) are read against."""
    body, material = verify_material(article=article, sources=sources)
    reference = reference or timezone.localdate()
    return verify_article(ctx=None, headline="", body=body, material=material, reference=reference)


def verify_create(
    *,
    reporter: ReporterLike,
    article: str,
    sources: Sequence[str],
    headline: str = "",
    channel: str = Run.Channel.WEB,
) -> Run:
    """Queues the full check (code guard + model) of a reporter's own article."""
    body, _ = verify_material(article=article, sources=sources)
    require_api_key(reporter=reporter)
    data = VerifyRunInput(
        headline=headline.strip()[:200], article=body, sources=list(sources), department=reporter.department
    )
    return queue_run(reporter=reporter, kind=Run.Kind.DRAFT, channel=channel, input=data.stored())


def verify_execute(*, run: Run) -> Article:
    reporter = run.reporter
    ctx = llm.reporter_context(reporter=reporter, run_id=run.pk)
    data = VerifyRunInput.model_validate(run.input)
    body, material = verify_material(article=data.article, sources=data.sources)
    material = _with_meta(material, data.source_meta)
    headline = data.headline or msg.VERIFY_HEADLINE
    runs.stage_set(run=run, stage="verify", message=msg.STAGE_VERIFY)
    started = time.monotonic()
    check = verify_article(
        ctx=ctx, headline=headline, body=body, material=material, reference=timezone.localdate()
    )
    run.timings = {"draft_seconds": 0, "verify_seconds": round(time.monotonic() - started, 2)}
    stored = [doc.to_json() for doc in material]
    check.body = outlets_credited(body=check.body, material=stored, warnings=check.warnings)

    def save() -> Article:
        article = Article.objects.create(
            run=run,
            reporter=reporter,
            department=data.department or reporter.department,
            headline=check.headline or headline,
            draft_body=body,
            body=check.body,
            verdict=check.verdict,
            sources=data.listed,
            source_material=stored,
            length=article_length(check.body),
            warnings=check.warnings,
            **traced(headline=check.headline or headline, body=check.body, material=stored),
        )
        save_issues(article, check.issues)
        return article

    return runs.finish_with(run=run, message=done_message(check.verdict, check.issues), save=save)


VERIFY_UNFINISHED = "verify_unfinished"  # Run.error_code of a delivered draft whose check did not finish


def verification_again(*, reporter: ReporterLike, article: Article, channel: str) -> Run:
    """Checks a written article again without rewriting it: a verify-only run on its draft body and
    its source material (for a draft whose verification did not finish, or any finished article)."""
    if article.reporter_id != reporter.pk:
        raise InputError(msg.ARTICLE_NOT_FOUND, status=404)
    require_api_key(reporter=reporter)
    kept = [doc for doc in article.source_material if str(doc.get("text") or "").strip()]
    sources = [str(doc["text"]) for doc in kept]
    body, _ = verify_material(article=article.draft_body or article.body, sources=sources)
    return queue_run(
        reporter=reporter,
        kind=Run.Kind.DRAFT,
        channel=channel,
        input=VerifyRunInput(
            article=body,
            sources=sources,
            headline=article.headline,
            department=article.department,
            source_meta=[{key: str(doc.get(key) or "") for key in META_KEYS} for doc in kept],
            listed=list(article.sources),
        ).stored(),
    )


META_KEYS = ("kind", "title", "url", "outlet")


def _with_meta(material: list[SourceDoc], meta: Sequence[dict[str, str]]) -> list[SourceDoc]:
    """The numbered sources given back what they were, when the run kept it (verification_again)."""
    if len(meta) != len(material):
        return material
    return [
        SourceDoc(
            kind=m.get("kind") or doc.kind,
            title=m.get("title") or doc.title,
            text=doc.text,
            url=m.get("url", ""),
            outlet=m.get("outlet", ""),
        )
        for doc, m in zip(material, meta, strict=True)
    ]

"""Results of runs, as the chat sees them: the article (headline, body, sources, a verification
line), monitoring results with the monitoring formatters, failures with the reporter-readable
error."""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from django.conf import settings
from django.urls import reverse
from django.utils import timezone

from agents import selectors
from agents.models import Article, MonitorItem, Run
from agents.monitoring.selectors import monitor_view
from newsdesk.telegram import followup, formatters, replies
from newsdesk.telegram.client import Buttons, split_text
from styles.lint import position_label

RULE = "─" * 10
MISSING_NAMED = 3  # the line names this many missing facts; the desk lists them all
_KIND_ORDER = {kind: n for n, kind in enumerate(replies.VERIFICATION_KIND)}


class Outgoing(NamedTuple):
    text: str
    html: bool
    buttons: Buttons | None = None  # inline buttons under the message (a reported item's 후속 기사)


def result_messages(run: Run) -> list[Outgoing]:
    """What to send for a finished run, in order."""
    scheduled = run.channel == Run.Channel.SCHEDULE
    if run.kind in (Run.Kind.CHECK, Run.Kind.REPORT):
        return _monitor_messages(run, scheduled)
    label = replies.RUN_LABELS.get(run.kind, "")
    if run.status == Run.Status.FAILED:
        return [Outgoing(replies.RUN_FAILED.format(label=label, error=run.error), False)]
    article = selectors.article_of(run)
    return [Outgoing(chunk, False) for chunk in split_text(article_text(article, run))] if article else []


def _monitor_messages(run: Run, scheduled: bool) -> list[Outgoing]:
    banner = [Outgoing(formatters.scheduled_banner(run.kind), True)] if scheduled else []
    if run.status == Run.Status.FAILED:
        failed = formatters.run_failed_message(run.kind, run.error, scheduled=scheduled)
        return [*banner, Outgoing(failed, True)]
    view = monitor_view(run=run)
    parts = formatters.check_parts(view) if run.kind == Run.Kind.CHECK else formatters.report_parts(view)
    return [*banner, *(Outgoing(text, True, _item_buttons(item)) for text, item in parts)]


def _item_buttons(item: object) -> Buttons | None:
    """Every reported article gets its "후속 기사" button."""
    return followup.item_buttons(item.pk) if isinstance(item, MonitorItem) else None


def article_text(article: Article, run: Run) -> str:
    """Headline, body, the articles consulted, then one verification line; while the release is
    embargoed the reply opens with the moment it may be published."""
    notice = selectors.article_embargo_notice(article=article)
    parts = [notice, ""] if notice else []
    parts += [article.headline, "", article.body]
    if article.sources:
        parts += ["", RULE, replies.ARTICLE_SOURCES]
        for source in article.sources:
            outlet = f"[{source['outlet']}] " if source.get("outlet") else ""
            parts += [f"- {outlet}{source['title']}", f"  {source['url']}"]
    parts += ["", verification_line(article)]
    lint = lint_line(article)
    if lint:
        parts.append(lint)
    if article.missing_facts:
        parts.append(missing_facts_line(article.missing_facts))
    parts += [replies.ARTICLE_WARNING.format(warning=w) for w in article.warnings]
    parts.append(replies.DESK_LINK.format(url=desk_url(run)))
    parts.append(model_line(article))
    parts.append(cost_line(run))
    return "\n".join(parts)


def missing_facts_line(facts: list[dict[str, str]]) -> str:
    """One line: the release's must-carry facts the article lacks, the first few named."""
    named = " / ".join(f["fact"] for f in facts[:MISSING_NAMED])
    more = (
        replies.MISSING_FACTS_MORE.format(count=len(facts) - MISSING_NAMED)
        if len(facts) > MISSING_NAMED
        else ""
    )
    return replies.MISSING_FACTS_LINE.format(count=len(facts), facts=named, more=more)


def cost_line(run: Run) -> str:
    """One line: how long the reporter waited, how many model calls, what their key paid."""
    usage = selectors.run_usage(run=run)
    start = run.enqueued_at or run.created_at
    seconds = max(0.0, ((run.finished_at or timezone.now()) - start).total_seconds())
    waited = f"{seconds:.0f}초" if seconds < 60 else f"{seconds // 60:.0f}분 {seconds % 60:.0f}초"
    return replies.COST_LINE.format(seconds=waited, calls=usage.llm_calls, dollars=usage.cost_usd)


def verification_line(article: Article) -> str:
    """What was checked and what was done about it, e.g.
    "사실 확인: 수치 6건·날짜 3건 대조 → 8건 확인, 1건 근거 없음 · 1문장 삭제"."""
    done = selectors.verification_summary(article=article)
    edit = article.revision > 1
    removed = done.deleted + done.trimmed
    if article.verdict == Article.Verdict.SKIPPED and not removed:
        return replies.VERIFICATION_SKIPPED + needs_check_line(done.marked)
    if not done.checked:
        return replies.VERIFICATION_NOTHING_EDIT if edit else replies.VERIFICATION_NOTHING
    checked = "·".join(
        replies.VERIFICATION_COUNT.format(kind=replies.VERIFICATION_KIND.get(kind, kind), count=count)
        for kind, count in sorted(done.kinds.items(), key=lambda item: _KIND_ORDER.get(item[0], 99))
    )
    line = (replies.VERIFICATION_LINE_EDIT if edit else replies.VERIFICATION_LINE).format(
        checked=checked, confirmed=done.confirmed
    )
    if done.flagged:
        line += replies.VERIFICATION_FLAGGED.format(flagged=done.flagged)
    if done.deleted:
        line += replies.VERIFICATION_DELETED.format(count=done.deleted)
    if done.trimmed:
        line += replies.VERIFICATION_TRIMMED.format(count=done.trimmed)
    if done.headline_changed:
        line += replies.VERIFICATION_HEADLINE
    return line + needs_check_line(done.marked)


def needs_check_line(claims: Sequence[str]) -> str:
    """The suspect claims kept for the reporter (no model settled them), the first few named."""
    if not claims:
        return ""
    shown = replies.VERIFICATION_NEEDS_CHECK_NAMED
    named = ", ".join(f"'{claim}'" for claim in claims[:shown])
    if len(claims) > shown:
        named += replies.VERIFICATION_NEEDS_CHECK_MORE.format(count=len(claims) - shown)
    return replies.VERIFICATION_NEEDS_CHECK.format(count=len(claims), claims=named)


def model_line(article: Article) -> str:
    """Which model wrote it, in which house style (the cost line below says what it cost)."""
    model = selectors.model_label(model=article.model) if article.model else replies.MODEL_UNKNOWN
    return replies.ARTICLE_MODEL.format(model=model) + (
        replies.ARTICLE_STYLE.format(style=article.style) if article.style else ""
    )


def lint_line(article: Article, *, shown: int = 3) -> str:
    """The house-style lint as one line: the count, the first hits with where they are and the
    fix, and the "고쳐줘" hint; empty when nothing was found."""
    hits = selectors.article_lint(article=article)
    if not hits:
        return ""
    items = " · ".join(
        replies.LINT_ITEM.format(
            text=h.text, where=position_label(article.body, h.start), fix=h.replacement or h.suggestion
        )
        for h in hits[:shown]
    )
    more = replies.LINT_MORE.format(count=len(hits) - shown) if len(hits) > shown else ""
    return replies.LINT_LINE.format(count=len(hits), items=items, more=more)


def desk_url(run: Run) -> str:
    """The desk page for a reporter with a web login; a Telegram-only reporter cannot log in, so
    they get a signed, expiring, read-only link instead (newsdesk.desk.sharing)."""
    from newsdesk.desk.sharing import share_path  # the desk face, needed only for this link

    base = settings.NEWSDESK_PUBLIC_URL.rstrip("/")
    if run.reporter.user_id:
        return base + reverse("desk:draft", args=[run.pk])
    return base + share_path(run)

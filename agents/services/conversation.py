"""A request in the reporter's own words: context selection → router → the job.

The face has already decided the clear cases in code (commands, file-only messages, pending
settings steps); what reaches here is free text or a caption. At most two model calls happen
before a job starts: one to pick the relevant messages (skipped when there are too few) and one to
route. This service does the agents' side of every job (queues the run, asks the model, changes
the schedule) and returns a `Decision`; the face only turns it into replies, and stores the profile
changes it owns (department, keywords).
"""

from __future__ import annotations

import enum
import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.utils import timezone

from agents import messages as msg
from agents import selectors
from agents.chat.router import ExtractedParams, RouteToToolInput, reply, route
from agents.chat.selection import Selection, select_context
from agents.drafting.material import cut_material, is_source_material
from agents.errors import UserFacingError
from agents.llm import catalog
from agents.llm import client as llm
from agents.models import Run
from agents.monitoring import services as monitoring
from agents.reporters import ReporterLike
from agents.services.drafts import PRESS_RELEASE_LIMIT, draft_create, edit_create
from agents.sources import files
from agents.work import runs
from conversations.models import Message
from conversations.selectors import attachment_tag, last_article_id, numbered_summaries, recent_messages

log = logging.getLogger(__name__)
CONTEXT_CHARS = 6000


class Outcome(enum.StrEnum):
    QUEUED = "queued"  # `run` was queued (writing, edit_article, check, report)
    BUSY = "busy"  # another job of the reporter is running or queued
    REFUSED = "refused"  # `text` says why (a UserFacingError's message)
    MODEL_FAILED = "model_failed"  # routing or answering failed; `text` is the model error's message
    ANSWER = "answer"  # `text` is the reply (a conversation answer, a schedule change)
    INCOMPLETE = "incomplete"  # the request lacks what its job needs (an article, times, a name)
    NOT_FOUND = "not_found"  # a keyword removal names none of the reporter's; `keywords`: as given
    CHANGE = "change"  # the face stores `department`, `keywords`, `model` or `publisher_style`
    REJECTED = "rejected"  # not ours to do; `text` is the model's reason, possibly ""


@dataclass(frozen=True)
class Decision:
    """What became of one request: `tool` is the route ("" when routing never happened)."""

    tool: str
    outcome: Outcome
    run: Run | None = None
    text: str = ""
    department: str = ""
    keywords: tuple[str, ...] = ()
    # A writing preference to store ("" = back to the default; None = not this change).
    model: str | None = None
    publisher_style: str | None = None


@dataclass(frozen=True)
class _Request:
    reporter: ReporterLike
    text: str
    attachment: dict[str, Any] | None
    channel: str
    route: RouteToToolInput
    selection: Selection

    @property
    def params(self) -> ExtractedParams:
        return self.route.extracted_params


def message_route(
    *,
    reporter: ReporterLike,
    text: str,
    attachment: dict[str, Any] | None,
    message_id: int | None,
    channel: str,
) -> Decision:
    """Routes `text` (the logged message `message_id`, with its `attachment`) and does the job.

    The model calls that chose a job are charged to the run it queued.
    """
    try:
        ctx = llm.reporter_context(reporter=reporter, writing=False)
    except llm.LLMKeyMissing as exc:
        return Decision("", Outcome.REFUSED, text=exc.user_message)
    started = timezone.now()
    history = [m for m in recent_messages(reporter=reporter) if m.pk != message_id]
    selection = select_context(ctx=ctx, query=text, messages=history, summaries=numbered_summaries(history))
    try:
        decision = route(
            ctx=ctx,
            query=text,
            context=context_text(selection.messages),
            attachments=[attachment_tag(m).strip() for m in _attachments(selection, attachment)],
        )
    except llm.LLMError as exc:
        return Decision("", Outcome.MODEL_FAILED, text=exc.user_message)
    log.info("routed reporter %s to %s: %s", reporter.pk, decision.tool, decision.reason)
    request = _Request(reporter, text, attachment, channel, decision, selection)
    done = JOBS[decision.tool](request)
    if done.run is not None:
        runs.calls_attach(run=done.run, reporter_id=reporter.pk, since=started)
    return done


def _attachments(selection: Selection, current: dict[str, Any] | None) -> list[dict[str, Any]]:
    """Files of the selected messages plus the one sent with this message, each once."""
    metas = [m.attachment_meta for m in selection.messages if m.attachment_meta]
    if current:
        metas.append(current)
    unique = {str(m.get("file_id")): m for m in metas}
    return list(unique.values())


def context_text(messages: list[Message]) -> str:
    lines = [f"{m.role}: {m.content}{attachment_tag(m.attachment_meta)}" for m in messages]
    return "\n".join(lines)[-CONTEXT_CHARS:]


# --- jobs -------------------------------------------------------------------------------------
def _writing(request: _Request) -> Decision:
    if selectors.job_active(reporter=request.reporter):
        return Decision("writing", Outcome.BUSY)
    params = request.params
    press_release, user_context = source_material(request.text, request.selection.messages)
    attachments = _attachments(request.selection, request.attachment)
    press_release, note = cut_material(press_release, PRESS_RELEASE_LIMIT, name=msg.PASTED_TEXT)
    try:
        run = draft_create(
            reporter=request.reporter,
            press_release=press_release,
            length=_length(params.word_count),
            style_hint=params.style_hint or "",
            search_news=bool(params.search_keywords),
            keywords=params.search_keywords[:3],
            attachments=attachments,
            topic=params.topic or request.text[:200],
            context=user_context,
            channel=request.channel,
            pages=files.page_range_in_text(request.text) if attachments else "",  # "3~10쪽으로"
            notes=[note] if note else [],
        )
    except UserFacingError as exc:
        return Decision("writing", Outcome.REFUSED, text=exc.user_message)
    return Decision("writing", Outcome.QUEUED, run=run)


def source_material(text: str, selected: list[Message]) -> tuple[str, str]:
    """(press release, other context) for a writing request, by what the texts hold, not their length.

    The request itself is the release when it carries material (a pasted notice with "써줘" above
    or below it, however short); otherwise the latest material the reporter sent before (a release
    pasted, then "이걸로 써줘"). Either way it reaches the writer and the verifier whole, as a source.
    """
    earlier = [m.content for m in selected if m.role == "user" and len(m.content) > 40]
    if is_source_material(text):
        return text, "\n\n".join(earlier)
    for index in range(len(earlier) - 1, -1, -1):
        if is_source_material(earlier[index]):
            return earlier[index], "\n\n".join(earlier[:index] + earlier[index + 1 :])
    return "", "\n\n".join(earlier)


def _length(word_count: int | None) -> int | None:
    return word_count if word_count and 100 <= word_count <= 3000 else None


def _edit(request: _Request) -> Decision:
    reporter = request.reporter
    article_id = last_article_id(request.selection.messages) or last_article_id(
        recent_messages(reporter=reporter)
    )
    article = selectors.article_get(reporter=reporter, article_id=article_id) if article_id else None
    if article is None:
        return Decision("edit_article", Outcome.INCOMPLETE)
    if selectors.job_active(reporter=reporter):
        return Decision("edit_article", Outcome.BUSY)
    try:
        run = edit_create(
            reporter=reporter, article=article, instruction=request.text, channel=request.channel
        )
    except UserFacingError as exc:
        return Decision("edit_article", Outcome.REFUSED, text=exc.user_message)
    return Decision("edit_article", Outcome.QUEUED, run=run)


def _conversation(request: _Request) -> Decision:
    ctx = llm.reporter_context(reporter=request.reporter, writing=False)
    try:
        text = reply(ctx=ctx, query=request.text, context=context_text(request.selection.messages))
    except llm.LLMError as exc:
        return Decision("conversation", Outcome.MODEL_FAILED, text=exc.user_message)
    return Decision("conversation", Outcome.ANSWER, text=text)


def _monitor(tool: str, start: Callable[..., Run]) -> Callable[[_Request], Decision]:
    def job(request: _Request) -> Decision:
        try:
            run = start(reporter=request.reporter, channel=request.channel)
        except monitoring.JobAlreadyRunning:
            return Decision(tool, Outcome.BUSY)
        except UserFacingError as exc:  # no keywords, an unknown department, no usable key
            return Decision(tool, Outcome.REFUSED, text=exc.user_message)
        return Decision(tool, Outcome.QUEUED, run=run)

    return job


def _schedule(request: _Request) -> Decision:
    params, reporter = request.params, request.reporter
    if params.schedule_action == "off":
        text = monitoring.schedule_off(reporter=reporter, command=params.schedule_command).message
    elif params.schedule_command and params.schedule_times:
        text = _schedule_times(
            reporter, params.schedule_command, params.schedule_times, params.schedule_action
        )
    else:
        return Decision("schedule", Outcome.INCOMPLETE)
    return Decision("schedule", Outcome.ANSWER, text=text)


def _schedule_times(reporter: ReporterLike, command: str, times: list[str], action: str | None) -> str:
    if action == "replace":
        return monitoring.schedule_set(reporter=reporter, command=command, times=times).message
    results = [monitoring.schedule_add(reporter=reporter, command=command, time=t) for t in times]
    return "\n".join(result.message for result in results)


def _set_division(request: _Request) -> Decision:
    department = request.params.department
    if not department:
        return Decision("set_division", Outcome.INCOMPLETE)
    return Decision("set_division", Outcome.CHANGE, department=department)


def _set_keyword(request: _Request) -> Decision:
    params = request.params
    if not params.keywords:
        return Decision("set_keyword", Outcome.INCOMPLETE)
    keywords = merged_keywords(request.reporter.keywords, params.keywords, params.keyword_action or "add")
    if keywords is None:
        return Decision("set_keyword", Outcome.NOT_FOUND, keywords=tuple(params.keywords))
    return Decision("set_keyword", Outcome.CHANGE, keywords=tuple(keywords))


DEFAULT_WORDS = {"기본", "기본값", "default"}


def _set_style(request: _Request) -> Decision:
    style = (request.params.style or "").strip()
    if not style:
        return Decision("set_style", Outcome.INCOMPLETE)
    return Decision("set_style", Outcome.CHANGE, publisher_style="" if style in DEFAULT_WORDS else style)


def _set_model(request: _Request) -> Decision:
    words = (request.params.model or "").strip()
    if words in DEFAULT_WORDS:
        return Decision("set_model", Outcome.CHANGE, model="")
    model = catalog.model_named(words) if words else None
    if model is None:  # not said, or no offered model fits: the face shows the choices
        return Decision("set_model", Outcome.INCOMPLETE)
    return Decision("set_model", Outcome.CHANGE, model=model)


def merged_keywords(current: list[str], given: list[str], action: str) -> list[str] | None:
    """The new keyword list; None when a removal names nothing the reporter has."""
    given = [k.strip() for k in given if k.strip()]
    if action == "replace":
        return given
    if action == "remove":
        kept = [k for k in current if k not in given]
        return kept if len(kept) < len(current) else None
    return [*current, *(k for k in given if k not in current)]


def _reject(request: _Request) -> Decision:
    return Decision("reject", Outcome.REJECTED, text=request.route.reason)


JOBS: dict[str, Callable[[_Request], Decision]] = {
    "writing": _writing,
    "edit_article": _edit,
    "conversation": _conversation,
    "check": _monitor("check", monitoring.check_request),
    "report": _monitor("report", monitoring.report_request),
    "schedule": _schedule,
    "set_division": _set_division,
    "set_keyword": _set_keyword,
    "set_style": _set_style,
    "set_model": _set_model,
    "reject": _reject,
}

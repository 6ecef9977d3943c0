"""Natural-language requests (seed 4.2-4.4): context selection → router → the job.

Code has already decided the clear cases (commands, file-only messages, pending settings steps);
what reaches here is free text or a caption. At most two model calls happen before a job starts:
one to pick the relevant messages (skipped when there are too few) and one to route.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from django.utils import timezone

from agents import llm, runs
from agents.context import Selection, select_context
from agents.material import cut_material, is_source_material
from agents.models import Article, Run
from agents.monitoring import schedules
from agents.router import RouteToToolInput, reply, route
from agents.services import PRESS_RELEASE_LIMIT, InputError, draft_create, edit_create
from agents.sources import files
from conversations.models import Message
from conversations.selectors import attachment_tag, last_article_id, numbered_summaries, recent_messages
from newsdesk.models import Reporter
from newsdesk.services import ProfileError, reporter_update
from newsdesk.telegram import commands, replies
from newsdesk.telegram.incoming import Incoming
from newsdesk.telegram.outbox import say
from newsdesk.telegram.progress import announce

log = logging.getLogger(__name__)
CONTEXT_CHARS = 6000

# A job returns the run it queued (a split paste's late parts may join a queued draft), else None.
Job = Callable[[Incoming, Reporter, RouteToToolInput, Selection], Run | None]


def busy(reporter: Reporter) -> bool:
    """One job per reporter: any unfinished run counts (drafts, edits, checks, briefings)."""
    return Run.objects.filter(reporter=reporter, status__in=[Run.Status.QUEUED, Run.Status.RUNNING]).exists()


def handle_text(incoming: Incoming, reporter: Reporter, logged: Message) -> Run | None:
    try:
        ctx = llm.reporter_context(reporter=reporter, writing=False)
    except llm.LLMKeyMissing as exc:
        say(chat_id=incoming.chat_id, text=exc.user_message, reporter=reporter)
        return None
    started = timezone.now()
    history = [m for m in recent_messages(reporter=reporter) if m.pk != logged.pk]
    selection = select_context(
        ctx=ctx, query=incoming.text, messages=history, summaries=numbered_summaries(history)
    )
    try:
        decision = route(
            ctx=ctx,
            query=incoming.text,
            context=context_text(selection.messages),
            attachments=[attachment_tag(m).strip() for m in _attachments(selection, logged.attachment_meta)],
        )
    except llm.LLMError as exc:
        say(
            chat_id=incoming.chat_id,
            text=replies.ROUTER_FAILED.format(reason=exc.user_message),
            reporter=reporter,
        )
        return None
    log.info("routed reporter %s to %s: %s", reporter.pk, decision.tool, decision.reason)
    run = JOBS[decision.tool](incoming, reporter, decision, selection)
    if run is not None:  # the calls that chose this job are part of its cost
        runs.calls_attach(run=run, reporter_id=reporter.pk, since=started)
    return run


def _attachments(selection: Selection, current: dict[str, object] | None) -> list[dict[str, object]]:
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
def _writing(
    incoming: Incoming, reporter: Reporter, decision: RouteToToolInput, selection: Selection
) -> Run | None:
    if busy(reporter):
        say(chat_id=incoming.chat_id, text=replies.BUSY, reporter=reporter)
        return None
    params = decision.extracted_params
    press_release, user_context = source_material(incoming.text, selection.messages)
    attachments = _attachments(selection, incoming.attachment)
    press_release, note = cut_material(press_release, PRESS_RELEASE_LIMIT, name=replies.PASTED_TEXT)
    try:
        run = draft_create(
            reporter=reporter,
            press_release=press_release,
            length=_length(params.word_count),
            style_hint=params.style_hint or "",
            search_news=bool(params.search_keywords),
            keywords=params.search_keywords[:3],
            attachments=attachments,
            topic=params.topic or incoming.text[:200],
            context=user_context,
            channel=Run.Channel.TELEGRAM,
            pages=files.page_range_in_text(incoming.text) if attachments else "",  # "3~10쪽으로"
            notes=[note] if note else [],
        )
    except InputError as exc:
        say(chat_id=incoming.chat_id, text=exc.user_message, reporter=reporter)
        return None
    announce(run=run, chat_id=incoming.chat_id, text=replies.DRAFT_ACCEPTED)
    return run


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


def _edit(
    incoming: Incoming, reporter: Reporter, decision: RouteToToolInput, selection: Selection
) -> Run | None:
    article_id = last_article_id(selection.messages) or last_article_id(recent_messages(reporter=reporter))
    article = Article.objects.filter(pk=article_id, reporter=reporter).first() if article_id else None
    if article is None:
        say(chat_id=incoming.chat_id, text=replies.NO_ARTICLE_TO_EDIT, reporter=reporter)
        return None
    if busy(reporter):
        say(chat_id=incoming.chat_id, text=replies.BUSY, reporter=reporter)
        return None
    try:
        run = edit_create(
            reporter=reporter, article=article, instruction=incoming.text, channel=Run.Channel.TELEGRAM
        )
    except InputError as exc:
        say(chat_id=incoming.chat_id, text=exc.user_message, reporter=reporter)
        return None
    announce(run=run, chat_id=incoming.chat_id, text=replies.EDIT_ACCEPTED)
    return run


def _conversation(
    incoming: Incoming, reporter: Reporter, decision: RouteToToolInput, selection: Selection
) -> None:
    ctx = llm.reporter_context(reporter=reporter, writing=False)
    try:
        text = reply(ctx=ctx, query=incoming.text, context=context_text(selection.messages))
    except llm.LLMError as exc:
        text = replies.ROUTER_FAILED.format(reason=exc.user_message)
    say(chat_id=incoming.chat_id, text=text, reporter=reporter)


def _check(
    incoming: Incoming, reporter: Reporter, decision: RouteToToolInput, selection: Selection
) -> Run | None:
    return commands.start_check(incoming, reporter)


def _report(
    incoming: Incoming, reporter: Reporter, decision: RouteToToolInput, selection: Selection
) -> Run | None:
    return commands.start_report(incoming, reporter)


def _schedule(
    incoming: Incoming, reporter: Reporter, decision: RouteToToolInput, selection: Selection
) -> None:
    params = decision.extracted_params
    if params.schedule_action == "off":
        text = schedules.schedule_off(reporter=reporter, command=params.schedule_command).message
    elif params.schedule_command and params.schedule_times:
        text = _schedule_times(
            reporter, params.schedule_command, params.schedule_times, params.schedule_action
        )
    else:
        text = replies.SCHEDULE_NEEDS_DETAILS
    say(chat_id=incoming.chat_id, text=text, reporter=reporter)


def _schedule_times(reporter: Reporter, command: str, times: list[str], action: str | None) -> str:
    if action == "replace":
        return schedules.schedule_set(reporter=reporter, command=command, times=times).message
    results = [schedules.schedule_add(reporter=reporter, command=command, time=t) for t in times]
    return "\n".join(result.message for result in results)


def _set_division(
    incoming: Incoming, reporter: Reporter, decision: RouteToToolInput, selection: Selection
) -> None:
    department = decision.extracted_params.department
    if not department:
        say(chat_id=incoming.chat_id, text=replies.DIVISION_NEEDS_NAME, reporter=reporter)
        return
    from newsdesk.telegram import profile

    profile.change_division(incoming, reporter, department)


def _set_keyword(
    incoming: Incoming, reporter: Reporter, decision: RouteToToolInput, selection: Selection
) -> None:
    params = decision.extracted_params
    if not params.keywords:
        say(chat_id=incoming.chat_id, text=replies.KEYWORDS_NEED_VALUES, reporter=reporter)
        return
    keywords = merged_keywords(reporter.keywords, params.keywords, params.keyword_action or "add")
    if keywords is None:
        text = replies.KEYWORD_NOT_FOUND.format(keywords=", ".join(params.keywords))
        say(chat_id=incoming.chat_id, text=text, reporter=reporter)
        return
    try:
        reporter_update(reporter=reporter, keywords=keywords)
    except ProfileError as exc:
        say(chat_id=incoming.chat_id, text=exc.user_message, reporter=reporter)
        return
    say(
        chat_id=incoming.chat_id,
        text=replies.KEYWORDS_CHANGED.format(keywords=", ".join(reporter.keywords)),
        reporter=reporter,
    )


def merged_keywords(current: list[str], given: list[str], action: str) -> list[str] | None:
    """The new keyword list; None when a removal names nothing the reporter has."""
    given = [k.strip() for k in given if k.strip()]
    if action == "replace":
        return given
    if action == "remove":
        kept = [k for k in current if k not in given]
        return kept if len(kept) < len(current) else None
    return [*current, *(k for k in given if k not in current)]


def _reject(incoming: Incoming, reporter: Reporter, decision: RouteToToolInput, selection: Selection) -> None:
    say(
        chat_id=incoming.chat_id,
        text=replies.REJECTED.format(reason=decision.reason or replies.REJECT_DEFAULT),
        reporter=reporter,
    )


JOBS: dict[str, Job] = {
    "writing": _writing,
    "edit_article": _edit,
    "conversation": _conversation,
    "check": _check,
    "report": _report,
    "schedule": _schedule,
    "set_division": _set_division,
    "set_keyword": _set_keyword,
    "reject": _reject,
}

"""Natural-language requests in a chat: `agents.services.conversation` routes them and does the
job; this module only turns its decision into replies (and stores the profile changes the chat
asked for, which belong to this side)."""

from __future__ import annotations

from agents.models import Run
from agents.services.conversation import Decision, Outcome, message_route
from conversations.models import Message
from newsdesk.models import Reporter
from newsdesk.services import ProfileError, reporter_update
from newsdesk.telegram import followup, preferences, profile, replies
from newsdesk.telegram.incoming import Incoming
from newsdesk.telegram.progress import announce
from newsdesk.telegram.sender import say

ACCEPTED = {
    "writing": replies.DRAFT_ACCEPTED,
    "edit_article": replies.EDIT_ACCEPTED,
    "check": replies.CHECK_ACCEPTED,
    "report": replies.REPORT_ACCEPTED,
}
INCOMPLETE = {
    "edit_article": replies.NO_ARTICLE_TO_EDIT,
    "schedule": replies.SCHEDULE_NEEDS_DETAILS,
    "set_division": replies.DIVISION_NEEDS_NAME,
    "set_keyword": replies.KEYWORDS_NEED_VALUES,
}
# A preference asked for without a usable value: the same keyboard as the bare command.
ASK = {"set_style": preferences.ask_style, "set_model": preferences.ask_model}


def handle_text(incoming: Incoming, reporter: Reporter, logged: Message) -> Run | None:
    """Routes free text; returns the run it queued (a split paste's late parts may join it).

    Text that answers a "후속 기사" question is that follow-up's release or instruction."""
    item_id = followup.pending_item(reporter=reporter)
    if item_id is not None:
        return followup.answer(incoming, reporter, item_id)
    decision = message_route(
        reporter=reporter,
        text=incoming.text,
        attachment=incoming.attachment,
        message_id=logged.pk,
        channel=Run.Channel.TELEGRAM,
    )
    if decision.outcome == Outcome.QUEUED and decision.run is not None:
        text = ACCEPTED[decision.tool].format(department=reporter.department)
        announce(run=decision.run, chat_id=incoming.chat_id, text=text)
        return decision.run
    if decision.outcome == Outcome.CHANGE:
        _change(incoming, reporter, decision)
        return None
    if decision.outcome == Outcome.INCOMPLETE and decision.tool in ASK:
        ASK[decision.tool](incoming, reporter)
        return None
    say(chat_id=incoming.chat_id, text=reply_text(decision), reporter=reporter)
    return None


def reply_text(decision: Decision) -> str:
    if decision.outcome == Outcome.BUSY:
        return replies.BUSY
    if decision.outcome == Outcome.MODEL_FAILED:
        return replies.ROUTER_FAILED.format(reason=decision.text)
    if decision.outcome == Outcome.INCOMPLETE:
        return INCOMPLETE[decision.tool]
    if decision.outcome == Outcome.NOT_FOUND:
        return replies.KEYWORD_NOT_FOUND.format(keywords=", ".join(decision.keywords))
    if decision.outcome == Outcome.REJECTED:
        return replies.REJECTED.format(reason=decision.text or replies.REJECT_DEFAULT)
    return decision.text  # an answer, or a refusal in the reporter's words


def _change(incoming: Incoming, reporter: Reporter, decision: Decision) -> None:
    if decision.model is not None or decision.publisher_style is not None:
        preferences.change_by_text(
            incoming, reporter, model=decision.model, publisher_style=decision.publisher_style
        )
        return
    if decision.department:
        profile.change_division(incoming, reporter, decision.department)
        return
    try:
        reporter_update(reporter=reporter, keywords=list(decision.keywords))
    except ProfileError as exc:
        say(chat_id=incoming.chat_id, text=exc.user_message, reporter=reporter)
        return
    say(
        chat_id=incoming.chat_id,
        text=replies.KEYWORDS_CHANGED.format(keywords=", ".join(reporter.keywords)),
        reporter=reporter,
    )

"""The "후속 기사" button under every reported /check and /report article.

A tap asks what to add (a release, or a few words of instruction) and offers "바로 작성"; the
question is logged with the item's id in its meta. The reporter's next text goes through the
ordinary paste collection (a long release split by the client is joined first) and, while that
question is the bot's latest message, becomes the follow-up instead of being routed. Tapping
again cannot start a second draft: the service gives back the draft already queued or running for
the item, and this face announces a run only once.
"""

from __future__ import annotations

from datetime import timedelta

from django.utils import timezone

from agents.models import MonitorItem, Run
from agents.selectors import job_active
from agents.services import InputError, UserFacingError, follow_up_from_chat, follow_up_item
from conversations.models import Message
from conversations.selectors import visible
from conversations.services import message_log
from newsdesk.models import Reporter, TelegramDelivery
from newsdesk.telegram import callbacks, client, replies
from newsdesk.telegram.incoming import Incoming
from newsdesk.telegram.progress import announce
from newsdesk.telegram.sender import say

ASK = "fu"  # callback data "fu:<item id>" (at most 3 + 20 bytes: far under Telegram's 64)
NOW = "fw"
META = "follow_up"
ANSWER_WITHIN = timedelta(minutes=30)  # an older question no longer captures the reporter's text


def item_buttons(item_id: int) -> client.Buttons:
    return [[callbacks.button(replies.FOLLOW_UP_BUTTON, ASK, str(item_id))]]


@callbacks.register(ASK)
def _ask(query: callbacks.Query, reporter: Reporter | None) -> str:
    item = _own_item(query, reporter)
    if reporter is None or item is None:
        return replies.BUTTON_EXPIRED
    text = replies.FOLLOW_UP_ASK.format(outlet=item.publisher or "타사", title=item.title[:150])
    buttons = [[callbacks.button(replies.FOLLOW_UP_NOW_BUTTON, NOW, str(item.pk))]]
    try:
        sent = client.send_buttons(chat_id=query.chat_id, text=text, buttons=buttons)
    except client.TelegramError as exc:
        if not exc.permanent:
            raise
        return ""
    message_log(
        reporter=reporter,
        role=Message.Role.ASSISTANT,
        content=text,
        telegram_chat_id=query.chat_id,
        telegram_message_id=sent,
        meta={META: item.pk},
    )
    return ""


@callbacks.register(NOW)
def _now(query: callbacks.Query, reporter: Reporter | None) -> str:
    """ "바로 작성": the follow-up with nothing added; the button goes once it has been used."""
    item = _own_item(query, reporter)
    if reporter is None or item is None:
        return replies.BUTTON_EXPIRED
    run, notice = start(reporter=reporter, item_id=item.pk, text="", chat_id=query.chat_id)
    if run is not None:
        query.edit(replies.FOLLOW_UP_STARTED)
    return notice[:190]


def _own_item(query: callbacks.Query, reporter: Reporter | None) -> MonitorItem | None:
    """The tapped item when it is this reporter's and still kept; None otherwise."""
    if reporter is None or not query.value.isdigit():
        return None
    try:
        return follow_up_item(reporter=reporter, item_id=int(query.value))
    except InputError:
        return None


def pending_item(*, reporter: Reporter) -> int | None:
    """The item whose question is the bot's latest message in this chat, asked recently."""
    replied = visible(reporter=reporter).filter(role=Message.Role.ASSISTANT)
    last = replied.order_by("-created_at", "-id").first()
    if last is None or not (last.meta or {}).get(META):
        return None
    if timezone.now() - last.created_at > ANSWER_WITHIN:
        return None
    return int(last.meta[META])


def answer(incoming: Incoming, reporter: Reporter, item_id: int) -> Run | None:
    """The reporter's text after the question: the release or instruction of the follow-up."""
    run, notice = start(reporter=reporter, item_id=item_id, text=incoming.text, chat_id=incoming.chat_id)
    if notice:
        say(chat_id=incoming.chat_id, text=notice, reporter=reporter)
    return run


def start(*, reporter: Reporter, item_id: int, text: str, chat_id: int) -> tuple[Run | None, str]:
    """Queues the follow-up and announces it once: (the run it queued, "") or (None, a refusal)."""
    if job_active(reporter=reporter):
        return None, replies.BUSY
    try:
        run = follow_up_from_chat(reporter=reporter, item_id=item_id, text=text, channel=Run.Channel.TELEGRAM)
    except UserFacingError as exc:
        return None, exc.user_message
    if TelegramDelivery.objects.filter(run=run).exists():  # a tap racing the first one
        return None, replies.FOLLOW_UP_ALREADY
    announce(run=run, chat_id=chat_id, text=replies.FOLLOW_UP_ACCEPTED)
    # Logged as the bot's reply: the question is answered, the next text is routed as usual.
    message_log(
        reporter=reporter,
        role=Message.Role.ASSISTANT,
        content=replies.FOLLOW_UP_ACCEPTED,
        telegram_chat_id=chat_id,
        meta={"run_id": run.pk},
    )
    return run, ""

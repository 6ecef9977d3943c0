"""A draft delivered "검증 미완료" gets a button that checks it again, without rewriting it."""

from __future__ import annotations

import contextlib

from agents.models import Run
from agents.selectors import article_get, job_active
from agents.services import VERIFY_UNFINISHED, UserFacingError, verification_again
from newsdesk.models import Reporter
from newsdesk.telegram import callbacks, client, replies
from newsdesk.telegram.progress import announce

PREFIX = "vfy"


def offer(*, run: Run, chat_id: int) -> None:
    """After the article: one short message with the button (best effort; the article is out)."""
    article = getattr(run, "article", None)
    if run.error_code != VERIFY_UNFINISHED or article is None:
        return
    buttons = [[callbacks.button(replies.VERIFY_AGAIN_BUTTON, PREFIX, str(article.pk))]]
    with contextlib.suppress(client.TelegramError):
        client.send_buttons(chat_id=chat_id, text=replies.VERIFY_AGAIN_OFFER, buttons=buttons)


@callbacks.register(PREFIX)
def _verify_again(query: callbacks.Query, reporter: Reporter | None) -> str:
    if reporter is None or not query.value.isdigit():
        return replies.BUTTON_EXPIRED
    article = article_get(reporter=reporter, article_id=int(query.value))
    if article is None:
        return replies.BUTTON_EXPIRED
    if job_active(reporter=reporter):
        return replies.BUSY
    try:
        run = verification_again(reporter=reporter, article=article, channel=Run.Channel.TELEGRAM)
    except UserFacingError as exc:
        return exc.user_message[:190]
    query.edit(replies.VERIFY_AGAIN_STARTED)
    announce(run=run, chat_id=query.chat_id, text=replies.VERIFY_AGAIN_ACCEPTED)
    return ""

"""Replies: sent through the one Telegram seam and logged as assistant messages."""

from __future__ import annotations

import logging
from typing import Any

from conversations.models import Message
from conversations.selectors import ReporterRef
from conversations.services import message_log
from newsdesk.telegram import client

log = logging.getLogger(__name__)


def say(
    *, chat_id: int, text: str, reporter: ReporterRef | None = None, meta: dict[str, Any] | None = None
) -> list[int]:
    """Sends plain text (split and escaped by the client); a blocked bot is recorded, not retried."""
    try:
        ids = client.send_text(chat_id=chat_id, text=text)
    except client.TelegramError as exc:
        if not exc.permanent:
            raise
        log.warning("reply to chat %s refused for good: %s", chat_id, exc.description)
        return []
    if reporter is not None:
        message_log(
            reporter=reporter,
            role=Message.Role.ASSISTANT,
            content=text,
            telegram_chat_id=chat_id,
            telegram_message_id=ids[0] if ids else None,
            meta=meta,
        )
    return ids

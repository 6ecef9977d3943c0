"""Writes to the conversation log. Every incoming message and every bot reply goes through here."""

from __future__ import annotations

from typing import Any

from conversations.models import Message
from conversations.selectors import ReporterRef

CONTENT_LIMIT = 8000


def message_log(
    *,
    reporter: ReporterRef,
    role: str,
    content: str,
    message_type: str = Message.Type.TEXT,
    attachment_meta: dict[str, Any] | None = None,
    telegram_chat_id: int | None = None,
    telegram_message_id: int | None = None,
    meta: dict[str, Any] | None = None,
    known_new: bool = False,
) -> Message:
    """Logs one message. `known_new`: the caller knows it was never logged (its Telegram update's
    first handling), so the lookup that keeps a re-handled update's message single is skipped."""
    dedupe = not known_new and role == Message.Role.USER
    if dedupe and telegram_chat_id is not None and telegram_message_id:
        # A Telegram update handled again (its worker died) logs the same message: keep one.
        logged = Message.objects.filter(
            reporter_id=reporter.pk,
            role=role,
            telegram_chat_id=telegram_chat_id,
            telegram_message_id=telegram_message_id,
        ).first()
        if logged is not None:
            return logged
    return Message.objects.create(
        reporter_id=reporter.pk,
        role=role,
        content=content[:CONTENT_LIMIT],
        message_type=message_type,
        attachment_meta=attachment_meta,
        telegram_chat_id=telegram_chat_id,
        telegram_message_id=telegram_message_id,
        meta=meta or {},
    )

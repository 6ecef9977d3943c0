"""Inline buttons: building their callback_data and answering the taps (callback queries).

A button's `callback_data` is `<prefix>:<value>`: the prefix names the handler (short, lower-case
letters), the value is what was chosen. Telegram sends the data back as typed by whoever holds the
chat, so a handler treats the value as untrusted input and validates it like typed text.

A face module registers its handler once at import time:

    @callbacks.register("div")
    def _division(query: callbacks.Query, reporter: Reporter | None) -> str: ...

and builds its buttons with `callbacks.button(label, "div", value)`. The handler returns a short
notice for the tapped button ("" for none); the query is always answered, even when the handler
fails, so the client's spinner never hangs. Taps arrive on the same secret-checked webhook as
messages and are stored and queued the same way.
"""

from __future__ import annotations

import contextlib
import logging
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from newsdesk.models import Reporter
from newsdesk.telegram import client, replies

log = logging.getLogger(__name__)
MAX_DATA_BYTES = 64  # Telegram's limit for callback_data
PREFIX = re.compile(r"[a-z]{1,8}")


@dataclass(frozen=True)
class Query:
    id: str
    chat_id: int
    user_id: int
    message_id: int  # the bot's message that carries the button
    prefix: str
    value: str

    def edit(self, text: str, buttons: client.Buttons | None = None) -> None:
        """Replaces the button message's text (and buttons; none removes them), best effort."""
        with contextlib.suppress(client.TelegramError):
            client.edit_text(chat_id=self.chat_id, message_id=self.message_id, text=text, buttons=buttons)


Handler = Callable[[Query, Reporter | None], str]
_HANDLERS: dict[str, Handler] = {}


def register(prefix: str) -> Callable[[Handler], Handler]:
    if not PREFIX.fullmatch(prefix):
        raise ValueError(f"callback prefix must be 1-8 lower-case letters: {prefix!r}")

    def decorate(handler: Handler) -> Handler:
        if _HANDLERS.get(prefix, handler) is not handler:
            raise ValueError(f"callback prefix {prefix!r} is already taken")
        _HANDLERS[prefix] = handler
        return handler

    return decorate


def data(prefix: str, value: str) -> str:
    """The callback_data for a button; refuses what Telegram would refuse (over 64 bytes)."""
    encoded = f"{prefix}:{value}"
    if not PREFIX.fullmatch(prefix) or len(encoded.encode()) > MAX_DATA_BYTES:
        raise ValueError(f"callback data too long or badly prefixed: {encoded!r}")
    return encoded


def button(label: str, prefix: str, value: str) -> tuple[str, str]:
    return (label, data(prefix, value))


def rows(buttons: list[tuple[str, str]], *, per_row: int = 2) -> client.Buttons:
    return [buttons[i : i + per_row] for i in range(0, len(buttons), per_row)]


def parse(payload: dict[str, Any]) -> Query | None:
    """None for a query we cannot act on (no message, not a private chat, malformed data)."""
    raw = payload.get("callback_query")
    if not isinstance(raw, dict) or not isinstance(raw.get("from"), dict):
        return None
    message: dict[str, Any] = raw["message"] if isinstance(raw.get("message"), dict) else {}
    chat = message.get("chat") or {}
    prefix, sep, value = str(raw.get("data") or "").partition(":")
    if not message or chat.get("type", "private") != "private":
        return None
    return Query(
        id=str(raw.get("id") or ""),
        chat_id=int(chat.get("id") or raw["from"]["id"]),
        user_id=int(raw["from"]["id"]),
        message_id=int(message.get("message_id") or 0),
        prefix=prefix if sep and PREFIX.fullmatch(prefix) else "",
        value=value,
    )


def handle(payload: dict[str, Any]) -> None:
    """Answers one tapped button: the handler of its prefix acts, the query is always answered."""
    raw = payload.get("callback_query") or {}
    query = parse(payload)
    notice = ""
    try:
        if query is None:
            return
        handler = _HANDLERS.get(query.prefix)
        if handler is None:  # an old button of a feature that changed, or forged data
            notice = replies.BUTTON_EXPIRED
            return
        reporter = Reporter.objects.filter(telegram_id=query.user_id).first()
        notice = handler(query, reporter)
    finally:
        if isinstance(raw, dict) and raw.get("id"):
            with contextlib.suppress(client.TelegramError):
                client.answer_callback(callback_query_id=str(raw["id"]), text=notice)

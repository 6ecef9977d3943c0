"""Outbound Telegram: the one seam between our code and the Bot API (sync, for Celery tasks).

Each function here is one thing we ask of Telegram; how a call runs (a private event loop, the HTTP
client, flood-control waits, token scrubbing) is `newsdesk.telegram.session`. Tests fake the Bot API
itself (tests/fakes/telegram.py, by its base URL), so both modules run for real against it.

Errors become one exception type, `TelegramError`, with `permanent` telling a task whether a retry
can help:

* permanent: 400 Bad Request (chat not found, message too long, invalid file_id, ...), 403
  Forbidden (bot blocked, user deactivated), 401/404 (token rejected), 409 Conflict, a missing token;
* transient: timeouts, connection errors, 5xx, and a 429 whose `retry_after` is over the in-process
  wait cap (then `retry_after` carries Telegram's value for the task's countdown).

Nothing is retried here but a short 429 (see `session`): after a timeout Telegram may already have
delivered the message, and sending it again would show it twice. Such errors set `uncertain=True`;
`send_text` also reports in `sent` the ids of the chunks that did arrive, so a caller can resume
instead of starting over.

While a Telegram update is being handled, every new message (`send_text`, `send_html`,
`send_buttons`) is numbered and recorded before it goes out, so a re-run of the update after a
worker died never sends it twice (`newsdesk.telegram.once`). Edits, deletions and callback answers
are idempotent at Telegram and are not recorded.

Splitting lives in `newsdesk.telegram.splitting`, the error type and its translation in
`newsdesk.telegram.errors`; `split_text`, `MAX_MESSAGE` and `TelegramError` are re-exported here.
"""

from __future__ import annotations

import functools
import json
import logging
from collections.abc import Callable
from typing import Any

from telegram import Bot, BotCommand, InlineKeyboardButton, InlineKeyboardMarkup, LinkPreviewOptions
from telegram import error as tg_error
from telegram.constants import ParseMode

from newsdesk.telegram import once, session
from newsdesk.telegram.errors import TelegramError, _scrub, _translate
from newsdesk.telegram.splitting import MAX_MESSAGE, _escape, split_text

__all__ = [
    "MAX_MESSAGE",
    "Buttons",
    "TelegramError",
    "answer_callback",
    "delete_message",
    "delete_webhook",
    "download_file",
    "edit_text",
    "get_updates",
    "send_buttons",
    "send_html",
    "send_text",
    "set_commands",
    "set_webhook",
    "split_text",
]

log = logging.getLogger(__name__)
Buttons = list[list[tuple[str, str]]]  # rows of (label, callback_data)
_NO_PREVIEW = LinkPreviewOptions(is_disabled=True)


def send_text(*, chat_id: int, text: str) -> list[int]:
    """Sends plain text (split under 4096, escaped, HTML mode, no link preview); returns message ids.

    Empty or whitespace-only text sends nothing and returns []. When a chunk fails, the error's
    `sent` holds the ids of the chunks that did arrive (in order), so a retry can skip them.
    """
    chunks = split_text(text)

    async def work(bot: Bot) -> list[int]:
        ids: list[int] = []
        for chunk in chunks:
            send = functools.partial(
                bot.send_message,
                chat_id=chat_id,
                text=_escape(chunk),
                parse_mode=ParseMode.HTML,
                link_preview_options=_NO_PREVIEW,
            )
            try:
                message = await session.call("sendMessage", send)
            except (TelegramError, tg_error.TelegramError) as exc:
                error = _translate(exc, bot.token)
                error.sent = tuple(ids)
                raise error from None
            ids.append(message.message_id)
        return ids

    if not chunks:
        return []
    try:
        return _at_most_once(lambda: session.run(work))
    except TelegramError as exc:
        _log_refusal("sendMessage", chat_id, exc)
        raise


def send_html(*, chat_id: int, html: str, buttons: Buttons | None = None) -> int:
    """Sends one pre-built HTML message (escaped by our formatters, <= 4096), with inline buttons
    under it when given; returns its id."""

    async def work(bot: Bot) -> int:
        send = functools.partial(
            bot.send_message,
            chat_id=chat_id,
            text=html,
            parse_mode=ParseMode.HTML,
            link_preview_options=_NO_PREVIEW,
            reply_markup=_keyboard(buttons),
        )
        message = await session.call("sendMessage", send)
        return message.message_id

    try:
        return _one_id(_at_most_once(lambda: [session.run(work)]))
    except TelegramError as exc:
        _log_refusal("sendMessage", chat_id, exc)
        raise


def edit_text(*, chat_id: int, message_id: int, text: str, buttons: Buttons | None = None) -> None:
    """Replaces a message's text with plain (escaped) text. "message is not modified" is fine.

    The message's inline buttons are replaced by `buttons` (none: the buttons disappear, so a
    choice already made cannot be tapped again).
    """

    async def work(bot: Bot) -> None:
        edit = functools.partial(
            bot.edit_message_text,
            chat_id=chat_id,
            message_id=message_id,
            text=_escape(text),
            parse_mode=ParseMode.HTML,
            link_preview_options=_NO_PREVIEW,
            reply_markup=_keyboard(buttons),
        )
        try:
            await session.call("editMessageText", edit)
        except tg_error.BadRequest as exc:
            if "message is not modified" not in exc.message.lower():
                raise

    try:
        session.run(work)
    except TelegramError as exc:
        _log_refusal("editMessageText", chat_id, exc)
        raise


def send_buttons(*, chat_id: int, text: str, buttons: Buttons) -> int:
    """Sends one plain-text message (<= 4096) with inline buttons under it; returns its id."""

    async def work(bot: Bot) -> int:
        send = functools.partial(
            bot.send_message,
            chat_id=chat_id,
            text=_escape(text),
            parse_mode=ParseMode.HTML,
            link_preview_options=_NO_PREVIEW,
            reply_markup=_keyboard(buttons),
        )
        message = await session.call("sendMessage", send)
        return message.message_id

    try:
        return _one_id(_at_most_once(lambda: [session.run(work)]))
    except TelegramError as exc:
        _log_refusal("sendMessage", chat_id, exc)
        raise


def _at_most_once(send: Callable[[], list[int]]) -> list[int]:
    """Sends a new message; during an update's handling, at most once per reply (see `once`)."""
    reply_log = once.current()
    if reply_log is None:
        return send()
    seq, earlier = reply_log.claim()
    if earlier is not None:
        return earlier
    try:
        ids = send()
    except TelegramError as exc:
        reply_log.failed(seq, definite=not exc.uncertain and not exc.sent)
        raise
    reply_log.done(seq, ids)
    return ids


def _one_id(ids: list[int]) -> int:
    """The id of a one-message send; 0 for a reply skipped whose id was never known."""
    return ids[0] if ids else 0


def _keyboard(buttons: Buttons | None) -> InlineKeyboardMarkup | None:
    if not buttons:
        return None
    return InlineKeyboardMarkup(
        [[InlineKeyboardButton(label, callback_data=data) for label, data in row] for row in buttons]
    )


def answer_callback(*, callback_query_id: str, text: str = "") -> None:
    """Stops the tapped button's spinner (and shows `text` as a short notice when given).

    A query older than about 15 minutes can no longer be answered; that refusal is harmless.
    """

    async def work(bot: Bot) -> None:
        answer = functools.partial(bot.answer_callback_query, callback_query_id, text=text or None)
        try:
            await session.call("answerCallbackQuery", answer)
        except tg_error.BadRequest as exc:
            log.info("telegram answerCallbackQuery refused: %s", _scrub(exc.message, bot.token))

    session.run(work)


def set_commands(*, commands: list[tuple[str, str]]) -> None:
    """Registers the command menu the Telegram client shows next to the text box."""

    async def work(bot: Bot) -> None:
        menu = [BotCommand(name, description) for name, description in commands]
        await session.call("setMyCommands", functools.partial(bot.set_my_commands, menu))

    session.run(work)


def delete_message(*, chat_id: int, message_id: int) -> bool:
    """Deletes a message; False when Telegram refuses (too old, already gone, no rights)."""

    async def work(bot: Bot) -> bool:
        try:
            return bool(
                await session.call(
                    "deleteMessage",
                    functools.partial(bot.delete_message, chat_id=chat_id, message_id=message_id),
                )
            )
        except (tg_error.BadRequest, tg_error.Forbidden) as exc:
            log.info(
                "telegram deleteMessage refused for chat %s: %s", chat_id, _scrub(exc.message, bot.token)
            )
            return False

    return session.run(work)


def download_file(*, file_id: str, max_bytes: int) -> bytes:
    """getFile, then the download; refuses a file over max_bytes before downloading it.

    An invalid or expired file_id (or a file Telegram no longer serves) is a permanent error, so
    the caller can ask the reporter to send it again.
    """

    async def work(bot: Bot) -> bytes:
        try:
            file = await session.call("getFile", functools.partial(bot.get_file, file_id))
        except tg_error.BadRequest as exc:
            raise TelegramError(
                f"file unavailable: {_scrub(exc.message, bot.token)}", permanent=True
            ) from None
        if file.file_size is not None and file.file_size > max_bytes:
            raise TelegramError(f"file too big: {file.file_size} bytes > {max_bytes} allowed", permanent=True)
        try:
            data = await session.call("downloadFile", file.download_as_bytearray)
        except tg_error.InvalidToken:  # the file URL answered 404/401: the file is gone
            raise TelegramError("file unavailable: the download link has expired", permanent=True) from None
        if len(data) > max_bytes:  # getFile did not tell the size
            raise TelegramError(f"file too big: {len(data)} bytes > {max_bytes} allowed", permanent=True)
        return bytes(data)

    return session.run(work)


def set_webhook(*, url: str, secret: str, allowed_updates: list[str] | None = None) -> None:
    async def work(bot: Bot) -> None:
        register = functools.partial(
            bot.set_webhook, url=url, secret_token=secret, allowed_updates=allowed_updates
        )
        await session.call("setWebhook", register)

    session.run(work)


def delete_webhook() -> None:
    async def work(bot: Bot) -> None:
        await session.call("deleteWebhook", functools.partial(bot.delete_webhook, drop_pending_updates=False))

    session.run(work)


def get_updates(*, offset: int | None, timeout: int) -> list[dict[str, Any]]:
    """One long-polling round (for the dev polling command): update dicts in plain JSON types.

    They come from `Update.to_dict()` (unknown fields kept), serialised and read back so enums and
    dates are plain JSON, like a webhook body; PTB may add default fields (false flags) on the way.
    """

    async def work(bot: Bot) -> list[dict[str, Any]]:
        updates = await session.call(
            "getUpdates", functools.partial(bot.get_updates, offset=offset, timeout=timeout)
        )
        return [json.loads(update.to_json()) for update in updates]

    return session.run(work)


def _log_refusal(operation: str, chat_id: int, error: TelegramError) -> None:
    if error.permanent:
        log.info("telegram %s refused for chat %s: %s", operation, chat_id, error.description)

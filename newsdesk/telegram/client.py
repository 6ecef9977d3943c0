"""Outbound Telegram: the one seam between our code and the Bot API (sync, for Celery tasks).

python-telegram-bot is async-only. Every public function here runs one short coroutine on a fresh
event loop (`asyncio.run`) with a fresh `Bot` and HTTP client, closed before it returns. Nothing
asyncio-bound outlives a call, so a Celery worker (prefork, solo or threads) can call us from any
thread without the "Event loop is closed" class of bugs (python-telegram-bot#4023).

We do not use `async with Bot(...)`: `Bot.initialize()` calls getMe, one extra network round trip
to api.telegram.org per call, and on a rejected token PTB raises `InvalidToken` with
the token in its message. Nothing we call needs the cached bot user (`Bot.bot`; only its properties
like `Bot.username` read it), so we open and close the HTTP client ourselves (`HTTPXRequest` is an
async context manager) and call the API methods on an uninitialised `Bot`. The CA bundle is loaded
once per process: httpx loads certifi's bundle for every new client (~25 ms of CPU each, and a
default `Bot` builds two). Measured on loopback against tests/fakes/telegram.py, 200 sends each:
`async with Bot(token)` per call 45-52 ms; the same with a shared TLS context 3.7 ms (getMe + send);
this module 2.3-2.8 ms (send only).

Errors become one exception type, `TelegramError`, with `permanent` telling a task whether a retry
can help:

* permanent: 400 Bad Request (chat not found, message too long, invalid file_id, ...), 403
  Forbidden (bot blocked, user deactivated), 401/404 (token rejected), 409 Conflict, a missing token;
* transient: timeouts, connection errors, 5xx, and a 429 whose `retry_after` is over the in-process
  wait cap (then `retry_after` carries Telegram's value for the task's countdown).

A 429 with `retry_after` <= 30 s is waited out here and the same request is sent again, at most 3
times. A 429 means Telegram did not accept the request, so this cannot duplicate a message. Nothing
else is retried here: after a timeout Telegram may already have delivered the message, and sending it
again would show it twice. Such errors set `uncertain=True`; `send_text` also reports in `sent` the
ids of the chunks that did arrive, so a caller can resume instead of starting over.

While a Telegram update is being handled, every new message (`send_text`, `send_html`,
`send_buttons`) is numbered and recorded before it goes out, so a re-run of the update after a
worker died never sends it twice (`newsdesk.telegram.once`). Edits, deletions and callback answers
are idempotent at Telegram and are not recorded.

The bot token is part of every request URL. No exception raised here carries it (messages are
scrubbed and PTB/httpx exceptions are not chained), and our own log lines never include URLs.

Splitting lives in `newsdesk.telegram.splitting`, the error type and its translation in
`newsdesk.telegram.errors`; `split_text`, `MAX_MESSAGE` and `TelegramError` are re-exported here.
"""

from __future__ import annotations

import asyncio
import functools
import json
import logging
import ssl
import warnings
from collections.abc import Awaitable, Callable, Coroutine
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import timedelta
from typing import Any, TypeVar

import certifi
import httpx
from django.conf import settings
from telegram import Bot, BotCommand, InlineKeyboardButton, InlineKeyboardMarkup, LinkPreviewOptions
from telegram import error as tg_error
from telegram.constants import ParseMode
from telegram.request import HTTPXRequest
from telegram.warnings import PTBDeprecationWarning

from newsdesk.telegram import once
from newsdesk.telegram.errors import _IN_FLIGHT_ERRORS, TelegramError, _scrub, _translate
from newsdesk.telegram.splitting import MAX_MESSAGE, _escape, split_text

__all__ = [
    "CONNECT_TIMEOUT",
    "MAX_FLOOD_RETRIES",
    "MAX_FLOOD_WAIT",
    "MAX_MESSAGE",
    "POOL_TIMEOUT",
    "READ_TIMEOUT",
    "WRITE_TIMEOUT",
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
T = TypeVar("T")
Buttons = list[list[tuple[str, str]]]  # rows of (label, callback_data)

CONNECT_TIMEOUT = 5.0
READ_TIMEOUT = 20.0
WRITE_TIMEOUT = 20.0
POOL_TIMEOUT = 5.0
MAX_FLOOD_RETRIES = 3  # resends after a 429, per request
MAX_FLOOD_WAIT = 30.0  # seconds; a longer retry_after goes back to the caller (Celery countdown)
_sleep = asyncio.sleep  # the flood-control wait (tests replace it to count waits)

_NO_PREVIEW = LinkPreviewOptions(is_disabled=True)
# PTB warns on every RetryAfter it builds (its int -> timedelta migration); we read the timedelta.
warnings.filterwarnings(
    "ignore", message=r".*attribute `retry_after` will be of type", category=PTBDeprecationWarning
)


# --- running PTB from sync code -------------------------------------------------------------------
@dataclass(frozen=True)
class _Config:
    token: str
    base_url: str
    file_base_url: str


def _config() -> _Config:
    token = (getattr(settings, "TELEGRAM_BOT_TOKEN", "") or "").strip()
    if not token:
        raise TelegramError("TELEGRAM_BOT_TOKEN is not configured", permanent=True)
    return _Config(
        token=token,
        base_url=getattr(settings, "TELEGRAM_API_BASE_URL", "") or "https://api.telegram.org/bot",
        file_base_url=getattr(settings, "TELEGRAM_FILE_BASE_URL", "") or "https://api.telegram.org/file/bot",
    )


def _run(work: Callable[[Bot], Awaitable[T]]) -> T:
    """Runs `work(bot)` to completion on a private event loop and returns its result."""
    config = _config()
    coroutine = _session(config, work)
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(coroutine)
    # Called from inside a running loop (async code using the sync API): asyncio.run would refuse,
    # so run the call on its own loop in a helper thread. This blocks the caller, as a sync API does.
    with ThreadPoolExecutor(max_workers=1, thread_name_prefix="telegram") as pool:
        return pool.submit(_run_coroutine, coroutine).result()


def _run_coroutine(coroutine: Coroutine[Any, Any, T]) -> T:
    return asyncio.run(coroutine)


@functools.cache
def _tls_context() -> ssl.SSLContext:
    """One CA bundle load per process: httpx would load certifi's bundle (~25 ms) per client."""
    return ssl.create_default_context(cafile=certifi.where())


async def _session(config: _Config, work: Callable[[Bot], Awaitable[T]]) -> T:
    request = HTTPXRequest(
        connection_pool_size=1,  # calls within a session are sequential
        connect_timeout=CONNECT_TIMEOUT,
        read_timeout=READ_TIMEOUT,
        write_timeout=WRITE_TIMEOUT,
        pool_timeout=POOL_TIMEOUT,
        httpx_kwargs={"verify": _tls_context()},
    )
    try:
        async with request:  # opens and closes the HTTP client; no getMe (see the module docstring)
            bot = Bot(
                config.token,
                base_url=config.base_url,
                base_file_url=config.file_base_url,
                request=request,
                get_updates_request=request,
            )
            return await work(bot)
    except tg_error.TelegramError as exc:
        raise _translate(exc, config.token) from None
    except (httpx.HTTPError, OSError) as exc:  # PTB wraps these; belt and braces
        raise TelegramError(
            _scrub(f"network error: {type(exc).__name__}: {exc}", config.token),
            permanent=False,
            uncertain=isinstance(exc, _IN_FLIGHT_ERRORS),
        ) from None


async def _call(operation: str, make: Callable[[], Awaitable[T]]) -> T:
    """One API request; a 429 with a short retry_after is waited out and the request sent again."""
    for attempt in range(MAX_FLOOD_RETRIES + 1):
        try:
            return await make()
        except tg_error.RetryAfter as exc:
            wait = _retry_seconds(exc)
            if wait > MAX_FLOOD_WAIT or attempt == MAX_FLOOD_RETRIES:
                log.warning("telegram %s: flood control, retry_after=%.0f s, giving up here", operation, wait)
                raise TelegramError(
                    f"Too Many Requests: retry after {wait:g}", permanent=False, retry_after=wait
                ) from None
            log.info(
                "telegram %s: flood control, waiting %.1f s (retry %d of %d)",
                operation,
                wait,
                attempt + 1,
                MAX_FLOOD_RETRIES,
            )
            await _sleep(wait)
    raise AssertionError("unreachable")  # pragma: no cover


def _retry_seconds(exc: tg_error.RetryAfter) -> float:
    value = getattr(exc, "_retry_after", None)  # a timedelta in PTB 22; the property warns
    if not isinstance(value, timedelta):
        value = exc.retry_after
    seconds = value.total_seconds() if isinstance(value, timedelta) else float(value)
    return max(seconds, 0.0)


# --- the public API -------------------------------------------------------------------------------
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
                message = await _call("sendMessage", send)
            except (TelegramError, tg_error.TelegramError) as exc:
                error = _translate(exc, bot.token)
                error.sent = tuple(ids)
                raise error from None
            ids.append(message.message_id)
        return ids

    if not chunks:
        return []
    try:
        return _at_most_once(lambda: _run(work))
    except TelegramError as exc:
        _log_refusal("sendMessage", chat_id, exc)
        raise


def send_html(*, chat_id: int, html: str) -> int:
    """Sends one pre-built HTML message (escaped by our formatters, <= 4096); returns its id."""

    async def work(bot: Bot) -> int:
        send = functools.partial(
            bot.send_message,
            chat_id=chat_id,
            text=html,
            parse_mode=ParseMode.HTML,
            link_preview_options=_NO_PREVIEW,
        )
        message = await _call("sendMessage", send)
        return message.message_id

    try:
        return _one_id(_at_most_once(lambda: [_run(work)]))
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
            await _call("editMessageText", edit)
        except tg_error.BadRequest as exc:
            if "message is not modified" not in exc.message.lower():
                raise

    try:
        _run(work)
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
        message = await _call("sendMessage", send)
        return message.message_id

    try:
        return _one_id(_at_most_once(lambda: [_run(work)]))
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
            await _call("answerCallbackQuery", answer)
        except tg_error.BadRequest as exc:
            log.info("telegram answerCallbackQuery refused: %s", _scrub(exc.message, bot.token))

    _run(work)


def set_commands(*, commands: list[tuple[str, str]]) -> None:
    """Registers the command menu the Telegram client shows next to the text box."""

    async def work(bot: Bot) -> None:
        menu = [BotCommand(name, description) for name, description in commands]
        await _call("setMyCommands", functools.partial(bot.set_my_commands, menu))

    _run(work)


def delete_message(*, chat_id: int, message_id: int) -> bool:
    """Deletes a message; False when Telegram refuses (too old, already gone, no rights)."""

    async def work(bot: Bot) -> bool:
        try:
            return bool(
                await _call(
                    "deleteMessage",
                    functools.partial(bot.delete_message, chat_id=chat_id, message_id=message_id),
                )
            )
        except (tg_error.BadRequest, tg_error.Forbidden) as exc:
            log.info(
                "telegram deleteMessage refused for chat %s: %s", chat_id, _scrub(exc.message, bot.token)
            )
            return False

    return _run(work)


def download_file(*, file_id: str, max_bytes: int) -> bytes:
    """getFile, then the download; refuses a file over max_bytes before downloading it.

    An invalid or expired file_id (or a file Telegram no longer serves) is a permanent error, so
    the caller can ask the reporter to send it again.
    """

    async def work(bot: Bot) -> bytes:
        try:
            file = await _call("getFile", functools.partial(bot.get_file, file_id))
        except tg_error.BadRequest as exc:
            raise TelegramError(
                f"file unavailable: {_scrub(exc.message, bot.token)}", permanent=True
            ) from None
        if file.file_size is not None and file.file_size > max_bytes:
            raise TelegramError(f"file too big: {file.file_size} bytes > {max_bytes} allowed", permanent=True)
        try:
            data = await _call("downloadFile", file.download_as_bytearray)
        except tg_error.InvalidToken:  # the file URL answered 404/401: the file is gone
            raise TelegramError("file unavailable: the download link has expired", permanent=True) from None
        if len(data) > max_bytes:  # getFile did not tell the size
            raise TelegramError(f"file too big: {len(data)} bytes > {max_bytes} allowed", permanent=True)
        return bytes(data)

    return _run(work)


def set_webhook(*, url: str, secret: str, allowed_updates: list[str] | None = None) -> None:
    async def work(bot: Bot) -> None:
        register = functools.partial(
            bot.set_webhook, url=url, secret_token=secret, allowed_updates=allowed_updates
        )
        await _call("setWebhook", register)

    _run(work)


def delete_webhook() -> None:
    async def work(bot: Bot) -> None:
        await _call("deleteWebhook", functools.partial(bot.delete_webhook, drop_pending_updates=False))

    _run(work)


def get_updates(*, offset: int | None, timeout: int) -> list[dict[str, Any]]:
    """One long-polling round (for the dev polling command): update dicts in plain JSON types.

    They come from `Update.to_dict()` (unknown fields kept), serialised and read back so enums and
    dates are plain JSON, like a webhook body; PTB may add default fields (false flags) on the way.
    """

    async def work(bot: Bot) -> list[dict[str, Any]]:
        updates = await _call(
            "getUpdates", functools.partial(bot.get_updates, offset=offset, timeout=timeout)
        )
        return [json.loads(update.to_json()) for update in updates]

    return _run(work)


def _log_refusal(operation: str, chat_id: int, error: TelegramError) -> None:
    if error.permanent:
        log.info("telegram %s refused for chat %s: %s", operation, chat_id, error.description)

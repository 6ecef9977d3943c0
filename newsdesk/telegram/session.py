"""How one Bot API call runs from sync code (Celery tasks): the transport under `client`.

python-telegram-bot is async-only. Every `run` executes one short coroutine on a fresh event loop
(`asyncio.run`) with a fresh `Bot` and HTTP client, closed before it returns. Nothing asyncio-bound
outlives a call, so a Celery worker (prefork, solo or threads) can call us from any thread without
the "Event loop is closed" class of bugs (python-telegram-bot#4023).

We do not use `async with Bot(...)`: `Bot.initialize()` calls getMe, one extra network round trip
to api.telegram.org per call, and on a rejected token PTB raises `InvalidToken` with
the token in its message. Nothing we call needs the cached bot user (`Bot.bot`; only its properties
like `Bot.username` read it), so we open and close the HTTP client ourselves (`HTTPXRequest` is an
async context manager) and call the API methods on an uninitialised `Bot`. The CA bundle is loaded
once per process: httpx loads certifi's bundle for every new client (~25 ms of CPU each, and a
default `Bot` builds two). Measured on loopback against tests/fakes/telegram.py, 200 sends each:
`async with Bot(token)` per call 45-52 ms; the same with a shared TLS context 3.7 ms (getMe + send);
this module 2.3-2.8 ms (send only).

A 429 with `retry_after` <= 30 s is waited out here (`call`) and the same request is sent again, at
most 3 times. A 429 means Telegram did not accept the request, so this cannot duplicate a message.
Nothing else is retried here: after a timeout Telegram may already have delivered the message.

The bot token is part of every request URL. No exception raised here carries it (messages are
scrubbed and PTB/httpx exceptions are not chained), and our own log lines never include URLs.
"""

from __future__ import annotations

import asyncio
import functools
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
from telegram import Bot
from telegram import error as tg_error
from telegram.request import HTTPXRequest
from telegram.warnings import PTBDeprecationWarning

from newsdesk.telegram.errors import _IN_FLIGHT_ERRORS, TelegramError, _scrub, _translate

log = logging.getLogger(__name__)
T = TypeVar("T")

CONNECT_TIMEOUT = 5.0
READ_TIMEOUT = 20.0
WRITE_TIMEOUT = 20.0
POOL_TIMEOUT = 5.0
MAX_FLOOD_RETRIES = 3  # resends after a 429, per request
MAX_FLOOD_WAIT = 30.0  # seconds; a longer retry_after goes back to the caller (Celery countdown)
_sleep = asyncio.sleep  # the flood-control wait (tests replace it to count waits)

# PTB warns on every RetryAfter it builds (its int -> timedelta migration); we read the timedelta.
warnings.filterwarnings(
    "ignore", message=r".*attribute `retry_after` will be of type", category=PTBDeprecationWarning
)


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


def run(work: Callable[[Bot], Awaitable[T]]) -> T:
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


async def call(operation: str, make: Callable[[], Awaitable[T]]) -> T:
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

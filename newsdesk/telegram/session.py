"""How one Bot API call runs from sync code (Celery tasks): the transport under `client`.

python-telegram-bot is async-only. Each thread that calls `run` keeps one event loop of its own
with one open `Bot` and HTTP client (`_Channel`), and runs every call's short coroutine on it. The
loop is only ever driven by its own thread and is never closed while that thread uses it, so a
Celery worker (prefork, solo or threads) can call us from any thread without the "Event loop is
closed" class of bugs (python-telegram-bot#4023). A fresh loop and client per call, as before,
cost about 5 ms of CPU per reply (measured against tests/fakes/telegram.py, 200 sends: 9.8 ms of
CPU each, 4.5 ms reused), a fifth of a handled update's, and against the real API a new TLS
connection per reply. A call that fails in any way drops its thread's channel (the next call opens
a new one), so a broken connection is never reused; a process forked from one that held a channel
opens its own. Code already inside an event loop gets a fresh loop and client in a helper thread.

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
import contextlib
import functools
import logging
import os
import ssl
import threading
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
    """Runs `work(bot)` to completion on this thread's event loop and returns its result."""
    config = _config()
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return _channel(config).run(work)
    # Called from inside a running loop (async code using the sync API): this thread's loop cannot
    # run, so the call runs on a fresh loop in a helper thread. This blocks the caller, as a sync
    # API does.
    with ThreadPoolExecutor(max_workers=1, thread_name_prefix="telegram") as pool:
        return pool.submit(_run_coroutine, _session(config, work)).result()


class _Channel:
    """One thread's event loop, HTTP client and `Bot`, open across calls (see the module docstring)."""

    def __init__(self, key: tuple[Any, ...], config: _Config) -> None:
        self.key, self.config, self.pid = key, config, os.getpid()
        self.loop = asyncio.new_event_loop()
        self.request = _new_request()
        self.loop.run_until_complete(self.request.initialize())
        self.bot = _new_bot(config, self.request)

    def run(self, work: Callable[[Bot], Awaitable[T]]) -> T:
        try:
            return self.loop.run_until_complete(_translated(self.config, work(self.bot)))
        except BaseException:
            _drop_channel()  # the connection may be broken: the next call opens a new one
            raise

    def close(self) -> None:
        # Closing what may already be broken: nothing to save, and nothing logged (an httpx error
        # can carry the request URL, which holds the token).
        with contextlib.suppress(Exception):
            self.loop.run_until_complete(self.request.shutdown())
        self.loop.close()


_local = threading.local()


def _channel(config: _Config) -> _Channel:
    """This thread's channel for `config` and the current timeouts, opened (again) when needed."""
    key = (config, CONNECT_TIMEOUT, READ_TIMEOUT, WRITE_TIMEOUT, POOL_TIMEOUT)
    current: _Channel | None = getattr(_local, "channel", None)
    if current is not None and current.pid != os.getpid():
        current = _local.channel = None  # the parent's, copied by fork: its socket is not ours
    if current is None or current.key != key:
        _drop_channel()
        current = _local.channel = _Channel(key, config)
    return current


def _drop_channel() -> None:
    current: _Channel | None = getattr(_local, "channel", None)
    _local.channel = None
    if current is not None and current.pid == os.getpid():
        current.close()


def _run_coroutine(coroutine: Coroutine[Any, Any, T]) -> T:
    return asyncio.run(coroutine)


@functools.cache
def _tls_context() -> ssl.SSLContext:
    """One CA bundle load per process: httpx would load certifi's bundle (~25 ms) per client."""
    return ssl.create_default_context(cafile=certifi.where())


def _new_request() -> HTTPXRequest:
    return HTTPXRequest(
        connection_pool_size=1,  # a thread's calls are sequential
        connect_timeout=CONNECT_TIMEOUT,
        read_timeout=READ_TIMEOUT,
        write_timeout=WRITE_TIMEOUT,
        pool_timeout=POOL_TIMEOUT,
        httpx_kwargs={"verify": _tls_context()},
    )


def _new_bot(config: _Config, request: HTTPXRequest) -> Bot:
    """An uninitialised `Bot` on `request`: no getMe (see the module docstring)."""
    return Bot(
        config.token,
        base_url=config.base_url,
        base_file_url=config.file_base_url,
        request=request,
        get_updates_request=request,
    )


async def _session(config: _Config, work: Callable[[Bot], Awaitable[T]]) -> T:
    """One call on a fresh HTTP client, closed before it returns (code inside an event loop)."""
    request = _new_request()

    async def opened() -> T:
        async with request:  # opens and closes the HTTP client
            return await work(_new_bot(config, request))

    return await _translated(config, opened())


async def _translated(config: _Config, pending: Awaitable[T]) -> T:
    """`pending`'s result; PTB's and httpx's errors become a scrubbed TelegramError."""
    try:
        return await pending
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

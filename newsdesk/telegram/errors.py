"""`TelegramError`, the one exception the client raises, and the translation of PTB and httpx
errors into it. Messages are scrubbed of the bot token (see the client module docstring)."""

from __future__ import annotations

from typing import Any

import httpx
from telegram import error as tg_error

from newsdesk.logs import redact

# Failures after the request may have left: Telegram may have acted on it, so it must not be resent
# blindly. Connect errors, pool timeouts and bad URLs fail before anything is sent.
_IN_FLIGHT_ERRORS = (
    httpx.ReadTimeout,
    httpx.WriteTimeout,
    httpx.ReadError,
    httpx.WriteError,
    httpx.RemoteProtocolError,
)


class TelegramError(Exception):
    """A Bot API call failed. `description` never contains the bot token.

    permanent: retrying cannot help (blocked, chat not found, bad request, bad token).
    retry_after: seconds Telegram asked us to wait (a 429 over the in-process cap), else None.
    uncertain: the request may have reached Telegram (the answer was lost): do not blindly resend.
    sent: message ids already delivered by this call before it failed (`send_text` chunks).
    """

    description: str
    permanent: bool
    retry_after: float | None
    uncertain: bool
    sent: tuple[int, ...]

    def __init__(
        self,
        description: str,
        *,
        permanent: bool,
        retry_after: float | None = None,
        uncertain: bool = False,
        sent: tuple[int, ...] = (),
    ) -> None:
        super().__init__(description)
        self.description = description
        self.permanent = permanent
        self.retry_after = retry_after
        self.uncertain = uncertain
        self.sent = sent

    def __reduce__(self) -> tuple[Any, ...]:  # Celery pickles exceptions across processes
        return (
            _rebuild_error,
            (self.description, self.permanent, self.retry_after, self.uncertain, self.sent),
        )

    def __str__(self) -> str:
        return self.description


def _rebuild_error(
    description: str, permanent: bool, retry_after: float | None, uncertain: bool, sent: tuple[int, ...]
) -> TelegramError:
    return TelegramError(
        description, permanent=permanent, retry_after=retry_after, uncertain=uncertain, sent=sent
    )


def _translate(exc: tg_error.TelegramError | TelegramError, token: str) -> TelegramError:
    if isinstance(exc, TelegramError):  # raised by our own code inside the session
        return exc
    message = _scrub(exc.message, token)
    if isinstance(exc, tg_error.InvalidToken):
        return TelegramError(f"Telegram rejected the bot token or method ({message})", permanent=True)
    if isinstance(exc, tg_error.Forbidden | tg_error.BadRequest | tg_error.Conflict | tg_error.ChatMigrated):
        return TelegramError(message, permanent=True)
    # TimedOut and NetworkError wrap the httpx error as __cause__ (none when Telegram answered 5xx).
    uncertain = isinstance(exc.__cause__, _IN_FLIGHT_ERRORS)
    if isinstance(exc, tg_error.TimedOut):
        return TelegramError(f"timed out: {message}", permanent=False, uncertain=uncertain)
    if isinstance(exc, tg_error.NetworkError) and exc.__cause__ is not None:
        return TelegramError(f"network error: {message}", permanent=False, uncertain=uncertain)
    return TelegramError(message, permanent=False)


def _scrub(text: str, token: str) -> str:
    for form in (token, token.replace(":", "%3A"), token.replace(":", "%3a")):
        text = text.replace(form, "[redacted]")
    return redact(text)

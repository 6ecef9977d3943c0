"""Log redaction: secrets must never reach a log line, whatever library wrote it."""

from __future__ import annotations

import logging
import re
from typing import Any

_PATTERNS = [
    re.compile(r"bot\d{5,}:[A-Za-z0-9_-]{20,}"),  # Telegram bot token inside a URL
    re.compile(r"\b\d{5,}:[A-Za-z0-9_-]{30,}"),  # bare Telegram bot token (may end in - or _)
    re.compile(r"sk-ant-[A-Za-z0-9_-]+"),  # Anthropic key
    re.compile(r"gAAAAA[A-Za-z0-9_=-]{20,}"),  # Fernet token
    re.compile(r"nd_[A-Za-z0-9_-]{20,}"),  # our own API tokens
]


def redact(text: str) -> str:
    for pattern in _PATTERNS:
        text = pattern.sub("[redacted]", text)
    return text


class RedactSecretsFilter(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        cleaned = redact(message)
        if cleaned != message:
            record.msg, record.args = cleaned, None
        if record.exc_info and record.exc_info[1] is not None:
            exc = record.exc_info[1]
            text = redact(str(exc))
            if text != str(exc):
                # Keep the traceback shape but drop the secret-bearing message.
                record.exc_text = redact(logging.Formatter().formatException(record.exc_info))
        return True


LOGGED_ELSEWHERE = "newsdesk_logged_elsewhere"


def mark_logged_elsewhere(request: Any) -> None:
    """Django's own `django.request` line for this request's response is dropped: a line or a count
    of ours tells of it instead (an outage's first 503, the spoofed webhook requests a minute)."""
    setattr(request, LOGGED_ELSEWHERE, True)


class SkipLoggedElsewhere(logging.Filter):
    """On the `django.request` logger: drops the line of a response `mark_logged_elsewhere` marked.
    Django gives that logger's records the request (`record.request`)."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not getattr(getattr(record, "request", None), LOGGED_ELSEWHERE, False)

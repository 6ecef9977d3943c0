"""Log redaction: secrets must never reach a log line, whatever library wrote it."""

from __future__ import annotations

import logging
import re

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

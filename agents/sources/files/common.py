"""What every part of the package shares: the rejection the reporter sees, log-safe text."""

from __future__ import annotations


class FileRejected(Exception):
    """An upload we cannot read; `user_message` is shown to the reporter as is."""

    def __init__(self, user_message: str, code: str) -> None:
        super().__init__(f"{code}: {user_message}")
        self.user_message = user_message
        self.code = code


def _printable(text: str) -> str:
    """Hostile files smuggle lone surrogates into names and parser messages; a log line must still
    encode as UTF-8 (a stream handler, or a test runner's report, would otherwise fail on it)."""
    return text.encode("utf-8", "backslashreplace").decode("utf-8")

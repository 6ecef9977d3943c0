"""What every part of the package shares: the rejection the reporter sees, log-safe text."""

from __future__ import annotations

from agents.errors import UserFacingError


class FileRejected(UserFacingError):
    """An upload we cannot read; `user_message` is shown to the reporter as is."""

    def __init__(self, user_message: str, code: str) -> None:
        super().__init__(user_message, code, detail=f"{code}: {user_message}")


def _printable(text: str) -> str:
    """Hostile files smuggle lone surrogates into names and parser messages; a log line must still
    encode as UTF-8 (a stream handler, or a test runner's report, would otherwise fail on it)."""
    return text.encode("utf-8", "backslashreplace").decode("utf-8")

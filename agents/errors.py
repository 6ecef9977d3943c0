"""The one error type a reporter sees: every refusal they read (bad input, a file we cannot read,
a model call that failed, a schedule we cannot set) is a `UserFacingError`.

It sits below every other module (it imports nothing of ours), so sources, the model client,
services and the faces all raise and catch the same type. Faces show `user_message` as is; runs
record `code` as their `error_code`.
"""

from __future__ import annotations


class UserFacingError(Exception):
    """`user_message` is Korean and safe to show; `code` is the machine-readable reason.

    A subclass may fix its code as a class attribute (the model errors do); `detail`, when given,
    is what logs and tracebacks show instead of the reporter's text.
    """

    code = "input"

    def __init__(self, user_message: str, code: str | None = None, *, detail: str = "") -> None:
        super().__init__(detail or user_message)
        self.user_message = user_message
        if code is not None:
            self.code = code

"""The model client's errors, typed: transient ones for Celery to retry, permanent ones with a
Korean message for the reporter; and which SDK errors are which."""

from __future__ import annotations

from typing import TYPE_CHECKING

from agents import messages as msg
from agents.errors import UserFacingError

if TYPE_CHECKING:
    import anthropic


class LLMError(UserFacingError):
    """A model call failed; `transient` says whether the same call may succeed later."""

    code = "llm_error"
    transient = False

    def __init__(self, user_message: str, detail: str = "") -> None:
        super().__init__(user_message, detail=detail)


class LLMKeyMissing(LLMError):
    code = "no_key"


class LLMKeyRefused(LLMError):
    code = "key_refused"


class LLMTransient(LLMError):
    code = "llm_unavailable"
    transient = True


class LLMTimedOut(LLMTransient):
    """The call outlived the time it was given; a caller with a deadline stops instead of retrying.

    Its code stays "llm_unavailable": runs and faces already read that one for a timeout."""


class LLMBadOutput(LLMError):
    code = "bad_output"


class LLMTruncated(LLMBadOutput):
    """The answer hit max_tokens: asking again the same way cuts it again, so the caller splits."""

    code = "truncated"


def translate(exc: anthropic.APIError) -> LLMError:
    import anthropic

    if isinstance(exc, anthropic.AuthenticationError | anthropic.PermissionDeniedError):
        return LLMKeyRefused(msg.KEY_REFUSED, detail=type(exc).__name__)
    if isinstance(exc, anthropic.PaymentRequiredError):
        return LLMError(msg.KEY_NO_CREDIT, detail=type(exc).__name__)
    if isinstance(exc, anthropic.RateLimitError) and _is_spend_cap(exc):
        return LLMError(msg.KEY_NO_CREDIT, detail="spend cap")
    if isinstance(exc, anthropic.APITimeoutError):
        return LLMTimedOut(msg.LLM_UNAVAILABLE, detail=type(exc).__name__)
    if isinstance(
        exc, anthropic.RateLimitError | anthropic.InternalServerError | anthropic.APIConnectionError
    ):
        return LLMTransient(msg.LLM_UNAVAILABLE, detail=type(exc).__name__)
    if isinstance(exc, anthropic.APIStatusError) and exc.status_code >= 500:
        return LLMTransient(msg.LLM_UNAVAILABLE, detail=type(exc).__name__)
    return LLMError(msg.LLM_REQUEST_REJECTED, detail=type(exc).__name__)


def _is_spend_cap(exc: anthropic.RateLimitError) -> bool:
    # A spend-limit 429 carries no retry-after and keeps failing; retrying only burns time.
    return (
        "retry-after" not in exc.response.headers
        and "limit" in str(exc.message).lower()
        and ("spend" in str(exc.message).lower() or "credit" in str(exc.message).lower())
    )


def worth_retrying(exc: anthropic.APIError) -> bool:
    """The SDK's rule: the server's x-should-retry if it says, else 408, 409, 429 and 5xx."""
    import anthropic

    if not isinstance(exc, anthropic.APIStatusError):
        return True  # a connection that failed before any answer
    said = exc.response.headers.get("x-should-retry")
    if said in ("true", "false"):
        return said == "true"
    return exc.status_code in (408, 409, 429) or exc.status_code >= 500

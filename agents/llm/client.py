"""The one door to Anthropic: with its errors (agents.llm.errors), the only module that imports the SDK.

Three kinds of call: a forced single-tool call validated against a pydantic schema
(`call_tool`), one step of an agent loop (`loop_step`) and a short free-text reply
(`reply_text`). Every call writes one LLMCall row when it ends, whatever the outcome.
Errors come out typed: transient ones (429, 529, 5xx, connection) for Celery to retry,
permanent ones with a Korean message for the reporter.

The SDK is imported on first use, not at import time: the web process imports this module (for
its errors and prices) but never calls the model, and the SDK costs ~1.3 s and ~40 MB to load.
"""

from __future__ import annotations

import json
import logging
import threading
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any, TypeVar

from django.conf import settings
from pydantic import BaseModel, ValidationError

from agents import messages as msg
from agents.llm import catalog
from agents.llm.caching import with_cache_markers as _with_cache_markers

# The errors are raised and caught as this module's (llm.LLMError, …): re-exported on purpose.
from agents.llm.errors import LLMBadOutput as LLMBadOutput
from agents.llm.errors import LLMError as LLMError
from agents.llm.errors import LLMKeyMissing as LLMKeyMissing
from agents.llm.errors import LLMKeyRefused as LLMKeyRefused
from agents.llm.errors import LLMTimedOut as LLMTimedOut
from agents.llm.errors import LLMTransient as LLMTransient
from agents.llm.errors import LLMTruncated as LLMTruncated
from agents.llm.errors import translate, worth_retrying
from agents.llm.pricing import Usage, cost_usd
from agents.llm.toolspec import Tool
from agents.models import LLMCall
from agents.reporters import ReporterLike

if TYPE_CHECKING:
    import anthropic

log = logging.getLogger(__name__)
Schema = TypeVar("Schema", bound=BaseModel)


# --- context, tools, results ----------------------------------------------------------------
@dataclass(frozen=True)
class CallContext:
    """Who pays for a call and where it is recorded."""

    api_key: str
    run_id: int | None = None
    reporter_id: int | None = None
    model: str = ""  # "" = the server default (NEWSDESK_LLM_MODEL)


def reporter_context(
    *, reporter: ReporterLike, run_id: int | None = None, writing: bool = True
) -> CallContext:
    """A reporter's calls: their key (or the server's) and their model. The model they chose
    writes, edits and checks their articles; routing and monitoring keep the department's (or
    server's) default, since a dearer model buys nothing there."""
    chosen = reporter.llm_model if writing else ""
    return CallContext(
        api_key=resolve_api_key(reporter.anthropic_key()),
        run_id=run_id,
        reporter_id=reporter.pk,
        model=catalog.model_for(chosen=chosen, department=reporter.department),
    )


def resolve_api_key(reporter_key: str) -> str:
    """The reporter's own key, else the server's fallback key, else a clear error."""
    key = reporter_key or settings.ANTHROPIC_API_KEY
    if not key:
        raise LLMKeyMissing(msg.NO_API_KEY)
    return key


@dataclass(frozen=True)
class ToolUse:
    id: str
    name: str
    input: dict[str, Any]


@dataclass(frozen=True)
class StepResult:
    """One loop step: the assistant content to append and the tool calls to run."""

    content: list[dict[str, Any]]
    tool_uses: list[ToolUse]
    text: str
    stop_reason: str | None


# --- the client -------------------------------------------------------------------------------
_client_lock = threading.Lock()


def _client(api_key: str, base_url: str | None, timeout: int) -> anthropic.Anthropic:
    # One client per key, shared by the llm worker's threads: the SDK client (an httpx2 pool) is
    # thread-safe, and sharing it keeps its connections warm. The lock makes the 32 threads that
    # start at once with the same key build one client, not 32 (each loads the CA bundle).
    with _client_lock:
        return _new_client(api_key, base_url, timeout)


@lru_cache(maxsize=32)
def _new_client(api_key: str, base_url: str | None, timeout: int) -> anthropic.Anthropic:
    # One retry inside the SDK; longer waits belong to Celery, which frees the worker meanwhile.
    import anthropic

    return anthropic.Anthropic(api_key=api_key, base_url=base_url, max_retries=1, timeout=timeout)


def preload_sdk() -> None:
    """Imports the SDK now (the llm worker calls this at start, before its threads race for it)."""
    import anthropic  # noqa: F401


def _create(
    ctx: CallContext,
    *,
    purpose: str,
    max_tokens: int,
    system: str,
    messages: Sequence[dict[str, Any]],
    tools: Sequence[dict[str, Any]],
    tool_choice: dict[str, Any] | None,
    cache_messages: bool = False,
    timeout: float | None = None,
) -> Any:
    import anthropic

    model = ctx.model or settings.NEWSDESK_LLM_MODEL
    params: dict[str, Any] = {
        "model": model,
        "max_tokens": max_tokens,
        "system": [{"type": "text", "text": system}],
        "messages": list(messages),
    }
    if tools:
        params["tools"] = list(tools)
    params = _with_cache_markers(params, cache_messages=cache_messages)
    if tool_choice is not None:
        params["tool_choice"] = tool_choice
    # Forced tool use and thinking do not mix; which models need telling differs (settings).
    if thinking := catalog.spec_for(model).thinking_for(tool_choice):
        params["thinking"] = thinking
    # One write per call, after it: the row is built now and saved once with the outcome. A call
    # cut short by anything else (a time limit, a shutdown) is still saved, as an error.
    call = LLMCall(
        run_id=ctx.run_id,
        reporter_id=ctx.reporter_id,
        purpose=purpose,
        model=model,
        request_chars=len(json.dumps(params, ensure_ascii=False)),
    )
    started = time.monotonic()
    try:
        client = _client(ctx.api_key, settings.ANTHROPIC_BASE_URL, settings.NEWSDESK_LLM_TIMEOUT)
        response = client.messages.create(**params) if timeout is None else _within(client, params, timeout)
    except anthropic.APIError as exc:
        error = translate(exc)
        _finish(call, started, status=LLMCall.Status.ERROR, error=f"{type(exc).__name__}: {error.code}")
        raise error from exc
    except BaseException as exc:
        _finish(call, started, status=LLMCall.Status.ERROR, error=f"interrupted: {type(exc).__name__}")
        raise
    usage = _usage(response)
    _finish(call, started, status=LLMCall.Status.OK, usage=usage, model=model)
    if response.stop_reason == "refusal":
        raise LLMBadOutput(msg.LLM_REFUSED)
    return response


RETRY_PAUSE_SECONDS = 0.5  # the SDK's own first retry delay


def _within(client: anthropic.Anthropic, params: dict[str, Any], timeout: float) -> Any:
    """One call that ends within `timeout` seconds, retries included.

    The SDK's retry would start a timed-out call afresh, past the time given, so it is off here
    and its one retry of an overloaded or failed answer (429, 529, 5xx, a dropped connection) is
    made in its place while time is left. The copies share the client's connection pool.
    """
    import anthropic

    ends = time.monotonic() + timeout
    try:
        return client.with_options(timeout=timeout, max_retries=0).messages.create(**params)
    except anthropic.APITimeoutError:
        raise
    except (anthropic.APIStatusError, anthropic.APIConnectionError) as exc:
        left = ends - time.monotonic() - RETRY_PAUSE_SECONDS
        if left <= 0 or not worth_retrying(exc):
            raise
    time.sleep(RETRY_PAUSE_SECONDS)
    return client.with_options(timeout=left, max_retries=0).messages.create(**params)


def _usage(response: Any) -> Usage:
    u = response.usage
    return Usage(
        input_tokens=u.input_tokens or 0,
        output_tokens=u.output_tokens or 0,
        cache_read_input_tokens=u.cache_read_input_tokens or 0,
        cache_creation_input_tokens=u.cache_creation_input_tokens or 0,
    )


def _finish(
    call: LLMCall,
    started: float,
    *,
    status: str,
    usage: Usage | None = None,
    model: str = "",
    error: str = "",
) -> None:
    call.status = status
    call.latency_ms = int((time.monotonic() - started) * 1000)
    call.error = error[:300]
    if usage is not None:
        call.input_tokens = usage.input_tokens
        call.output_tokens = usage.output_tokens
        call.cache_read_input_tokens = usage.cache_read_input_tokens
        call.cache_creation_input_tokens = usage.cache_creation_input_tokens
        call.cost_usd = cost_usd(model, usage)
    call.save()


def _block_dict(block: Any) -> dict[str, Any]:
    data: dict[str, Any] = block.model_dump(mode="json", exclude_none=True)
    if data.get("type") == "text":
        data.pop("citations", None)
    return data


# --- public calls -----------------------------------------------------------------------------
def call_tool(
    *,
    ctx: CallContext,
    purpose: str,
    system: str,
    messages: Sequence[dict[str, Any]],
    tool: Tool,
    schema: type[Schema],
    max_tokens: int = 1024,
    extra_tools: Iterable[Tool] = (),
) -> Schema:
    """Forces exactly one call of `tool` and returns its input validated by `schema`.

    An invalid input is re-asked once with the validation error; a second failure raises
    LLMBadOutput. An answer cut off by `max_tokens` raises LLMTruncated at once. `extra_tools` are
    only listed (so the cached prefix is shared with loop calls).
    """
    specs = [t.spec() for t in (*extra_tools, tool)]
    choice = {"type": "tool", "name": tool.name, "disable_parallel_tool_use": True}
    conversation = list(messages)
    for attempt in (1, 2):
        response = _create(
            ctx,
            purpose=purpose,
            max_tokens=max_tokens,
            system=system,
            messages=conversation,
            tools=specs,
            tool_choice=choice,
        )
        if response.stop_reason == "max_tokens":
            raise LLMTruncated(msg.LLM_BAD_OUTPUT, detail=f"{purpose}: cut off at {max_tokens} tokens")
        block = next((b for b in response.content if b.type == "tool_use" and b.name == tool.name), None)
        if block is None:
            problem = f"{tool.name} 도구를 호출하지 않았습니다."
        else:
            try:
                return schema.model_validate(block.input)
            except ValidationError as exc:
                problem = describe_error(exc)
        log.warning("llm output rejected (%s, attempt %s): %s", purpose, attempt, problem)
        if attempt == 2 or block is None:
            break
        conversation = [*conversation, *_reask(response, block.id, tool.name, problem)]
    raise LLMBadOutput(msg.LLM_BAD_OUTPUT, detail=f"{purpose}: {problem}")


def loop_step(
    *,
    ctx: CallContext,
    purpose: str,
    system: str,
    messages: Sequence[dict[str, Any]],
    tools: Sequence[Tool],
    max_tokens: int = 4096,
    force: str | None = None,
    timeout: float | None = None,
) -> StepResult:
    """One turn of an agent loop: the model must call at least one (maybe several) of `tools`.

    `force` names the one tool the model must call (the loop's last turn forces submission);
    `timeout` (seconds, no SDK retry) bounds this call, else NEWSDESK_LLM_TIMEOUT does.
    """
    choice = {"type": "tool", "name": force} if force else {"type": "any"}
    response = _create(
        ctx,
        purpose=purpose,
        max_tokens=max_tokens,
        system=system,
        messages=messages,
        tools=[t.spec() for t in tools],
        tool_choice=choice,
        cache_messages=True,
        timeout=timeout,
    )
    uses = [ToolUse(b.id, b.name, dict(b.input)) for b in response.content if b.type == "tool_use"]
    text = "".join(b.text for b in response.content if b.type == "text")
    return StepResult([_block_dict(b) for b in response.content], uses, text, response.stop_reason)


def reply_text(
    *, ctx: CallContext, purpose: str, system: str, messages: Sequence[dict[str, Any]], max_tokens: int = 512
) -> str:
    response = _create(
        ctx,
        purpose=purpose,
        max_tokens=max_tokens,
        system=system,
        messages=messages,
        tools=[],
        tool_choice=None,
    )
    text = "".join(b.text for b in response.content if b.type == "text").strip()
    if not text:
        raise LLMBadOutput(msg.LLM_BAD_OUTPUT, detail=f"{purpose}: empty text")
    return text


def key_test(*, api_key: str) -> None:
    """One cheap call to see whether a key is accepted (the profile's "test key" button)."""
    ctx = CallContext(api_key=api_key)
    reply_text(
        ctx=ctx,
        purpose="key_check",
        system="Reply with OK.",
        messages=[{"role": "user", "content": "ping"}],
        max_tokens=5,
    )


def _reask(response: Any, tool_use_id: str, tool_name: str, problem: str) -> list[dict[str, Any]]:
    feedback = f"입력이 형식에 맞지 않습니다. 고쳐서 {tool_name}을(를) 다시 호출하세요: {problem}"
    result = {"type": "tool_result", "tool_use_id": tool_use_id, "is_error": True, "content": feedback}
    return [
        {"role": "assistant", "content": [_block_dict(b) for b in response.content]},
        {"role": "user", "content": [result]},
    ]


def describe_error(exc: ValidationError) -> str:
    return "; ".join(f"{'.'.join(map(str, e['loc'])) or '(root)'}: {e['msg']}" for e in exc.errors())[:800]

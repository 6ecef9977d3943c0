"""A scripted Anthropic Messages API on loopback.

The real SDK talks HTTP to it. Each expected call is queued in order; a call with nothing
queued, or one whose forced tool differs from what the script expects, is answered with a 400
and recorded as a problem, and `assert_complete()` fails on problems and on leftovers. Every
request is kept so tests assert on what was sent.

Usage is modelled on the real API: input tokens are estimated from the request, and the
tools + system prefix is "cached" when marked with cache_control and at least 4,096 tokens
long (Haiku 4.5's minimum), so benches see realistic cache counters.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from tests.fakes.server import Loopback, QuietHandler

CHARS_PER_TOKEN = 2.5  # rough for mixed Korean/JSON text
MIN_CACHEABLE_TOKENS = 4096
_ids = itertools.count(1)


def tokens(text: str) -> int:
    return max(1, int(len(text) / CHARS_PER_TOKEN))


def tool_use(name: str, input: dict[str, Any], *, id: str | None = None) -> dict[str, Any]:
    return {"type": "tool_use", "id": id or f"toolu_{next(_ids):04d}", "name": name, "input": input}


def text(value: str) -> dict[str, Any]:
    return {"type": "text", "text": value}


@dataclass
class Recorded:
    body: dict[str, Any]
    headers: dict[str, str]

    @property
    def api_key(self) -> str:
        # SDK 2.x sends the key as a bearer token; older clients used x-api-key.
        bearer = self.headers.get("authorization", "")
        return bearer.removeprefix("Bearer ") if bearer else self.headers.get("x-api-key", "")

    @property
    def tool_choice(self) -> dict[str, Any] | None:
        return self.body.get("tool_choice")

    @property
    def forced_tool(self) -> str | None:
        choice = self.tool_choice or {}
        return choice.get("name") if choice.get("type") == "tool" else None

    @property
    def tool_names(self) -> list[str]:
        return [t["name"] for t in self.body.get("tools", [])]

    @property
    def messages(self) -> list[dict[str, Any]]:
        return self.body["messages"]

    @property
    def system_text(self) -> str:
        system = self.body.get("system", "")
        if isinstance(system, list):
            return "".join(block.get("text", "") for block in system)
        return system

    def last_user_text(self) -> str:
        """All text of the last user message, tool results included."""
        content = self.messages[-1]["content"]
        if isinstance(content, str):
            return content
        parts = []
        for block in content:
            if block.get("type") == "text":
                parts.append(block["text"])
            elif block.get("type") == "tool_result":
                inner = block.get("content", "")
                parts.append(inner if isinstance(inner, str) else json.dumps(inner, ensure_ascii=False))
        return "\n".join(parts)

    def all_text(self) -> str:
        return json.dumps(self.body, ensure_ascii=False)


@dataclass
class Step:
    expect: str | None  # forced tool name, "loop" for a tool_choice any/auto step, None for anything
    respond: Callable[[Recorded], tuple[int, dict[str, Any], dict[str, str]]]
    delay: float = 0.0
    label: str = ""


@dataclass
class FakeAnthropic:
    steps: deque[Step] = field(default_factory=deque)
    requests: list[Recorded] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    latency: float = 0.0
    _seen_prefixes: set[str] = field(default_factory=set)

    def __post_init__(self) -> None:
        self._lock = threading.Lock()
        fake = self

        class Handler(QuietHandler):
            def do_POST(self) -> None:
                length = int(self.headers.get("content-length", "0"))
                body = json.loads(self.rfile.read(length) or b"{}")
                status, payload, headers = fake._handle(self.path, body, dict(self.headers.items()))
                data = json.dumps(payload, ensure_ascii=False).encode()
                self.send_body(status, data, "application/json", headers)

        self.http = Loopback(Handler)

    # --- scripting ------------------------------------------------------------------------
    @property
    def base_url(self) -> str:
        return self.http.origin

    def reply(
        self,
        *blocks: dict[str, Any],
        expect: str | None = None,
        stop_reason: str | None = None,
        delay: float = 0.0,
        output_tokens: int | None = None,
    ) -> None:
        """Queues a successful response with these content blocks."""
        reason = stop_reason or ("tool_use" if any(b["type"] == "tool_use" for b in blocks) else "end_turn")

        def respond(req: Recorded) -> tuple[int, dict[str, Any], dict[str, str]]:
            return 200, self._message(req, list(blocks), reason, output_tokens), {}

        self.steps.append(Step(expect, respond, delay, label=expect or "reply"))

    def tool(self, name: str, input: dict[str, Any], *, forced: bool = True, **kwargs: Any) -> None:
        """Queues a single tool call; `forced` expects tool_choice to name this tool."""
        self.reply(tool_use(name, input), expect=name if forced else "loop", **kwargs)

    def tools(self, *uses: tuple[str, dict[str, Any]], **kwargs: Any) -> None:
        """Queues one loop step answered with several tool calls at once."""
        self.reply(*(tool_use(name, args) for name, args in uses), expect="loop", **kwargs)

    def respond_with(
        self, fn: Callable[[Recorded], list[dict[str, Any]]], *, expect: str | None = None
    ) -> None:
        """Queues a response computed from the request (for example, from its numbered list)."""

        def respond(req: Recorded) -> tuple[int, dict[str, Any], dict[str, str]]:
            blocks = fn(req)
            reason = "tool_use" if any(b["type"] == "tool_use" for b in blocks) else "end_turn"
            return 200, self._message(req, blocks, reason, None), {}

        self.steps.append(Step(expect, respond, label=expect or "computed"))

    def error(
        self,
        status: int,
        *,
        kind: str | None = None,
        message: str = "error",
        headers: dict[str, str] | None = None,
        expect: str | None = None,
    ) -> None:
        error_type = kind or {
            400: "invalid_request_error",
            401: "authentication_error",
            403: "permission_error",
            429: "rate_limit_error",
            500: "api_error",
            529: "overloaded_error",
        }.get(status, "api_error")
        payload = {"type": "error", "error": {"type": error_type, "message": message}}
        self.steps.append(
            Step(expect, lambda req: (status, payload, dict(headers or {})), label=f"error {status}")
        )

    def stall(self, seconds: float, *, expect: str | None = None) -> None:
        """Queues a call that answers only after `seconds` (for client timeouts)."""
        self.reply(text("late"), expect=expect, delay=seconds)

    # --- checks ---------------------------------------------------------------------------
    def assert_complete(self) -> None:
        leftovers = [step.label for step in self.steps]
        assert not self.problems, f"unexpected LLM calls: {self.problems}"
        assert not leftovers, f"scripted LLM calls never made: {leftovers}"

    def calls_for(self, tool_name: str) -> list[Recorded]:
        return [r for r in self.requests if r.forced_tool == tool_name]

    def close(self) -> None:
        self.http.close()

    # --- serving --------------------------------------------------------------------------
    def _handle(self, path: str, body: dict[str, Any], headers: dict[str, str]) -> tuple[int, dict, dict]:
        headers = {k.lower(): v for k, v in headers.items()}
        request = Recorded(body=body, headers=headers)
        with self._lock:
            self.requests.append(request)
            if not path.startswith("/v1/messages"):
                return self._refuse(f"unexpected path {path}")
            if not self.steps:
                return self._refuse(f"no call scripted (forced tool: {request.forced_tool})")
            step = self.steps[0]
            mismatch = self._mismatch(step, request)
            if mismatch:
                return self._refuse(mismatch)
            self.steps.popleft()
        if step.delay or self.latency:
            time.sleep(step.delay or self.latency)
        return step.respond(request)

    def _mismatch(self, step: Step, request: Recorded) -> str:
        if step.expect is None:
            return ""
        if step.expect == "loop":
            return (
                ""
                if request.forced_tool is None
                else f"expected a loop step, got forced {request.forced_tool}"
            )
        if request.forced_tool != step.expect:
            return f"expected forced {step.expect}, got {request.forced_tool or 'a loop step'}"
        return ""

    def _refuse(self, problem: str) -> tuple[int, dict, dict]:
        self.problems.append(problem)
        payload = {
            "type": "error",
            "error": {"type": "invalid_request_error", "message": f"FakeAnthropic: {problem}"},
        }
        return 400, payload, {"x-should-retry": "false"}

    def _message(
        self, req: Recorded, blocks: list[dict[str, Any]], reason: str, output_tokens: int | None
    ) -> dict[str, Any]:
        return {
            "id": f"msg_{next(_ids):06d}",
            "type": "message",
            "role": "assistant",
            "model": req.body.get("model", "claude-haiku-4-5-20251001"),
            "content": blocks,
            "stop_reason": reason,
            "stop_sequence": None,
            "usage": self._usage(req, blocks, output_tokens),
        }

    def _usage(
        self, req: Recorded, blocks: list[dict[str, Any]], output_tokens: int | None
    ) -> dict[str, int]:
        body = req.body
        prefix = json.dumps([body.get("tools", []), body.get("system", "")], ensure_ascii=False)
        prefix_tokens = tokens(prefix)
        total = tokens(json.dumps(body, ensure_ascii=False))
        cache_read = cache_write = 0
        if "cache_control" in prefix and prefix_tokens >= MIN_CACHEABLE_TOKENS:
            digest = hashlib.sha256(prefix.encode()).hexdigest()
            with self._lock:
                if digest in self._seen_prefixes:
                    cache_read = prefix_tokens
                else:
                    cache_write = prefix_tokens
                    self._seen_prefixes.add(digest)
        out = output_tokens if output_tokens is not None else tokens(json.dumps(blocks, ensure_ascii=False))
        return {
            "input_tokens": max(1, total - cache_read - cache_write),
            "output_tokens": out,
            "cache_read_input_tokens": cache_read,
            "cache_creation_input_tokens": cache_write,
        }

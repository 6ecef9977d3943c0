"""A scripted Anthropic Messages API on loopback.

The real SDK talks HTTP to it. Each expected call is queued in order; a call with nothing
queued, or one whose forced tool differs from what the script expects, is answered with a 400
and recorded as a problem, and `assert_complete()` fails on problems and on leftovers. Every
request is kept so tests assert on what was sent.

Usage is modelled on the real API: input tokens are estimated from the request, and prompt
caching follows the API's rules (breakpoints, a 20-block lookback, the per-model minimum
prefix, per-key caches), so benches see realistic cache counters.
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
# Kept apart from agents.llm.client's table on purpose: the fake checks the code, it does not share it.
MIN_CACHEABLE = {
    "claude-haiku-4-5": 4096,
    "claude-opus-4-5": 4096,
    "claude-opus-4-6": 4096,
    "claude-sonnet-4-6": 2048,
    "claude-haiku-3-5": 2048,
    "claude-sonnet-4-5": 1024,
    "claude-sonnet-4": 1024,
    "claude-opus-4": 1024,
}
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
    # Answers any call when nothing is scripted (many concurrent runs, whose order is unknown).
    fallback: Callable[[Recorded], list[dict[str, Any]]] | None = None
    in_flight: int = 0
    peak_in_flight: int = 0
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

    def otherwise(self, fn: Callable[[Recorded], list[dict[str, Any]]]) -> None:
        """Answers every call that finds no scripted step with `fn(request)` (order-free)."""
        self.fallback = fn

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
            if not self.steps and self.fallback is not None:
                step = self._fallback_step()
            elif not self.steps:
                return self._refuse(f"no call scripted (forced tool: {request.forced_tool})")
            else:
                step = self.steps[0]
                mismatch = self._mismatch(step, request)
                if mismatch:
                    return self._refuse(mismatch)
                self.steps.popleft()
            self.in_flight += 1
            self.peak_in_flight = max(self.peak_in_flight, self.in_flight)
        try:
            if step.delay or self.latency:
                time.sleep(step.delay or self.latency)
            return step.respond(request)
        finally:
            with self._lock:
                self.in_flight -= 1

    def _fallback_step(self) -> Step:
        fallback = self.fallback
        assert fallback is not None

        def respond(req: Recorded) -> tuple[int, dict[str, Any], dict[str, str]]:
            blocks = fallback(req)
            reason = "tool_use" if any(b["type"] == "tool_use" for b in blocks) else "end_turn"
            return 200, self._message(req, blocks, reason, None), {}

        return Step(None, respond, label="fallback")

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
        cache_read, cache_write = self._cache(req)
        total = tokens(json.dumps(body, ensure_ascii=False))
        out = output_tokens if output_tokens is not None else tokens(json.dumps(blocks, ensure_ascii=False))
        return {
            "input_tokens": max(1, total - cache_read - cache_write),
            "output_tokens": out,
            "cache_read_input_tokens": cache_read,
            "cache_creation_input_tokens": cache_write,
        }

    def _cache(self, req: Recorded) -> tuple[int, int]:
        """Prompt caching as the API counts it: (tokens read, tokens written).

        The prompt is a chain of blocks (tools, system, then each message's content blocks); a
        block with cache_control is a breakpoint whose whole prefix is stored if it reaches the
        model's minimum. A request reads the longest stored prefix ending at one of its
        breakpoints or up to 20 blocks before one (so turn N+1 finds turn N's breakpoint), and
        writes the rest up to its last breakpoint. Caches are per key and model; changing
        tool_choice or thinking invalidates the messages' part, as the API documents.
        """
        chain = self._chain(req)
        minimum = min_cacheable_tokens(req.body.get("model", ""))
        marks = [i for i, (_, _, marked) in enumerate(chain) if marked]
        with self._lock:
            read = 0
            for mark in marks:
                for j in range(mark, max(-1, mark - 21), -1):
                    if chain[j][0] in self._seen_prefixes:
                        read = max(read, chain[j][1])
                        break
            stored = [i for i in marks if chain[i][1] >= minimum]
            for i in stored:
                self._seen_prefixes.add(chain[i][0])
        written = max(0, chain[stored[-1]][1] - read) if stored else 0
        return read, written

    @staticmethod
    def _chain(req: Recorded) -> list[tuple[str, int, bool]]:
        """(prefix digest, prefix tokens, marked) for every block, in prompt order."""
        body = req.body
        system = body.get("system", "")
        parts: list[Any] = [*body.get("tools", []), *(system if isinstance(system, list) else [system])]
        head = len(parts)
        parts.append({"tool_choice": body.get("tool_choice"), "thinking": body.get("thinking")})
        for message in body.get("messages", []):
            content = message["content"]
            for block in [{"type": "text", "text": content}] if isinstance(content, str) else content:
                parts.append({"role": message["role"], **block})
        digest = hashlib.sha256(f"{req.api_key}|{body.get('model')}".encode())
        chain, total = [], 0
        for index, part in enumerate(parts):
            marked = isinstance(part, dict) and "cache_control" in part
            clean = (
                {k: v for k, v in part.items() if k != "cache_control"} if isinstance(part, dict) else part
            )
            serial = json.dumps(clean, ensure_ascii=False, sort_keys=True)
            digest.update(serial.encode())
            total += tokens(serial)
            if index != head:  # the tool_choice pseudo-block is no place for a breakpoint
                chain.append((digest.hexdigest(), total, marked))
        return chain


def min_cacheable_tokens(model: str) -> int:
    """Anthropic's documented minimum cacheable prompt per model (strictest for unknown ids)."""
    for prefix, minimum in MIN_CACHEABLE.items():
        if model.startswith(prefix):
            return minimum
    return max(MIN_CACHEABLE.values())

"""Where prompt-cache breakpoints go: only where the prefix up to them can reach the model's minimum."""

from __future__ import annotations

import json
from typing import Any

from agents.llm import catalog

EPHEMERAL = {"type": "ephemeral"}

# The shortest prefix each model caches (Anthropic's prompt-caching docs); a marker on a shorter
# prefix is silently ignored, so none is sent. Unknown ids get the strictest known minimum.
MIN_CACHEABLE_TOKENS: dict[str, int] = {
    "claude-haiku-4-5": 4096,
    "claude-opus-4-5": 4096,
    "claude-opus-4-6": 4096,
    "claude-sonnet-4-6": 2048,
    "claude-haiku-3-5": 2048,
    "claude-sonnet-4-5": 1024,
    "claude-sonnet-4": 1024,
    "claude-opus-4": 1024,
}
CHARS_PER_TOKEN = 2.5  # mixed Korean text and JSON; the decision only needs the right magnitude


def min_cacheable_tokens(model: str) -> int:
    spec = catalog.catalog().get(model)
    if spec is not None and spec.min_cache_tokens:  # the model table in settings says it first
        return spec.min_cache_tokens
    for prefix, minimum in MIN_CACHEABLE_TOKENS.items():
        if model.startswith(prefix):
            return minimum
    return max(MIN_CACHEABLE_TOKENS.values())


def estimated_tokens(value: Any) -> int:
    return int(len(json.dumps(value, ensure_ascii=False)) / CHARS_PER_TOKEN)


def with_cache_markers(params: dict[str, Any], *, cache_messages: bool) -> dict[str, Any]:
    """Adds cache breakpoints where the prefix up to them can be cached, and nowhere else.

    Prefix order is tools → system → messages. In a loop, the first user message carries the
    long stable material (style guide, press release, attachment and article texts), and the
    last message grows by one turn each call; a breakpoint on both lets turn N+1 read everything
    up to turn N from the cache. One-shot calls mark only a tools + system prefix long enough.
    """
    minimum = min_cacheable_tokens(params["model"])
    head = estimated_tokens([params.get("tools", []), params["system"]])
    if head >= minimum:
        params["system"] = [{**params["system"][-1], "cache_control": EPHEMERAL}]
    if not cache_messages or head + estimated_tokens(params["messages"]) < minimum:
        return params
    messages = list(params["messages"])
    marks = {len(messages) - 1}
    if head + estimated_tokens(messages[:1]) >= minimum:
        marks.add(0)
    for index in marks:
        messages[index] = _marked(messages[index])
    params["messages"] = messages
    return params


def _marked(message: dict[str, Any]) -> dict[str, Any]:
    """A copy of the message with a breakpoint on its last block (the caller's list is untouched,
    so markers never pile up past the API's four)."""
    content = message["content"]
    blocks = [{"type": "text", "text": content}] if isinstance(content, str) else list(content)
    blocks[-1] = {**blocks[-1], "cache_control": EPHEMERAL}
    return {**message, "content": blocks}

"""One model response's tool calls, run: refusals and repeats answered without running anything,
network-bound calls side by side, results in the order the model gave them."""

from __future__ import annotations

import json
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from django import db
from pydantic import ValidationError

from agents.drafting import tools
from agents.llm import client as llm


def run_tools(state: tools.WritingState, uses: list[llm.ToolUse]) -> list[dict[str, Any]]:
    """Runs one response's tool calls; network-bound ones concurrently, in the order given back.

    A refused call and a repeat of an earlier call (same tool, same arguments, in this run) run
    nothing: the first gets an error result, the second the earlier result.
    """
    answered: dict[str, tuple[str, bool]] = {}
    fresh: dict[str, llm.ToolUse] = {}
    for use in uses:
        refused = refusal(state, use)
        if refused is not None:
            answered[use.id] = (refused, True)
        elif _signature(use) not in state.results:
            fresh.setdefault(_signature(use), use)
    _run_fresh(state, list(fresh.values()))
    results = []
    for use in uses:
        content, is_error = answered.get(use.id) or state.results[_signature(use)]
        results.append(
            {"type": "tool_result", "tool_use_id": use.id, "content": content, "is_error": is_error}
        )
    return results


def _run_fresh(state: tools.WritingState, uses: list[llm.ToolUse]) -> None:
    threaded = [use for use in uses if use.name in tools.THREAD_SAFE]
    with ThreadPoolExecutor(max_workers=max(1, len(threaded))) as pool:
        futures = {use.id: pool.submit(_execute_in_thread, state, use) for use in threaded}
        inline = {use.id: _execute(state, use) for use in uses if use.name not in tools.THREAD_SAFE}
        outputs = {**inline, **{key: future.result() for key, future in futures.items()}}
    for use in uses:
        content, is_error = outputs[use.id]
        if callable(content):
            content, is_error = _finish(content)
        state.results[_signature(use)] = (content, is_error)


def _finish(record: Callable[[], str]) -> tuple[str, bool]:
    try:
        return record(), False
    except tools.ToolFailed as exc:
        return str(exc), True


def _execute_in_thread(state: tools.WritingState, use: llm.ToolUse) -> tuple[tools.ToolOutput, bool]:
    try:
        return _execute(state, use)
    finally:
        db.connections.close_all()  # this thread's own connections; the pool thread ends next


def _execute(state: tools.WritingState, use: llm.ToolUse) -> tuple[tools.ToolOutput, bool]:
    entry = tools.EXECUTORS.get(use.name)
    if entry is None:
        return tools.RESULT_UNKNOWN_TOOL.format(name=use.name), True
    schema, executor = entry
    try:
        return executor(state, schema.model_validate(use.input)), False
    except ValidationError as exc:
        return tools.RESULT_BAD_INPUT.format(problem=llm.describe_error(exc)), True
    except tools.ToolFailed as exc:
        return str(exc), True


def refusal(state: tools.WritingState, use: llm.ToolUse) -> str | None:
    """Why a call is of no use now (a search code already ran, nothing to select yet, every
    attachment read); None when it may run."""
    if use.name == "fetch_articles" and state.searched_by_code:
        return tools.RESULT_ALREADY_SEARCHED
    if use.name == "select_articles" and not state.candidates:
        return tools.RESULT_NO_CANDIDATES_YET
    if use.name == "analyze_attachment" and len(state.attachment_texts) >= len(state.attachments):
        return tools.RESULT_ATTACHMENTS_READ
    return None


def _signature(use: llm.ToolUse) -> str:
    return use.name + json.dumps(use.input, ensure_ascii=False, sort_keys=True)

"""The one decoder for JSON bodies from outside (the Telegram webhook, the JSON API): bounded in
size and nesting, so a hostile body is a 4xx, never a 500.

Python's decoder recurses once per level of nesting: a body of ~1,500 brackets (3 kB) raises
RecursionError, which is not a ValueError, so a view that catches bad JSON answered it 500. No
legitimate body of ours nests past a dozen levels (a Telegram update with a replied-to message
and its entities is about eight), so anything deeper than MAX_DEPTH is refused before it is
parsed, by counting brackets outside strings (C-speed regex and `accumulate`, no parse).

Sizes: a body larger than Django's DATA_UPLOAD_MAX_MEMORY_SIZE is refused by Django when read
(RequestDataTooBig); here it becomes BodyTooLarge (413), as does a body over a caller's own limit.
"""

from __future__ import annotations

import json
import re
from itertools import accumulate
from typing import Any

from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from django.http import HttpRequest

MAX_DEPTH = 64
# A JSON string (escapes included), then anything that is not a bracket: what is left is the nesting.
_STRING = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)
_NOT_BRACKET = re.compile(rb"[^\[\]{}]+")
_STEP = [0] * 256
_STEP[ord("[")] = _STEP[ord("{")] = 1
_STEP[ord("]")] = _STEP[ord("}")] = -1


class UnsafeJSON(ValueError):
    """A body we do not parse: malformed, nested too deep, or too large. `status` is the answer."""

    status = 400


class TooDeep(UnsafeJSON):
    pass


class BodyTooLarge(UnsafeJSON):
    status = 413


def max_body_bytes() -> int:
    """The largest body read at all: Django's own limit on what it holds in memory."""
    return int(settings.DATA_UPLOAD_MAX_MEMORY_SIZE or 0) or 4 * 1024 * 1024


def request_json(request: HttpRequest, *, max_bytes: int | None = None, empty: bytes = b"") -> Any:
    """The request's body decoded; UnsafeJSON (or a subclass) for anything we refuse.

    A declared Content-Length over the limit is refused before the body is read.
    """
    limit = min(max_bytes or max_body_bytes(), max_body_bytes())
    if _declared_length(request) > limit:
        raise BodyTooLarge(f"body over {limit} bytes")
    try:
        body = request.body
    except RequestDataTooBig as exc:
        raise BodyTooLarge(str(exc)) from exc
    if len(body) > limit:
        raise BodyTooLarge(f"body over {limit} bytes")
    return loads(body or empty)


def loads(data: bytes | str, *, max_depth: int = MAX_DEPTH) -> Any:
    """json.loads, refusing (UnsafeJSON) malformed text and nesting deeper than `max_depth`."""
    raw = data.encode("utf-8", "surrogatepass") if isinstance(data, str) else data
    if nesting_depth(raw) > max_depth:
        raise TooDeep(f"JSON nested deeper than {max_depth} levels")
    try:
        return json.loads(raw)
    except (ValueError, UnicodeDecodeError, RecursionError) as exc:
        raise UnsafeJSON(str(exc)[:200]) from exc


def nesting_depth(raw: bytes) -> int:
    """How deep brackets nest outside strings; cheap when there are few brackets (the usual body)."""
    if raw.count(b"[") + raw.count(b"{") <= 1:
        return raw.count(b"[") + raw.count(b"{")
    brackets = _NOT_BRACKET.sub(b"", _STRING.sub(b"", raw))
    return max(accumulate(map(_STEP.__getitem__, brackets)), default=0)


def _declared_length(request: HttpRequest) -> int:
    try:
        return int(request.headers.get("Content-Length") or 0)
    except ValueError:
        return 0

"""The one decoder of outside JSON: ordinary bodies decode as json.loads does, hostile ones are refused."""

from __future__ import annotations

import json

import pytest

from newsdesk import safe_json
from tests.fakes.telegram import text_update


def nested(levels: int, opener: str = "[", closer: str = "]") -> str:
    return opener * levels + closer * levels


def test_an_ordinary_telegram_update_decodes_as_json_loads_does() -> None:
    update = text_update(chat_id=3, text='인용 "[괄호]" {중괄호} \\ 끝')

    assert safe_json.loads(json.dumps(update, ensure_ascii=False).encode()) == update


def test_brackets_inside_strings_do_not_count_as_nesting() -> None:
    text = json.dumps({"text": nested(500) + '\\"' + nested(500, "{", "}")})

    assert safe_json.nesting_depth(text.encode()) == 1
    assert safe_json.loads(text)["text"].startswith("[[[")


@pytest.mark.parametrize("levels", [safe_json.MAX_DEPTH + 1, 1500, 100_000])
def test_nesting_past_the_limit_is_refused_before_parsing(levels: int) -> None:
    with pytest.raises(safe_json.TooDeep):
        safe_json.loads(nested(levels))


def test_nesting_at_the_limit_is_accepted() -> None:
    assert safe_json.loads(nested(safe_json.MAX_DEPTH, "[", "]")) == _list_of_depth(safe_json.MAX_DEPTH)


@pytest.mark.parametrize("raw", [b"{not json", b"\xff\xfe", b'{"a": [1, 2}', b""])
def test_malformed_text_is_refused_as_unsafe_json(raw: bytes) -> None:
    with pytest.raises(safe_json.UnsafeJSON) as refused:
        safe_json.loads(raw)

    assert refused.value.status == 400


def test_too_large_is_answered_413_and_too_deep_400() -> None:
    assert safe_json.BodyTooLarge.status == 413
    assert safe_json.TooDeep.status == 400


def _list_of_depth(depth: int) -> list:
    value: list = []
    for _ in range(depth - 1):
        value = [value]
    return value

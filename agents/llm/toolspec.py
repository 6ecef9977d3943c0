"""A tool the model may call, described by a pydantic schema that also validates its input."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel


@dataclass(frozen=True)
class Tool:
    """A tool the model may call; the pydantic schema is both its JSON schema and its validator."""

    name: str
    description: str
    schema: type[BaseModel]

    def spec(self) -> dict[str, Any]:
        return {"name": self.name, "description": self.description, "input_schema": _clean(self.schema)}


def _clean(schema: type[BaseModel]) -> dict[str, Any]:
    """Pydantic's JSON schema without its annotation titles: they cost tokens and tell the model
    nothing. A *field* called "title" (a key of "properties") is kept, of course."""
    return _strip_titles(schema.model_json_schema())


def _strip_titles(node: Any, *, names: bool = False) -> Any:
    if isinstance(node, list):
        return [_strip_titles(value) for value in node]
    if not isinstance(node, dict):
        return node
    if names:  # the keys of "properties" and "$defs" are names, never annotations
        return {key: _strip_titles(value) for key, value in node.items()}
    return {
        key: _strip_titles(value, names=key in ("properties", "$defs"))
        for key, value in node.items()
        if not (key == "title" and isinstance(value, str))
    }

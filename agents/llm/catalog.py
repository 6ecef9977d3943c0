"""The model catalog: which Claude models a reporter may choose, what they cost, how to call them.

The table itself lives in settings (`NEWSDESK_LLM_MODELS`), so prices and names change without a
code change; this module reads it, resolves which model a reporter's work uses (their choice →
their department's default → the server default) and lists what is wrong with the table for the
startup check (`agents.llm.startup`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal, InvalidOperation
from typing import Any

from django.conf import settings
from django.utils import timezone

PRICE_FIELDS = ("input", "output", "cache_write", "cache_read")
TOOL_CHOICES = ("tool", "any")


class CatalogError(ValueError):
    """A row of the model table that cannot be used."""


@dataclass(frozen=True)
class ModelSpec:
    id: str
    label: str
    input: Decimal  # USD per million tokens
    output: Decimal
    cache_write: Decimal
    cache_read: Decimal
    retires: date | None = None
    thinking_when_forced: dict[str, dict[str, Any]] = field(default_factory=dict)
    min_cache_tokens: int = 0  # the shortest prefix the model caches (0: agents.llm.client's own table)

    @property
    def retired(self) -> bool:
        return self.retires is not None and timezone.localdate() >= self.retires

    def thinking_for(self, tool_choice: dict[str, Any] | None) -> dict[str, Any] | None:
        """The thinking setting to send with this tool_choice (None: send none)."""
        if tool_choice is None:
            return None
        found = self.thinking_when_forced.get(str(tool_choice.get("type")))
        return dict(found) if found else None


def parse_row(model_id: str, row: dict[str, Any]) -> ModelSpec:
    try:
        prices = {name: Decimal(str(row[name])) for name in PRICE_FIELDS}
    except (KeyError, InvalidOperation) as exc:
        raise CatalogError(f"{model_id}: prices {', '.join(PRICE_FIELDS)} are required numbers") from exc
    if any(value < 0 for value in prices.values()):
        raise CatalogError(f"{model_id}: a price is negative")
    retires = row.get("retires")
    try:
        retires_on = date.fromisoformat(str(retires)) if retires else None
    except ValueError as exc:
        raise CatalogError(f"{model_id}: retires must be YYYY-MM-DD") from exc
    thinking = row.get("thinking_when_forced") or {}
    if not isinstance(thinking, dict) or not all(
        key in TOOL_CHOICES and isinstance(value, dict) for key, value in thinking.items()
    ):
        raise CatalogError(f"{model_id}: thinking_when_forced maps {TOOL_CHOICES} to a thinking dict")
    return ModelSpec(
        id=model_id,
        label=str(row.get("label") or model_id),
        retires=retires_on,
        thinking_when_forced=thinking,
        min_cache_tokens=_whole_number(model_id, row.get("min_cache_tokens", 0)),
        **prices,
    )


def _whole_number(model_id: str, value: Any) -> int:
    if not isinstance(value, int) or value < 0:
        raise CatalogError(f"{model_id}: min_cache_tokens must be a whole number")
    return value


def catalog() -> dict[str, ModelSpec]:
    """Every usable row of the table (rows with errors are left out; the startup check names them)."""
    specs = {}
    for model_id, row in settings.NEWSDESK_LLM_MODELS.items():
        try:
            specs[model_id] = parse_row(model_id, row)
        except CatalogError:
            continue
    return specs


def model_choices() -> list[ModelSpec]:
    """The models a reporter may pick now, in table order."""
    return [spec for spec in catalog().values() if not spec.retired]


# Reporters call the model families by their Korean readings ("소넷으로 바꿔줘").
_FAMILY_READINGS = {"하이쿠": "haiku", "소넷": "sonnet", "오퍼스": "opus"}


def model_named(words: str) -> str | None:
    """The offered model a reporter named in words ("소넷", "Sonnet 5", an id); None when no
    offered model, or more than one, fits."""
    wanted = "".join(words.lower().split())
    for reading, family in _FAMILY_READINGS.items():
        wanted = wanted.replace(reading, family)
    if not wanted:
        return None
    fitting = [
        spec.id
        for spec in model_choices()
        if wanted in "".join(f"{spec.id} {spec.label}".lower().split()) or spec.id.lower() in wanted
    ]
    return fitting[0] if len(fitting) == 1 else None


def default_model(*, department: str = "") -> str:
    return settings.NEWSDESK_DEPARTMENT_MODELS.get(department) or settings.NEWSDESK_LLM_MODEL


def model_for(*, chosen: str, department: str) -> str:
    """The reporter's own choice while it is offered, else the department's or the server's default.

    A choice that left the table (or retired) falls back silently: the reporter's work must not
    fail because an operator removed a model; /status and the profile then show the default.
    """
    if chosen and chosen in {spec.id for spec in model_choices()}:
        return chosen
    return default_model(department=department)


def spec_for(model_id: str) -> ModelSpec:
    """The row for a model; an id not in the table (an old call's model) gets the default's row."""
    specs = catalog()
    if model_id in specs:
        return specs[model_id]
    fallback = specs.get(settings.NEWSDESK_LLM_MODEL)
    if fallback is None:  # the startup check refuses this configuration; keep costing possible
        return ModelSpec(model_id, model_id, Decimal(1), Decimal(5), Decimal("1.25"), Decimal("0.1"))
    return fallback


def label_for(model_id: str) -> str:
    spec = catalog().get(model_id)
    return spec.label if spec else model_id


def problems() -> list[str]:
    """What is wrong with the configured models, for the startup check (empty when all is well)."""
    found = []
    specs: dict[str, ModelSpec] = {}
    for model_id, row in settings.NEWSDESK_LLM_MODELS.items():
        try:
            specs[model_id] = parse_row(model_id, row if isinstance(row, dict) else {})
        except CatalogError as exc:
            found.append(str(exc))
    named = {"NEWSDESK_LLM_MODEL": settings.NEWSDESK_LLM_MODEL}
    named |= {f"NEWSDESK_DEPARTMENT_MODELS[{d}]": m for d, m in settings.NEWSDESK_DEPARTMENT_MODELS.items()}
    for where, model_id in named.items():
        spec = specs.get(model_id)
        if spec is None:
            offered = ", ".join(specs) or "empty"
            found.append(f"{where} = {model_id!r} is not in NEWSDESK_LLM_MODELS ({offered})")
        elif spec.retired:
            found.append(f"{where} = {model_id!r} retired on {spec.retires}")
    for spec in specs.values():
        if spec.retired and spec.id not in named.values():
            found.append(f"NEWSDESK_LLM_MODELS[{spec.id!r}] retired on {spec.retires}: remove it")
    return found

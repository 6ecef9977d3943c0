"""What a model call costs: token counts and the per-model prices of the settings' model table."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from agents.llm import catalog


@dataclass(frozen=True)
class Usage:
    input_tokens: int = 0
    output_tokens: int = 0
    cache_read_input_tokens: int = 0
    cache_creation_input_tokens: int = 0


def cost_usd(model: str, usage: Usage) -> Decimal:
    price = catalog.spec_for(model)
    million = Decimal(1_000_000)
    cost = (
        usage.input_tokens * price.input
        + usage.cache_creation_input_tokens * price.cache_write
        + usage.cache_read_input_tokens * price.cache_read
        + usage.output_tokens * price.output
    ) / million
    return cost.quantize(Decimal("0.000001"))

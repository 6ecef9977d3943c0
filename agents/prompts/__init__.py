"""Prompts live here as text files so they can be read and reviewed as prose."""

from __future__ import annotations

from functools import cache
from pathlib import Path

_DIR = Path(__file__).resolve().parent


@cache
def load(name: str) -> str:
    return (_DIR / f"{name}.txt").read_text(encoding="utf-8").strip()

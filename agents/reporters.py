"""What agents read of a reporter, as a type.

The Reporter model lives in `newsdesk`, and agents never imports newsdesk (the import direction
runs faces → agents). The services take the model instance the face passes in; this Protocol
names the part of it they use, so mypy checks every access instead of trusting `Any`.
"""

from __future__ import annotations

from typing import Any, Protocol


class ReporterLike(Protocol):
    """A reporter row: the `newsdesk.Reporter` model satisfies it (tests/agents/test_reporters.py)."""

    pk: Any  # Django's primary key; the foreign keys declared by string ("newsdesk.Reporter") hold it
    department: str
    keywords: Any  # a JSON list of strings
    llm_model: str
    publisher_style: str

    def anthropic_key(self) -> str: ...

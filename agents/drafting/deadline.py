"""The writing loop's time limit: model time only (NEWSDESK_WRITING_DEADLINE_SECONDS).

Searches and page fetches have their own timeouts and are not counted; verification runs after
the loop under the ordinary per-call timeout. When the budget is spent the loop keeps what it has.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from django.conf import settings

# When the time is up and nothing was submitted, one forced submission gets this share of the
# budget, but never less than the floor: a whole article cannot be written in a second or two.
FINAL_CALL_SHARE = 0.5
FINAL_CALL_FLOOR_SECONDS = 5.0


@dataclass
class ModelBudget:
    seconds: float
    spent: float = 0.0

    @classmethod
    def from_settings(cls) -> ModelBudget:
        return cls(seconds=float(settings.NEWSDESK_WRITING_DEADLINE_SECONDS))

    @property
    def remaining(self) -> float:
        return max(0.0, self.seconds - self.spent)

    @property
    def exhausted(self) -> bool:
        return self.remaining <= 0.0

    def call_timeout(self) -> tuple[float, bool]:
        """What the next call may take (the time left, never more than any one call may), and
        whether that limit is the deadline's, so that a timeout means the time is up."""
        per_call = float(settings.NEWSDESK_LLM_TIMEOUT)
        return min(self.remaining, per_call), self.remaining <= per_call

    def final_call_timeout(self) -> float:
        return max(FINAL_CALL_FLOOR_SECONDS, self.seconds * FINAL_CALL_SHARE)

    @contextmanager
    def timing(self) -> Iterator[None]:
        started = time.monotonic()
        try:
            yield
        finally:
            self.spent += time.monotonic() - started

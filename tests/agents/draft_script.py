"""Helpers that script the fake model for a whole draft, so tests read as the flow they check."""

from __future__ import annotations

from typing import Any

from tests.fakes.anthropic import FakeAnthropic
from tests.fixtures.press import BODY, HEADLINE


def submit(
    fake: FakeAnthropic,
    *,
    body: str = BODY,
    headline: str = HEADLINE,
    sources: list[int] | None = None,
    forced: bool = False,
) -> None:
    payload = {"headline": headline, "body": body, "word_count": len(body), "source_indices": sources or []}
    fake.tool("submit_article", payload, forced=forced)


def verify_pass(fake: FakeAnthropic, *, claims: list[dict[str, Any]] | None = None) -> None:
    issues = (
        claims
        if claims is not None
        else [
            {
                "claim": "지원 대상 2만 가구",
                "status": "confirmed",
                "kind": "number",
                "sentence": 1,
                "source": "자료 1",
            },
        ]
    )
    fake.tool(
        "verify_article", {"thinking": "모두 확인", "verdict": "pass", "issues": issues, "revisions": []}
    )


def verify_flags(
    fake: FakeAnthropic, *, sentence: int, claim: str, revision: str | None = None, status: str = "not_found"
) -> None:
    revisions = [] if revision is None else [{"sentence": sentence, "text": revision}]
    fake.tool(
        "verify_article",
        {
            "thinking": "자료에 없는 주장",
            "verdict": "needs_revision",
            "issues": [
                {"claim": claim, "status": status, "kind": "other", "sentence": sentence, "source": ""}
            ],
            "revisions": revisions,
        },
    )

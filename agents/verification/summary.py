"""What a verification checked and did, in counts: for one-line reports (the Telegram message,
a run's last event). Reads Issue values and VerificationIssue rows alike."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from agents.verification.suspects import SUSPECT, is_marked

FLAGGED = ("not_found", "contradicted")  # cut whatever the verifier brings (unless code confirms)
__all__ = ["FLAGGED", "SUSPECT", "Summary", "is_flagged", "summary", "tally"]


def tally(issues: Iterable[Any]) -> tuple[int, int]:
    """(claims confirmed, sentences cut or trimmed) of Issue values or VerificationIssue rows."""
    issues = list(issues)
    confirmed = sum(1 for i in issues if i.status == "confirmed")
    changed = len({i.sentence_index for i in issues if i.action != "kept"})
    return confirmed, changed


@dataclass(frozen=True)
class Summary:
    """What a verification checked and did, for one-line reports (the Telegram message)."""

    kinds: dict[str, int]  # claims checked per kind, in reading order of first appearance
    confirmed: int
    flagged: int
    deleted: int  # sentences cut
    trimmed: int  # sentences shortened
    headline_changed: bool
    marked: tuple[str, ...] = ()  # suspect claims kept for the reporter to check ("확인 필요")

    @property
    def checked(self) -> int:
        return sum(self.kinds.values())


def summary(issues: Iterable[Any]) -> Summary:
    """The Summary of Issue values or VerificationIssue rows."""
    issues = list(issues)
    kinds: dict[str, int] = {}
    for issue in issues:
        kinds[issue.kind] = kinds.get(issue.kind, 0) + 1
    body = [i for i in issues if i.sentence_index]
    return Summary(
        kinds=kinds,
        confirmed=sum(1 for i in issues if i.status == "confirmed"),
        flagged=sum(1 for i in issues if is_flagged(i)),
        deleted=len({i.sentence_index for i in body if i.action == "deleted"}),
        trimmed=len({i.sentence_index for i in body if i.action == "trimmed"}),
        headline_changed=any(i.sentence_index == 0 and i.action != "kept" for i in issues),
        marked=tuple(dict.fromkeys(i.claim for i in issues if is_marked(i))),
    )


def is_flagged(issue: Any) -> bool:
    """A claim the check found wrong or unsupported: flagged, or suspect and then cut."""
    return issue.status in FLAGGED or (issue.status == SUSPECT and issue.action != "kept")

"""Editors' review of verification issues (the admin's accept/dismiss actions call this)."""

from __future__ import annotations

from collections.abc import Sequence

from django.contrib.auth.models import AbstractBaseUser
from django.utils import timezone

from agents.models import VerificationIssue

REVIEW_STATES: frozenset[str] = frozenset(
    {VerificationIssue.ReviewState.ACCEPTED, VerificationIssue.ReviewState.DISMISSED}
)


def issues_review(*, issue_ids: Sequence[int], state: str, user: AbstractBaseUser) -> int:
    """Marks the issues accepted or dismissed by `user`; returns how many rows changed.

    A reviewed issue may be reviewed again (an editor changes their mind): the latest review
    wins. Going back to "open" is not a review, so it is refused.
    """
    if state not in REVIEW_STATES:
        raise ValueError(f"review state must be one of {sorted(REVIEW_STATES)}, not {state!r}")
    if not issue_ids:
        return 0
    # One UPDATE: a bulk action over a page of issues must not turn into one query per row.
    return VerificationIssue.objects.filter(pk__in=list(issue_ids)).update(
        review_state=state, reviewed_by=user, reviewed_at=timezone.now()
    )

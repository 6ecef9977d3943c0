from __future__ import annotations

from datetime import UTC, datetime

import pytest
import time_machine

from agents.models import VerificationIssue
from agents.verification.review import issues_review
from newsdesk.models import Reporter
from tests.factories import ArticleFactory, UserFactory, VerificationIssueFactory

pytestmark = pytest.mark.django_db

NOW = datetime(2026, 3, 2, 9, 30, tzinfo=UTC)


def make_issues(reporter: Reporter, count: int) -> list[VerificationIssue]:
    article = ArticleFactory(
        reporter=reporter,
        headline="제목",
        draft_body="초안",
        body="본문",
        verdict="revised",
        length=2,
    )
    return [
        VerificationIssueFactory(article=article, claim=f"주장 {n}", status="not_found", origin="code")
        for n in range(count)
    ]


def test_it_marks_the_given_issues_reviewed_by_the_user_now_and_returns_the_count(reporter: Reporter) -> None:
    first, second, third = make_issues(reporter, 3)
    editor = UserFactory(username="editor")

    with time_machine.travel(NOW, tick=False):
        count = issues_review(issue_ids=[first.pk, second.pk], state="accepted", user=editor)

    assert count == 2
    for issue in (first, second):
        issue.refresh_from_db()
        assert (issue.review_state, issue.reviewed_by, issue.reviewed_at) == ("accepted", editor, NOW)
    third.refresh_from_db()
    assert (third.review_state, third.reviewed_by, third.reviewed_at) == ("open", None, None)


def test_it_lets_a_later_review_overwrite_an_earlier_one(reporter: Reporter) -> None:
    (issue,) = make_issues(reporter, 1)
    issues_review(issue_ids=[issue.pk], state="accepted", user=UserFactory(username="first"))
    second = UserFactory(username="second")

    issues_review(issue_ids=[issue.pk], state="dismissed", user=second)

    issue.refresh_from_db()
    assert (issue.review_state, issue.reviewed_by) == ("dismissed", second)


@pytest.mark.parametrize("state", ["open", "bogus", ""])
def test_it_refuses_any_state_but_accepted_or_dismissed(reporter: Reporter, state: str) -> None:
    (issue,) = make_issues(reporter, 1)

    with pytest.raises(ValueError, match="review state"):
        issues_review(issue_ids=[issue.pk], state=state, user=UserFactory(username="editor"))

    issue.refresh_from_db()
    assert issue.review_state == "open"


def test_it_writes_a_whole_selection_in_one_update(reporter: Reporter, django_assert_num_queries) -> None:
    issues = make_issues(reporter, 20)
    editor = UserFactory(username="editor")

    with django_assert_num_queries(1):
        assert issues_review(issue_ids=[issue.pk for issue in issues], state="dismissed", user=editor) == 20


def test_an_empty_selection_touches_nothing(django_assert_num_queries) -> None:
    editor = UserFactory(username="editor")

    with django_assert_num_queries(0):
        assert issues_review(issue_ids=[], state="accepted", user=editor) == 0


def test_it_counts_only_issues_that_exist(reporter: Reporter) -> None:
    (issue,) = make_issues(reporter, 1)

    assert issues_review(issue_ids=[issue.pk, issue.pk + 1000], state="accepted", user=UserFactory()) == 1

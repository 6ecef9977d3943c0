"""Verification in the JSON API: the day of writing, where each issue sits and what was done, and the
rule family that raised it."""

from __future__ import annotations

import json

import pytest
from django.test import Client

from agents import tasks
from agents.verification.guard import split_sentences
from newsdesk.services import token_issue
from tests.agents.draft_script import submit, verify_pass
from tests.factories import ArticleFactory, VerificationIssueFactory
from tests.fakes.anthropic import FakeAnthropic
from tests.fixtures import suspects
from tests.fixtures.press import BODY_WITH_HALLUCINATION, PRESS_RELEASE
from tests.fixtures.suspects import suspect_guard  # noqa: F401 (a fixture)

pytestmark = pytest.mark.django_db
RELEASE = "교육부는 2026년 3월 15일 새 학기 지원 계획을 발표했다."
ARTICLE = "교육부는 지난달 새 학기 지원 계획을 발표했다."


@pytest.fixture
def api(reporter) -> Client:
    return Client(HTTP_AUTHORIZATION=f"Bearer {token_issue(reporter=reporter)}")


def post(client: Client, path: str, data: object):
    return client.post(path, data=json.dumps(data), content_type="application/json")


def test_relative_dates_are_read_against_the_reference_date_given(api: Client) -> None:
    written_in_april = post(
        api, "/api/verify", {"article": ARTICLE, "sources": [RELEASE], "reference_date": "2026-04-02"}
    ).json()
    written_a_year_later = post(
        api, "/api/verify", {"article": ARTICLE, "sources": [RELEASE], "reference_date": "2027-06-01"}
    ).json()

    assert written_in_april["verdict"] == "pass" and written_in_april["body"] == ARTICLE
    assert written_a_year_later["verdict"] == "revised" and written_a_year_later["body"] == ""


def test_without_a_reference_date_the_article_is_read_as_written_today(api: Client, time_machine) -> None:
    time_machine.move_to("2026-04-02 12:00:00+09:00")

    data = post(api, "/api/verify", {"article": ARTICLE, "sources": [RELEASE]}).json()

    assert data["verdict"] == "pass"


@pytest.mark.parametrize("bad", ["2026-13-01", "2026/04/02", "어제", "2026-02-30"])
def test_a_reference_date_that_is_not_a_real_yyyy_mm_dd_day_is_refused_in_korean(
    api: Client, bad: str
) -> None:
    response = post(api, "/api/verify", {"article": ARTICLE, "sources": [RELEASE], "reference_date": bad})

    assert response.status_code == 422
    assert response.json()["field"] == "reference_date"
    assert "YYYY-MM-DD" in response.json()["detail"] and "날짜" in response.json()["detail"]


def test_each_verify_issue_says_which_sentence_it_is_in_and_what_was_done(api: Client) -> None:
    data = post(api, "/api/verify", {"article": BODY_WITH_HALLUCINATION, "sources": [PRESS_RELEASE]}).json()

    last = len(split_sentences(BODY_WITH_HALLUCINATION))
    cut = next(i for i in data["issues"] if i["claim"] == "1,500억원")
    assert cut["sentence"] == last and cut["action"] == "deleted" and cut["reason"]
    kept = [i for i in data["issues"] if i["status"] == "confirmed"]
    assert kept and all(i["action"] == "kept" and 1 <= i["sentence"] < last for i in kept)


def test_each_draft_issue_says_which_sentence_it_is_in_with_0_for_the_headline(
    api: Client, fake_llm: FakeAnthropic
) -> None:
    submit(fake_llm, body=BODY_WITH_HALLUCINATION)
    verify_pass(fake_llm)
    run_id = post(api, "/api/drafts", {"press_release": PRESS_RELEASE}).json()["id"]
    tasks.draft_run.apply(args=[run_id])

    issues = api.get(f"/api/drafts/{run_id}").json()["verification"]["issues"]

    assert {"sentence", "action"} <= set(issues[0])
    cut = next(i for i in issues if i["claim"] == "1,500억원")
    assert cut["sentence"] == len(split_sentences(BODY_WITH_HALLUCINATION)) and cut["action"] == "deleted"
    headline = [i for i in issues if i["sentence"] == 0]
    assert headline and all(i["action"] == "kept" and i["status"] == "confirmed" for i in headline)


# --- two strengths of verdict: the rule family and the suspect status ---------------------------
@pytest.mark.usefixtures("suspect_guard")
def test_verify_only_keeps_a_suspect_sentence_and_marks_it_with_its_rule(api: Client) -> None:
    data = post(
        api,
        "/api/verify",
        {"article": suspects.BODY, "sources": [suspects.RELEASE], "reference_date": "2026-03-03"},
    ).json()

    assert data["body"] == suspects.BODY and data["verdict"] == "pass"
    marked = next(i for i in data["issues"] if i["claim"] == suspects.CLAIM)
    assert (marked["status"], marked["action"], marked["rule"]) == ("suspect", "kept", suspects.RULE)
    assert marked["reason"].startswith("확인 필요")
    assert all(i["rule"] for i in data["issues"])


def test_a_draft_issue_carries_its_rule_family(api: Client, reporter) -> None:
    article = ArticleFactory(reporter=reporter, draft_body=suspects.BODY)
    VerificationIssueFactory(
        article=article, claim="30.4%", status="suspect", action="kept", rule="bind:other-subject"
    )

    [issue] = api.get(f"/api/drafts/{article.run_id}").json()["verification"]["issues"]

    assert (issue["status"], issue["rule"]) == ("suspect", "bind:other-subject")


def test_another_reporters_draft_with_a_suspect_issue_is_still_not_found(api: Client, other_reporter) -> None:
    theirs = ArticleFactory(reporter=other_reporter)
    VerificationIssueFactory(article=theirs, claim="30.4%", status="suspect", rule="bind:other-subject")

    assert api.get(f"/api/drafts/{theirs.run_id}").status_code == 404

"""POST /api/drafts {"follow_up": {"item": id}}: a draft that starts from a reported competitor article."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.test import Client

from agents import tasks
from agents.models import Run
from newsdesk.services import token_issue
from tests.agents.draft_script import submit, verify_pass
from tests.fakes.anthropic import FakeAnthropic
from tests.fakes.pages import FakePages
from tests.fixtures.followup import (
    ADDRESS,
    BODY,
    HEADLINE,
    LENGTH,
    OUTLET,
    STORY,
    SUMMARY_BODY,
    TITLE,
    competitor_item,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def api(reporter: Any) -> Client:
    return Client(HTTP_AUTHORIZATION=f"Bearer {token_issue(reporter=reporter)}")


def post(client: Client, data: object) -> Any:
    return client.post("/api/drafts", data=json.dumps(data), content_type="application/json")


def test_a_check_items_id_drafts_a_follow_up_resting_on_the_competitors_article(
    api: Client, reporter: Any, pages: FakePages, fake_llm: FakeAnthropic
) -> None:
    item = competitor_item(reporter, pages)
    item_id = api.get(f"/api/runs/{item.run_id}").json()["items"][0]["id"]
    submit(fake_llm, body=BODY, headline=HEADLINE)
    verify_pass(fake_llm, claims=[])

    request = {"follow_up": {"item": item_id}, "instruction": "피해자 반응 중심으로", "length": LENGTH}
    response = post(api, request)
    assert response.status_code == 202
    tasks.draft_run.apply(args=[response.json()["id"]])
    draft = api.get(f"/api/drafts/{response.json()['id']}").json()

    assert draft["status"] == "done", draft["error"]
    prompt = fake_llm.requests[0].last_user_text()
    assert STORY[1] in prompt and "피해자 반응 중심으로" in prompt  # the page's text went to the model
    assert {"title": TITLE, "url": ADDRESS, "kind": "article", "outlet": OUTLET} in draft["sources"]
    spans = [span for sentence in draft["sentences"] for span in sentence["spans"]]
    assert spans and all(span["kind"] == "article" and span["outlet"] == OUTLET for span in spans)
    assert draft["body"].startswith(f"{OUTLET}에 따르면 국토교통부가")  # it rested on the article alone
    assert f"{OUTLET}에 따르면 한국토지주택공사(LH)가" in draft["body"]
    assert "\n\n한국일보는 매입 예산이" in draft["body"]  # already credited: left as written


def test_another_reporters_item_answers_404_and_queues_nothing(api: Client, other_reporter: Any) -> None:
    theirs = competitor_item(other_reporter)

    response = post(api, {"follow_up": {"item": theirs.pk}})

    assert response.status_code == 404 and "찾을 수 없습니다" in response.json()["detail"]
    assert post(api, {"follow_up": {"item": 999999}}).status_code == 404
    assert not Run.objects.filter(kind="draft").exists()


@pytest.mark.parametrize("follow_up", [{"item": "x"}, {"id": 3}, [1], {"item": True}, {"item": -1}])
def test_a_malformed_follow_up_gets_422_naming_the_field(api: Client, follow_up: object) -> None:
    response = post(api, {"follow_up": follow_up})

    assert response.status_code == 422 and response.json()["field"] == "follow_up"


def test_asking_twice_while_the_first_is_queued_gives_back_the_same_draft(api: Client, reporter: Any) -> None:
    item = competitor_item(reporter)

    first = post(api, {"follow_up": {"item": item.pk}}).json()["id"]
    again = post(api, {"follow_up": {"item": item.pk}}).json()["id"]

    assert first == again and Run.objects.filter(kind="draft").count() == 1


def test_an_unreadable_page_drafts_from_the_stored_summary_and_says_so(
    api: Client, reporter: Any, pages: FakePages, fake_llm: FakeAnthropic
) -> None:
    item = competitor_item(reporter, url=pages.url("/missing"))
    submit(fake_llm, body=SUMMARY_BODY, headline=HEADLINE)
    verify_pass(fake_llm, claims=[])

    run_id = post(api, {"follow_up": {"item": item.pk}, "length": 100}).json()["id"]
    tasks.draft_run.apply(args=[run_id])
    draft = api.get(f"/api/drafts/{run_id}").json()

    assert draft["status"] == "done"
    assert "LH를 통해 사들여" in fake_llm.requests[0].last_user_text()  # the summary stood in
    assert any("본문을 가져오지 못해" in w and "요약" in w for w in draft["warnings"])


def test_with_no_page_no_summary_and_nothing_else_the_draft_stops_with_a_korean_message(
    api: Client, reporter: Any, pages: FakePages, fake_llm: FakeAnthropic
) -> None:
    item = competitor_item(reporter, url=pages.url("/missing"), summary="")

    run_id = post(api, {"follow_up": {"item": item.pk}}).json()["id"]
    tasks.draft_run.apply(args=[run_id])
    draft = api.get(f"/api/drafts/{run_id}").json()

    assert draft["status"] == "failed" and "보도자료를 붙여 넣어" in draft["error"]
    assert fake_llm.requests == []  # nothing was paid for


def test_checking_a_follow_up_again_keeps_its_article_source_and_the_credit(
    api: Client, reporter: Any, pages: FakePages, fake_llm: FakeAnthropic
) -> None:
    item = competitor_item(reporter, pages)
    submit(fake_llm, body=BODY, headline=HEADLINE)
    verify_pass(fake_llm, claims=[])
    first = post(api, {"follow_up": {"item": item.pk}, "length": LENGTH}).json()["id"]
    tasks.draft_run.apply(args=[first])

    again = api.post(f"/api/drafts/{first}/verify").json()["id"]
    verify_pass(fake_llm, claims=[])
    tasks.draft_run.apply(args=[again])
    draft = api.get(f"/api/drafts/{again}").json()

    assert draft["status"] == "done"
    assert draft["body"].startswith(f"{OUTLET}에 따르면 국토교통부가")  # the draft body, credited again
    assert {"title": TITLE, "url": ADDRESS, "kind": "article", "outlet": OUTLET} in draft["sources"]
    assert {span["kind"] for s in draft["sentences"] for span in s["spans"]} == {"article"}

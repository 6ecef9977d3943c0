"""The writing loop's deadline (NEWSDESK_WRITING_DEADLINE_SECONDS): a slow model ends with the
best article so far, still verified, and the reporter is told in Korean; a fast one is untouched;
a model that gives nothing fails once, clearly, with nothing written twice.

The stalled calls answer only after 30 s; a run that ends well before then was cut by the
deadline. No test bounds the time from above more tightly than that (the machine may be loaded).
"""

from __future__ import annotations

import time

import pytest
from django.test import Client

from agents import messages as msg
from agents import prompts, tasks
from agents.llm import client as llm
from agents.models import Article, LLMCall, Run, RunEvent
from agents.services import draft_create
from newsdesk.services import token_issue
from tests.agents.draft_script import submit, verify_pass
from tests.fakes.anthropic import FakeAnthropic
from tests.fixtures.press import BODY, PRESS_RELEASE

pytestmark = pytest.mark.django_db

STALL = 30.0
SHORT = "서울시가 청년 월세 지원을 2만 가구로 늘린다."


@pytest.fixture
def deadline(settings) -> int:
    # Long enough for a fast loopback answer on a loaded machine, short enough to wait for. The
    # SDK is loaded first, as the llm worker does at start: its import is no model time.
    llm.preload_sdk()
    settings.NEWSDESK_WRITING_DEADLINE_SECONDS = 4
    return 4


def run_draft(reporter, **kwargs) -> tuple[Run, float]:
    run = draft_create(reporter=reporter, press_release=PRESS_RELEASE, **kwargs)
    started = time.monotonic()
    tasks.draft_run.apply(args=[run.pk])
    run.refresh_from_db()
    return run, time.monotonic() - started


def test_a_slow_model_ends_at_the_deadline_with_the_article_it_sent_back_verified_and_says_so(
    reporter, fake_llm: FakeAnthropic, deadline: int
) -> None:
    submit(fake_llm, body=SHORT)  # off length: sent back once, and kept
    fake_llm.stall(STALL, expect="loop")  # the rewrite never comes in time
    verify_pass(fake_llm)

    run, took = run_draft(reporter, length=400)

    assert run.status == Run.Status.DONE, run.error
    assert took < STALL
    note = msg.WRITING_DEADLINE.format(seconds=deadline)
    article = run.article
    assert article.body == SHORT and article.verdict == Article.Verdict.PASS
    assert article.warnings[0] == note and any("요청 분량" in w for w in article.warnings)
    assert fake_llm.requests[-1].forced_tool == "verify_article" and SHORT in fake_llm.requests[-1].all_text()
    assert run.events.filter(kind=RunEvent.Kind.WARNING, message=note).exists()
    assert not run.events.filter(kind=RunEvent.Kind.RETRY).exists()


def test_a_model_that_submitted_nothing_in_time_is_asked_once_to_submit_what_it_has(
    reporter, fake_llm: FakeAnthropic, deadline: int
) -> None:
    fake_llm.stall(STALL, expect="loop")
    submit(fake_llm, forced=True)
    verify_pass(fake_llm)
    api = Client(HTTP_AUTHORIZATION=f"Bearer {token_issue(reporter=reporter)}")

    run, took = run_draft(reporter)

    assert run.status == Run.Status.DONE, run.error
    assert took < STALL
    assert run.article.body == BODY and run.article.verdict == Article.Verdict.PASS
    assert run.article.warnings[0] == msg.WRITING_DEADLINE.format(seconds=deadline)
    final = fake_llm.calls_for("submit_article")[0]
    assert prompts.load("deadline_submit") in final.last_user_text()
    purposes = list(LLMCall.objects.filter(run=run).order_by("pk").values_list("purpose", "status"))
    assert purposes == [
        ("writing_turn_1", "error"),
        ("writing_deadline", "ok"),
        ("verify_article", "ok"),
    ]
    note = msg.WRITING_DEADLINE.format(seconds=deadline)
    assert api.get(f"/api/drafts/{run.pk}").json()["warnings"][0] == note
    events = api.get(f"/api/drafts/{run.pk}/events").json()["events"]
    assert [e["message"] for e in events if e["kind"] == "warning"] == [note]


def test_a_model_that_answers_nothing_fails_once_in_korean_without_an_article(
    reporter, fake_llm: FakeAnthropic, deadline: int
) -> None:
    fake_llm.stall(STALL, expect="loop")
    fake_llm.stall(STALL, expect="submit_article")

    run, took = run_draft(reporter)

    assert run.status == Run.Status.FAILED and run.error_code == "deadline"
    assert took < STALL
    assert run.error == msg.WRITING_DEADLINE_NOTHING.format(seconds=deadline)
    assert run.events.filter(kind=RunEvent.Kind.ERROR, message=run.error).count() == 1
    assert not run.events.filter(kind=RunEvent.Kind.RETRY).exists()  # not written again by a retry
    assert not Article.objects.exists()
    assert len(fake_llm.requests) == 2


def test_a_fast_model_is_not_touched_by_the_deadline(
    reporter, fake_llm: FakeAnthropic, deadline: int
) -> None:
    submit(fake_llm, body=SHORT)
    submit(fake_llm)
    verify_pass(fake_llm)

    run, _ = run_draft(reporter, length=400)

    assert run.status == Run.Status.DONE, run.error
    assert run.article.body == BODY
    assert not any("시간 제한" in w for w in run.article.warnings)
    assert not run.events.filter(kind=RunEvent.Kind.WARNING).exists()
    assert run.timings["turns"] == 2

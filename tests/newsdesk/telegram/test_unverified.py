"""A written draft is never lost: when verification fails after its retries the article still goes
out, marked "검증 미완료", with a way to check it again that does not rewrite it."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from agents.models import Article, Run
from agents.services import VERIFY_UNFINISHED
from agents.services import drafts as draft_service
from newsdesk.models import Reporter
from newsdesk.services import token_issue
from tests.agents.draft_script import submit, verify_pass
from tests.factories import ReporterFactory
from tests.fakes.anthropic import FakeAnthropic
from tests.fakes.telegram import FakeTelegram
from tests.fixtures.press import PRESS_RELEASE
from tests.newsdesk.telegram.chat import CHAT, finish, send, tap

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _no_wait(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(draft_service, "VERIFY_RETRY_WAIT", 0.0)


@pytest.fixture
def reporter_tg(fake_telegram: FakeTelegram) -> Reporter:
    return ReporterFactory(user=None, telegram_id=CHAT, anthropic_key="sk-ant-test-unverified-1")


def verifier_down(fake: FakeAnthropic) -> None:
    for _ in range(draft_service.VERIFY_ATTEMPTS * 2):  # each attempt: the SDK's request and its retry
        fake.error(529, headers={"retry-after-ms": "5"})


def unverified_draft(fake: FakeAnthropic) -> Run:
    fake.tool("route_to_tool", {"tool": "writing", "reason": "기사", "extracted_params": {}})
    send(PRESS_RELEASE + "\n이 보도자료로 기사 써줘")
    submit(fake)
    verifier_down(fake)
    return finish(Run.objects.get(kind="draft"))


def test_a_verification_outage_still_delivers_the_written_draft_marked(
    reporter_tg, fake_telegram, fake_llm
) -> None:
    run = unverified_draft(fake_llm)

    assert run.status == "done" and run.error_code == VERIFY_UNFINISHED
    assert run.article.verdict == Article.Verdict.SKIPPED and run.article.body
    assert len(fake_llm.calls_for("submit_article")) <= 1  # written once, never rewritten
    texts = fake_telegram.sent_texts(CHAT)
    assert "검증 미완료" in texts[-2] and run.article.headline in texts[-2]
    assert "검증 다시 하기" in str(fake_telegram.messages(CHAT)[-1].reply_markup)


def test_the_button_checks_the_same_article_again_without_rewriting_it(
    reporter_tg, fake_telegram, fake_llm
) -> None:
    first = unverified_draft(fake_llm)
    tap(fake_telegram, "검증 다시 하기")
    again = Run.objects.exclude(pk=first.pk).get(kind="draft")
    assert again.input["mode"] == "verify" and again.input["article"] == first.article.draft_body
    verify_pass(fake_llm)

    again = finish(again)

    assert again.status == "done" and again.article.verdict == Article.Verdict.PASS
    assert fake_llm.requests[-1].forced_tool == "verify_article"  # only the check ran again
    assert len(fake_llm.calls_for("submit_article")) <= 1
    assert "사실 확인" in fake_telegram.sent_texts(CHAT)[-1]


def test_the_api_runs_verification_again_with_202_and_hides_others_drafts(
    reporter_tg, fake_telegram, fake_llm, client: Client
) -> None:
    run = unverified_draft(fake_llm)
    token = token_issue(reporter=reporter_tg)
    other = token_issue(reporter=ReporterFactory(anthropic_key="sk-ant-other"))
    url = f"/api/drafts/{run.pk}/verify"

    answer = client.post(url, HTTP_AUTHORIZATION=f"Bearer {token}")
    refused = client.post(url, HTTP_AUTHORIZATION=f"Bearer {other}")

    assert answer.status_code == 202 and answer.json()["status"] == "queued"
    assert Run.objects.get(pk=answer.json()["id"]).input["mode"] == "verify"
    assert refused.status_code == 404


def test_the_desk_offers_and_runs_verification_again(fake_llm, client: Client, monkeypatch) -> None:
    reporter = ReporterFactory(anthropic_key="sk-ant-test-desk-1")
    client.force_login(reporter.user)
    client.post(reverse("desk:new"), {"press_release": PRESS_RELEASE, "department": reporter.department})
    run = Run.objects.get(kind="draft")
    submit(fake_llm)
    verifier_down(fake_llm)
    from agents import tasks

    tasks.draft_run.apply(args=[run.pk])

    page = client.get(reverse("desk:draft", args=[run.pk])).content.decode()
    assert "검증 미완료" in page and reverse("desk:draft_verify", args=[run.pk]) in page
    response = client.post(reverse("desk:draft_verify", args=[run.pk]))
    again = Run.objects.exclude(pk=run.pk).get()
    assert response.status_code == 303 and again.input["mode"] == "verify"

"""Cost where the reporter is: every article reply ends with time, calls and dollars; /status shows
today's and this month's spend; the calls that routed a request count in the run they led to."""

from __future__ import annotations

import re
from datetime import timedelta
from decimal import Decimal

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from agents.llm import catalog
from agents.models import LLMCall, Run
from newsdesk.models import Reporter
from tests.agents.draft_script import submit, verify_pass
from tests.factories import LLMCallFactory, ReporterFactory
from tests.fakes.anthropic import FakeAnthropic
from tests.fakes.telegram import FakeTelegram
from tests.fixtures.press import PRESS_RELEASE
from tests.newsdesk.telegram.chat import CHAT, finish, last_text, send

pytestmark = pytest.mark.django_db
COST_LINE = re.compile(r"⏱ \d+초 · LLM (\d+)회 · \$(\d+\.\d{4})$")


@pytest.fixture
def reporter_tg(fake_telegram: FakeTelegram) -> Reporter:
    return ReporterFactory(
        user=None, telegram_id=CHAT, display_name="김기자", anthropic_key="sk-ant-test-cost-1111"
    )


def draft(fake_llm: FakeAnthropic) -> Run:
    fake_llm.tool("route_to_tool", {"tool": "writing", "reason": "기사", "extracted_params": {}})
    send(PRESS_RELEASE + "\n이 보도자료로 기사 써줘")
    submit(fake_llm)
    verify_pass(fake_llm)
    return finish(Run.objects.get(kind="draft"))


def test_an_article_reply_ends_with_its_time_calls_and_dollars_routing_included(
    reporter_tg, fake_telegram, fake_llm
) -> None:
    run = draft(fake_llm)

    match = COST_LINE.search(last_text(fake_telegram))
    assert match, last_text(fake_telegram)[-200:]
    assert int(match.group(1)) == 3 == run.llm_calls.count()  # router + writer + verifier
    assert run.llm_calls.filter(purpose="route_to_tool").exists()
    assert Decimal(match.group(2)) == round(sum(c.cost_usd for c in run.llm_calls.all()), 4)
    assert Decimal(match.group(2)) > 0


def test_an_edit_reply_ends_with_its_own_cost(reporter_tg, fake_telegram, fake_llm) -> None:
    article = draft(fake_llm).article
    fake_llm.tool("route_to_tool", {"tool": "edit_article", "reason": "수정", "extracted_params": {}})
    fake_llm.tool("edit_article", {"headline": "새 제목", "body": article.body, "changes_made": "제목 변경"})
    send("제목 바꿔줘")

    edit = finish(Run.objects.get(kind="edit"))

    match = COST_LINE.search(last_text(fake_telegram))
    assert match and int(match.group(1)) == edit.llm_calls.count() == 2


def test_status_shows_todays_and_this_months_spend_and_the_model(
    reporter_tg, fake_telegram, settings
) -> None:
    now = timezone.now()
    for when, cost in [(now, "0.0100"), (now, "0.0025"), (now - timedelta(days=40), "1.0000")]:
        call = LLMCallFactory(reporter=reporter_tg, purpose="writing", model="m", cost_usd=Decimal(cost))
        LLMCall.objects.filter(pk=call.pk).update(created_at=when)

    send("/status")

    reply = last_text(fake_telegram)
    assert "오늘 $0.0125 (LLM 2회)" in reply
    assert "이번 달 $0.0125 (LLM 2회)" in reply  # the 40-day-old call is in neither
    assert f"모델: {catalog.label_for(settings.NEWSDESK_LLM_MODEL)} (기본)" in reply


def test_the_admin_shows_each_reporters_daily_totals(admin_client: Client, reporter_tg) -> None:
    other = ReporterFactory(display_name="이기자")
    for reporter, cost in [(reporter_tg, "0.0200"), (reporter_tg, "0.0300"), (other, "0.0100")]:
        LLMCallFactory(reporter=reporter, purpose="route_to_tool", model="m", cost_usd=Decimal(cost))

    page = admin_client.get(reverse("admin:agents_llmcall_daily")).content.decode()

    assert "김기자" in page and "0.0500" in page and "이기자" in page and "0.0100" in page
    assert (
        reverse("admin:agents_llmcall_daily")
        in admin_client.get(reverse("admin:agents_llmcall_changelist")).content.decode()
    )


def test_an_editor_cannot_open_the_usage_page(client: Client) -> None:
    from django.contrib.auth.models import User

    client.force_login(User.objects.create_user("desk-only", is_staff=True))

    assert client.get(reverse("admin:agents_llmcall_daily")).status_code == 403

"""A pasted release is the source at any length; thin material gets an honest, shorter article."""

from __future__ import annotations

import pytest

from agents.facts import density
from agents.models import Run
from newsdesk.models import Reporter
from tests.agents.draft_script import submit, verify_pass
from tests.factories import ReporterFactory
from tests.fakes.anthropic import FakeAnthropic
from tests.fakes.telegram import FakeTelegram
from tests.newsdesk.telegram.chat import CHAT, finish, last_text, send

pytestmark = pytest.mark.django_db
NOTICE = (
    "[마포구 알림] 망원한강공원 야외 썰매장 개장\n"
    "서울 마포구는 12월 20일부터 내년 2월 16일까지 망원한강공원 야외 썰매장을 운영한다. "
    "운영 시간은 오전 10시부터 오후 5시까지이며 입장료는 2000원이다. "
    "만 4세 이상 어린이가 이용할 수 있고 하루 4회차로 나눠 회차당 300명까지 받는다. "
    "주차는 망원한강공원 제1주차장을 이용하면 된다. 썰매와 안전모는 매표소에서 무료로 빌려준다. "
    "문의는 구청 체육진흥과(02-3153-8000)."
)
SENTENCES = [
    "서울 마포구가 12월 20일부터 내년 2월 16일까지 망원한강공원에서 야외 썰매장을 운영한다.",
    "썰매장은 오전 10시부터 오후 5시까지 문을 열고, 입장료는 2000원이다.",
    "만 4세 이상 어린이가 이용할 수 있다.",
    "하루 4회차로 나눠 운영하며 회차당 300명까지 받는다.",
    "주차는 망원한강공원 제1주차장을 이용하면 된다.",
    "썰매와 안전모는 무료로 빌려준다.",
    "이용 문의는 마포구청 체육진흥과로 하면 된다.",
]


@pytest.fixture
def reporter_tg(fake_telegram: FakeTelegram) -> Reporter:
    return ReporterFactory(
        user=None, telegram_id=CHAT, department="사회부", anthropic_key="sk-ant-test-thin-1111"
    )


def body_of(length: int) -> str:
    """An article from the notice's own facts, as long as the material supports."""
    body, index = "", 0
    while len(body) < length * 0.95:
        body += (" " if body else "") + SENTENCES[index % len(SENTENCES)]
        index += 1
    return body


def test_a_250_character_notice_asked_for_1500_gives_a_shorter_article_from_its_own_figures(
    reporter_tg, fake_telegram, fake_llm: FakeAnthropic
) -> None:
    request = NOTICE + "\n\n이 공지로 1500자 기사 써줘"
    assert 240 <= len(NOTICE) <= 270
    fake_llm.tool(
        "route_to_tool", {"tool": "writing", "reason": "기사", "extracted_params": {"word_count": 1500}}
    )
    send(request)
    run = Run.objects.get(kind="draft")
    assert run.input["press_release"].startswith("[마포구 알림]")  # the notice itself, not a topic
    supportable = density.advise_length(requested=1500, material=[request], department="사회부").supportable
    assert supportable < 1500
    submit(fake_llm, body=body_of(supportable))
    verify_pass(fake_llm, claims=[])

    run = finish(run)

    first_turn = fake_llm.requests[1].all_text()
    assert f"약 {supportable}자" in first_turn and "1500자 (공백" not in first_turn
    article = run.article
    assert "2000원" in article.body and "300명" in article.body
    assert not article.issues.filter(action="deleted").exists()  # its figures are its source's
    reply = last_text(fake_telegram)
    assert f"약 {supportable:,}자로 썼습니다" in reply and "1,500자" in reply


def test_a_bare_instruction_is_not_mistaken_for_material(reporter_tg, fake_telegram, fake_llm) -> None:
    fake_llm.tool("route_to_tool", {"tool": "writing", "reason": "기사", "extracted_params": {}})

    send("기사 써줘")

    assert not Run.objects.filter(kind="draft").exists()
    assert "보도자료" in last_text(fake_telegram) or "자료" in last_text(fake_telegram)

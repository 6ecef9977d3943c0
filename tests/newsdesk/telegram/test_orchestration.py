"""Plain-Korean requests: context selection → router → the job, through the real dispatch."""

from __future__ import annotations

import pytest
from django_celery_beat.models import PeriodicTask

from agents.models import Article, LLMCall, Run
from conversations.models import Message
from conversations.services import message_log
from newsdesk.models import Reporter
from tests.agents.draft_script import submit, verify_pass
from tests.factories import ReporterFactory
from tests.fakes.anthropic import FakeAnthropic, text
from tests.fakes.telegram import FakeTelegram
from tests.fixtures.documents import make_pdf
from tests.fixtures.press import PRESS_RELEASE
from tests.newsdesk.telegram.chat import CHAT, finish, last_text, send, send_file

pytestmark = pytest.mark.django_db


@pytest.fixture
def reporter_tg(fake_telegram: FakeTelegram) -> Reporter:
    return ReporterFactory(
        user=None, telegram_id=CHAT, keywords=["삼성"], anthropic_key="sk-ant-test-tg-2222"
    )


def routed(fake: FakeAnthropic, tool: str, **params: object) -> None:
    fake.tool("route_to_tool", {"tool": tool, "reason": "테스트", "extracted_params": params})


def chatter(reporter: Reporter, count: int) -> None:
    for n in range(count):
        message_log(reporter=reporter, role="user" if n % 2 == 0 else "assistant", content=f"이전 대화 {n}")


# The routing table (what each routed tool does), each row driven through the real dispatch.
ROUTING = [
    ("오늘 타사 기사 좀 봐줘", "check", {}),
    ("브리핑 줘", "report", {}),
    ("이 보도자료로 기사 써줘", "writing", {"search_keywords": ["청년 월세"], "word_count": 300}),
    ("제목 좀 바꿔줘", "edit_article", {}),
    ("두 번째 문단 삭제해", "edit_article", {}),
    ("300자로 줄여줘", "edit_article", {"word_count": 300}),
    ("고마워", "conversation", {}),
    ("이 서비스 뭐 할 수 있어?", "conversation", {}),
    ("방금 기사 몇 글자야?", "conversation", {}),
    (
        "매일 9시에 체크 돌려줘",
        "schedule",
        {"schedule_command": "check", "schedule_times": ["09:00"], "schedule_action": "add"},
    ),
    ("부서 경제부로 바꿔", "set_division", {"department": "경제부"}),
    ("키워드 삼성전자 추가해줘", "set_keyword", {"keywords": ["삼성전자"], "keyword_action": "add"}),
    ("날씨 알려줘", "reject", {}),
    ("주식 추천해줘", "reject", {}),
]


@pytest.mark.parametrize(("said", "tool", "params"), ROUTING)
def test_the_seed_routing_table_reaches_the_right_job(
    reporter_tg: Reporter,
    fake_telegram: FakeTelegram,
    fake_llm: FakeAnthropic,
    said: str,
    tool: str,
    params: dict,
) -> None:
    routed(fake_llm, tool, **params)
    if tool == "conversation":
        fake_llm.reply(text("네, 도와드릴게요."))

    send(said)

    reporter_tg.refresh_from_db()
    reply = last_text(fake_telegram)
    expected = {
        "check": lambda: Run.objects.get(kind="check"),
        "report": lambda: Run.objects.get(kind="report"),
        "writing": lambda: Run.objects.get(kind="draft", input__keywords=["청년 월세"], input__length=300),
        "edit_article": lambda: "수정할 기사를 찾을 수 없습니다" in reply,
        "conversation": lambda: reply == "네, 도와드릴게요.",
        "schedule": lambda: PeriodicTask.objects.filter(enabled=True).count() == 1,
        "set_division": lambda: reporter_tg.department == "경제부",
        "set_keyword": lambda: reporter_tg.keywords == ["삼성", "삼성전자"],
        "reject": lambda: reply.startswith("죄송합니다. 테스트"),
    }[tool]()
    assert expected
    assert fake_llm.requests[0].forced_tool == "route_to_tool"
    assert said in fake_llm.requests[0].last_user_text()


def test_with_fewer_than_four_logged_messages_only_the_router_is_called(
    reporter_tg, fake_telegram, fake_llm
) -> None:
    chatter(reporter_tg, 2)
    routed(fake_llm, "check")

    send("타사 체크 해줘")

    assert [r.forced_tool for r in fake_llm.requests] == ["route_to_tool"]


def test_with_a_longer_history_context_is_selected_first_then_routed(
    reporter_tg, fake_telegram, fake_llm
) -> None:
    chatter(reporter_tg, 10)
    fake_llm.tool("select_conversations", {"selected_indices": [2, 99]})
    routed(fake_llm, "check")

    send("타사 체크 해줘")

    assert [r.forced_tool for r in fake_llm.requests] == ["select_conversations", "route_to_tool"]
    listing = fake_llm.requests[0].last_user_text()
    assert "[1] user" in listing and "[10] assistant" in listing and "타사 체크 해줘" in listing
    context = fake_llm.requests[1].last_user_text()
    assert "이전 대화 1" in context and "이전 대화 9" in context and "이전 대화 4" not in context


def test_a_failed_context_selection_falls_back_to_the_last_five_and_attachments(
    reporter_tg, fake_telegram, fake_llm
) -> None:
    message_log(
        reporter=reporter_tg,
        role="user",
        content="",
        message_type="document",
        attachment_meta={
            "file_id": "OLD",
            "file_name": "옛자료.pdf",
            "mime_type": "application/pdf",
            "file_size": 1000,
        },
    )
    chatter(reporter_tg, 8)
    fake_llm.error(400, message="bad request")
    routed(fake_llm, "check")

    send("타사 체크 해줘")

    context = fake_llm.requests[1].last_user_text()
    assert "옛자료.pdf" in context and "이전 대화 3" in context and "이전 대화 2" not in context
    assert LLMCall.objects.filter(purpose="select_conversations", status="error").exists()


def test_a_router_failure_apologises_and_names_the_commands(reporter_tg, fake_telegram, fake_llm) -> None:
    fake_llm.error(401, message="invalid key")

    send("타사 체크 해줘")

    assert "죄송합니다" in last_text(fake_telegram) and "/check" in last_text(fake_telegram)
    assert LLMCall.objects.filter(purpose="route_to_tool", reporter=reporter_tg).count() == 1
    assert not Run.objects.exists()


def test_a_file_then_text_makes_an_article_from_the_pdf(reporter_tg, fake_telegram, fake_llm) -> None:
    pdf = make_pdf([PRESS_RELEASE])
    fake_telegram.add_file("PDF1", pdf, file_name="보도자료.pdf", file_path="documents/file_1.pdf")
    send_file("보도자료.pdf", "application/pdf", len(pdf), file_id="PDF1")
    assert "파일을 받았습니다" in last_text(fake_telegram)
    routed(fake_llm, "writing", has_attachment=True, word_count=300)

    send("이 보도자료로 300자 기사 써줘")

    run = Run.objects.get(kind="draft")
    assert run.input["attachments"][0]["file_id"] == "PDF1" and run.input["length"] == 300
    submit(fake_llm)
    verify_pass(fake_llm)
    run = finish(run)
    assert run.status == "done", run.error
    draft_prompt = fake_llm.requests[1].last_user_text()
    assert "480억 원" in draft_prompt  # the PDF's text, read without an extra model turn
    article_reply = last_text(fake_telegram)
    assert "서울시, 청년 월세 지원 2만 가구로 확대" in article_reply
    assert "사실 확인:" in article_reply and "/desk/shared/" in article_reply  # no web login: a signed link
    assert Message.objects.filter(role="assistant", meta__article_id=run.article.pk).exists()


def test_the_pages_named_in_a_chat_message_are_the_pages_drafted_from(
    reporter_tg, fake_telegram, fake_llm
) -> None:
    pages = [f"제{n}쪽 표식\n{PRESS_RELEASE}" for n in range(1, 13)]
    pdf = make_pdf(pages)
    fake_telegram.add_file("PDF2", pdf, file_name="긴자료.pdf", file_path="documents/file_2.pdf")
    send_file("긴자료.pdf", "application/pdf", len(pdf), file_id="PDF2")
    routed(fake_llm, "writing", has_attachment=True)

    send("3~10쪽으로 기사 써줘")

    run = Run.objects.get(kind="draft")
    assert run.input["pages"] == [3, 10]
    submit(fake_llm)
    verify_pass(fake_llm)
    run = finish(run)
    assert run.status == "done", run.error
    prompt = fake_llm.requests[1].last_user_text()
    assert "제3쪽 표식" in prompt and "제10쪽 표식" in prompt
    assert "제2쪽 표식" not in prompt and "제11쪽 표식" not in prompt


def test_an_expired_attachment_is_reported_plainly(reporter_tg, fake_telegram, fake_llm) -> None:
    send_file("보도자료.pdf", "application/pdf", 1000, file_id="GONE")
    routed(fake_llm, "writing", has_attachment=True)
    send("이걸로 기사 써줘")

    run = finish(Run.objects.get(kind="draft"))

    assert run.status == "failed"
    assert "첨부파일이 만료되었습니다. 다시 보내주세요." in last_text(fake_telegram)


def test_an_edit_after_writing_revises_the_delivered_article(reporter_tg, fake_telegram, fake_llm) -> None:
    routed(fake_llm, "writing", search_keywords=[])
    send(PRESS_RELEASE + "\n이 보도자료로 기사 써줘")
    submit(fake_llm)
    verify_pass(fake_llm)
    draft = finish(Run.objects.get(kind="draft"))
    routed(fake_llm, "edit_article")
    fake_llm.tool(
        "edit_article",
        {"headline": "청년 월세 지원 2만 가구로", "body": draft.article.body, "changes_made": "제목 변경"},
    )

    send("제목 바꿔줘")
    edit = finish(Run.objects.get(kind="edit"))

    assert edit.article.parent == draft.article and edit.article.headline == "청년 월세 지원 2만 가구로"
    assert last_text(fake_telegram).startswith("청년 월세 지원 2만 가구로")


def test_a_request_while_a_job_runs_is_told_to_wait(reporter_tg, fake_telegram, fake_llm) -> None:
    Run.objects.create(reporter=reporter_tg, kind="draft", status="running", input={})
    routed(fake_llm, "writing", search_keywords=["청년"])

    send("기사 하나 더 써줘")

    assert "이전 요청을 처리 중입니다" in last_text(fake_telegram)
    assert Run.objects.count() == 1


def test_a_long_article_is_split_into_messages_under_4096(reporter_tg, fake_telegram, fake_llm) -> None:
    routed(fake_llm, "writing")
    send(PRESS_RELEASE + "\n기사 써줘")
    body = "\n\n".join(["서울시는 3일 청년 월세 지원 대상을 2만 가구로 늘린다고 밝혔다. " * 20] * 6)
    submit(fake_llm, body=body)
    submit(fake_llm, body=body)
    verify_pass(fake_llm)

    finish(Run.objects.get(kind="draft"))

    parts = [t for t in fake_telegram.sent_texts(CHAT) if "작성을 시작합니다" not in t]
    assert len(parts) >= 2 and all(len(t) <= 4096 for t in parts)
    assert parts[0].startswith("서울시, 청년 월세") and "사실 확인:" in parts[-1]


def test_a_reply_hit_by_flood_control_arrives_exactly_once(reporter_tg, fake_telegram) -> None:
    fake_telegram.fail("sendMessage", status=429, retry_after=1, times=1)

    send("/help")

    helps = [t for t in fake_telegram.sent_texts(CHAT) if "/check" in t]
    assert len(helps) == 1


def test_a_reporter_who_blocked_the_bot_is_recorded_without_retries(
    reporter_tg, fake_telegram, fake_llm
) -> None:
    routed(fake_llm, "writing")
    send(PRESS_RELEASE + "\n기사 써줘")
    fake_telegram.block(CHAT)
    submit(fake_llm)
    verify_pass(fake_llm)

    run = finish(Run.objects.get(kind="draft"))

    assert "blocked" in run.telegram_delivery.error
    assert run.telegram_delivery.delivered_at is None
    assert Article.objects.count() == 1

"""The conversation service: one request in the reporter's words → context, route, the job, a
Decision the face only has to word. Driven against the scripted Anthropic API."""

from __future__ import annotations

import pytest

from agents.models import LLMCall, Run
from agents.services import draft_create
from agents.services.conversation import Outcome, merged_keywords, message_route, source_material
from conversations.models import Message
from conversations.services import message_log
from tests.fakes.anthropic import FakeAnthropic
from tests.fixtures.press import PRESS_RELEASE

pytestmark = pytest.mark.django_db


def ask(reporter, said: str):
    logged = message_log(reporter=reporter, role=Message.Role.USER, content=said)
    return message_route(
        reporter=reporter, text=said, attachment=None, message_id=logged.pk, channel="telegram"
    )


def routed(fake: FakeAnthropic, tool: str, **params: object) -> None:
    fake.tool("route_to_tool", {"tool": tool, "reason": "테스트", "extracted_params": params})


def test_a_writing_request_queues_a_draft_of_the_pasted_release_and_charges_it_the_routing_call(
    reporter, fake_llm: FakeAnthropic
) -> None:
    routed(fake_llm, "writing", word_count=500)

    decision = ask(reporter, "아래 보도자료로 기사 써줘\n\n" + PRESS_RELEASE)

    assert decision.tool == "writing" and decision.outcome == Outcome.QUEUED
    assert decision.run is not None and PRESS_RELEASE.strip()[:40] in decision.run.input["press_release"]
    assert decision.run.input["length"] == 500
    assert LLMCall.objects.get(purpose="route_to_tool").run_id == decision.run.pk


def test_a_second_job_while_one_is_unfinished_is_refused_as_busy_and_queues_nothing(
    reporter, fake_llm: FakeAnthropic
) -> None:
    draft_create(reporter=reporter, press_release=PRESS_RELEASE)
    routed(fake_llm, "writing")

    decision = ask(reporter, "이 보도자료로 하나 더 써줘\n\n" + PRESS_RELEASE)

    assert decision.outcome == Outcome.BUSY and decision.run is None
    assert Run.objects.count() == 1


def test_an_edit_without_an_article_to_edit_is_incomplete(reporter, fake_llm: FakeAnthropic) -> None:
    routed(fake_llm, "edit_article")

    decision = ask(reporter, "제목 좀 바꿔줘")

    assert (decision.tool, decision.outcome) == ("edit_article", Outcome.INCOMPLETE)
    assert not Run.objects.exists()


def test_a_keyword_change_is_merged_here_and_left_to_the_face_to_store(reporter, fake_llm) -> None:
    reporter.keywords = ["삼성", "LG"]
    reporter.save()
    routed(fake_llm, "set_keyword", keywords=[" 현대 ", "삼성"], keyword_action="add")

    decision = ask(reporter, "키워드 현대 추가해줘")

    assert decision.outcome == Outcome.CHANGE and decision.keywords == ("삼성", "LG", "현대")
    reporter.refresh_from_db()
    assert reporter.keywords == ["삼성", "LG"]


def test_removing_a_keyword_the_reporter_does_not_have_is_not_found(reporter, fake_llm) -> None:
    routed(fake_llm, "set_keyword", keywords=["현대"], keyword_action="remove")

    decision = ask(reporter, "키워드 현대 빼줘")

    assert decision.outcome == Outcome.NOT_FOUND and decision.keywords == ("현대",)


def test_a_routing_failure_is_reported_with_the_model_errors_message(reporter, fake_llm) -> None:
    fake_llm.error(status=400, message="bad request")

    decision = ask(reporter, "기사 써줘")

    assert decision.tool == "" and decision.outcome == Outcome.MODEL_FAILED
    assert decision.text and any("가" <= ch <= "힣" for ch in decision.text)


def test_merged_keywords_add_once_replace_all_and_remove_only_what_is_there() -> None:
    assert merged_keywords(["a", "b"], ["b", "c"], "add") == ["a", "b", "c"]
    assert merged_keywords(["a", "b"], [" c "], "replace") == ["c"]
    assert merged_keywords(["a", "b"], ["a"], "remove") == ["b"]
    assert merged_keywords(["a", "b"], ["z"], "remove") is None


def test_the_latest_release_sent_earlier_is_the_material_of_a_bare_writing_request(reporter) -> None:
    earlier = message_log(reporter=reporter, role=Message.Role.USER, content=PRESS_RELEASE)
    chat = message_log(
        reporter=reporter,
        role=Message.Role.USER,
        content="오늘 날씨가 참 좋네요. 점심은 뭘 먹을까요? 회의는 3시입니다. 자료는 회의 전에 다시 볼게요.",
    )

    release, context = source_material("이걸로 기사 써줘", [earlier, chat])

    assert release == PRESS_RELEASE and "회의는 3시" in context

"""No paid work twice and a prompt the cache can reuse: one tool list for every turn, code's
own search is not repeated by the model, a repeated call returns the earlier result, and turn 2
reads turn 1 from the cache."""

from __future__ import annotations

import pytest

from agents import tasks
from agents.drafting import tools
from agents.models import LLMCall, Run
from agents.services import draft_create
from tests.agents.draft_script import submit, verify_pass
from tests.fakes.anthropic import FakeAnthropic
from tests.fakes.naver import FakeNaver
from tests.fixtures.press import PRESS_RELEASE

pytestmark = pytest.mark.django_db


def run_draft(reporter, press_release: str = PRESS_RELEASE, **kwargs) -> Run:
    run = draft_create(reporter=reporter, press_release=press_release, search_news=True, **kwargs)
    tasks.draft_run.apply(args=[run.pk])
    run.refresh_from_db()
    return run


def tool_results(request) -> list[dict]:
    return [b for b in request.messages[-1]["content"] if b.get("type") == "tool_result"]


def test_once_code_has_searched_a_model_search_is_refused_and_naver_is_asked_once(
    reporter, news: FakeNaver, fake_llm: FakeAnthropic
) -> None:
    fake_llm.tool("fetch_articles", {"keywords": ["청년 월세"]}, forced=False)
    submit(fake_llm)
    verify_pass(fake_llm)

    run = run_draft(reporter, keywords=["청년 월세"])

    assert run.status == Run.Status.DONE, run.error
    assert news.queries() == ["청년 월세"]
    [refused] = tool_results(fake_llm.requests[1])
    assert refused["is_error"] is True and refused["content"] == tools.RESULT_ALREADY_SEARCHED


@pytest.mark.django_db(transaction=True)  # the model's search counts Naver usage on its own connection
def test_a_model_that_repeats_a_call_gets_the_earlier_result_without_a_second_search(
    reporter, news: FakeNaver, fake_llm: FakeAnthropic
) -> None:
    fake_llm.tool("fetch_articles", {"keywords": ["청년 월세"]}, forced=False)
    fake_llm.tool("fetch_articles", {"keywords": ["청년 월세"]}, forced=False)
    submit(fake_llm)
    verify_pass(fake_llm)

    run = run_draft(reporter)

    assert run.status == Run.Status.DONE, run.error
    assert news.queries() == ["청년 월세"]
    [first] = tool_results(fake_llm.requests[1])
    [again] = tool_results(fake_llm.requests[2])
    assert again["content"] == first["content"] and "[1] 연합뉴스" in again["content"]


def test_every_turn_of_a_draft_offers_the_same_tools(
    reporter, news: FakeNaver, fake_llm: FakeAnthropic
) -> None:
    fake_llm.tool("select_articles", {"selected_indices": [1]}, forced=False)
    submit(fake_llm, sources=[1])
    verify_pass(fake_llm)

    run = run_draft(reporter, keywords=["청년 월세"])

    assert run.status == Run.Status.DONE, run.error
    turns = [r for r in fake_llm.requests if r.forced_tool is None]
    assert len(turns) == 2
    assert turns[0].body["tools"] == turns[1].body["tools"]


def test_turn_two_reads_turn_one_from_the_cache(reporter, news: FakeNaver, fake_llm: FakeAnthropic) -> None:
    long_release = PRESS_RELEASE + "\n" + "시는 청년 주거 안정을 위한 세부 계획을 함께 공개했다. " * 400
    fake_llm.tool("select_articles", {"selected_indices": [1]}, forced=False)
    submit(fake_llm, sources=[1])
    verify_pass(fake_llm)

    run = run_draft(reporter, long_release, keywords=["청년 월세"])

    assert run.status == Run.Status.DONE, run.error
    first, second = LLMCall.objects.filter(run=run, purpose__startswith="writing").order_by("id")
    assert first.cache_creation_input_tokens > 4096 and first.cache_read_input_tokens == 0
    assert second.cache_read_input_tokens == first.cache_creation_input_tokens
    share = second.cache_read_input_tokens / (
        second.cache_read_input_tokens + second.cache_creation_input_tokens + second.input_tokens
    )
    assert share > 0.6

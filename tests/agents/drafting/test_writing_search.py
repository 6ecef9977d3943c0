"""Drafts that use related news: numbered candidates, index back-mapping, concurrent tools."""

from __future__ import annotations

import pytest

from agents import tasks
from agents.models import Run
from agents.services import draft_create
from tests.agents.draft_script import submit, verify_pass
from tests.fakes.anthropic import FakeAnthropic
from tests.fakes.naver import FakeNaver, item
from tests.fakes.pages import FakePages
from tests.fixtures.press import PRESS_RELEASE

pytestmark = pytest.mark.django_db


def run_draft(reporter, **kwargs) -> Run:
    run = draft_create(reporter=reporter, press_release=PRESS_RELEASE, search_news=True, **kwargs)
    tasks.draft_run.apply(args=[run.pk])
    run.refresh_from_db()
    return run


def test_known_keywords_put_numbered_candidates_in_the_first_prompt(
    reporter, news, fake_llm: FakeAnthropic
) -> None:
    fake_llm.tool("select_articles", {"selected_indices": [1, 2]}, forced=False)
    submit(fake_llm, sources=[1])
    verify_pass(fake_llm)

    run = run_draft(reporter, keywords=["청년 월세"])

    assert run.status == Run.Status.DONE, run.error
    assert len(fake_llm.requests) == 3  # select → submit → verify
    first = fake_llm.requests[0]
    prompt = first.last_user_text()
    assert "[1] 연합뉴스 | 서울시 청년 월세 지원 확대" in prompt
    assert "[2] 한겨레 | 청년 주거비 부담 여전" in prompt
    assert "포토" not in prompt and "blog.example.com" not in prompt  # title filter and whitelist
    assert "http" not in prompt  # the model never sees a URL
    assert set(first.tool_names) == {"fetch_articles", "select_articles", "submit_article"}
    assert "지난해에는 1만5000가구가" in fake_llm.requests[1].last_user_text()  # scraped body came back
    assert run.article.sources == [
        {
            "title": "서울시 청년 월세 지원 확대",
            "url": "https://www.yna.co.kr/view/1",
            "kind": "search",
            "outlet": "연합뉴스",
        }
    ]
    verify_text = fake_llm.requests[2].last_user_text()
    assert "[자료 2] 연합뉴스 | 서울시 청년 월세 지원 확대" in verify_text


def test_unknown_numbers_from_the_model_are_dropped_and_never_mapped(
    reporter, news, fake_llm: FakeAnthropic
) -> None:
    fake_llm.tool("select_articles", {"selected_indices": [2, 99, 0]}, forced=False)
    submit(fake_llm, sources=[2, 42, -1])
    verify_pass(fake_llm)

    run = run_draft(reporter, keywords=["청년 월세"])

    assert "없는 번호 99" in fake_llm.requests[1].last_user_text()
    assert run.article.sources == [
        {
            "title": "청년 주거비 부담 여전",
            "url": "https://www.hani.co.kr/arti/2",
            "kind": "search",
            "outlet": "한겨레",
        }
    ]


@pytest.mark.django_db(transaction=True)  # the concurrent calls count Naver usage on their own connections
def test_without_keywords_the_model_searches_and_several_tool_calls_run_concurrently(
    reporter, fake_naver: FakeNaver, fake_llm: FakeAnthropic
) -> None:
    fake_naver.add("청년 월세", [item("청년 월세 확대", "https://www.yna.co.kr/view/1")])
    fake_naver.add("주거 지원", [item("주거 지원 늘린다", "https://www.mk.co.kr/news/2")])
    fake_naver.stall(0.4, times=2)
    fake_llm.tools(
        ("fetch_articles", {"keywords": ["청년 월세"]}), ("fetch_articles", {"keywords": ["주거 지원"]})
    )
    submit(fake_llm, sources=[1, 2])
    verify_pass(fake_llm)

    run = run_draft(reporter)

    assert run.status == Run.Status.DONE, run.error
    first, second = sorted(r.at for r in fake_naver.requests)
    assert second - first < 0.35, "the second search waited for the first (stalled 0.4 s) to finish"
    results = fake_llm.requests[1].messages[-1]["content"]
    uses = fake_llm.requests[1].messages[-2]["content"]
    assert [r["tool_use_id"] for r in results] == [u["id"] for u in uses if u["type"] == "tool_use"]
    assert "[1] 연합뉴스 | 청년 월세 확대" in results[0]["content"]
    assert "[2] 매일경제 | 주거 지원 늘린다" in results[1]["content"]
    assert [s["url"] for s in run.article.sources] == [
        "https://www.yna.co.kr/view/1",
        "https://www.mk.co.kr/news/2",
    ]


def test_a_naver_outage_leaves_a_warning_and_the_draft_goes_on(
    reporter, fake_naver: FakeNaver, fake_llm: FakeAnthropic
) -> None:
    fake_naver.fail(500, times=2)
    submit(fake_llm)
    verify_pass(fake_llm)

    run = run_draft(reporter, keywords=["청년 월세"])

    assert run.status == Run.Status.DONE
    assert any("관련 기사 검색 실패" in w for w in run.article.warnings)


def test_an_unscrapable_page_falls_back_to_its_summary_flagged(
    reporter, fake_naver: FakeNaver, pages: FakePages, fake_llm: FakeAnthropic
) -> None:
    fake_naver.add(
        "청년 월세",
        [
            item(
                "청년 월세 확대",
                "https://www.yna.co.kr/view/1",
                pages.url("/missing"),
                "서울시가 청년 월세 지원을 늘린다",
            )
        ],
    )
    fake_llm.tool("select_articles", {"selected_indices": [1]}, forced=False)
    submit(fake_llm, sources=[1])
    verify_pass(fake_llm)

    run_draft(reporter, keywords=["청년 월세"])

    assert "요약만 제공" in fake_llm.requests[1].last_user_text()


def test_a_result_that_plainly_belongs_to_a_far_off_desk_is_left_out_of_the_list(
    reporter, news, fake_naver: FakeNaver, pages: FakePages, fake_llm: FakeAnthropic
) -> None:
    sports = item(
        "청년 월세? 프로야구 선수 FA 이적 시장 개막",
        "https://www.yna.co.kr/view/9",
        pages.url("/a9"),
        "야구 대표팀 출신 선수",
    )
    fake_naver.add("청년 월세", [sports])
    submit(fake_llm)
    verify_pass(fake_llm)

    run = run_draft(reporter, keywords=["청년 월세"])

    assert reporter.department == "사회부"
    prompt = fake_llm.requests[0].last_user_text()
    assert "서울시 청년 월세 지원 확대" in prompt and "청년 주거비 부담 여전" in prompt
    assert "FA 이적" not in prompt
    assert run.status == Run.Status.DONE, run.error


def test_the_model_may_select_up_to_ten_articles(reporter, news, fake_llm: FakeAnthropic) -> None:
    from agents.drafting import tools
    from agents.prompts import load

    assert tools.SelectArticlesInput.model_json_schema()["properties"]["selected_indices"]["maxItems"] == 10
    assert "최대 10건" in load("writing_system")

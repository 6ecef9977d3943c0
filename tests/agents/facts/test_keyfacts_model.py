"""The model lists a release's key facts in the `submit_article` call the draft already makes;
code keeps only those the release holds, and no call is made for them alone."""

from __future__ import annotations

import pytest

from agents import tasks
from agents.facts.keyfacts import missing_facts
from agents.facts.keyfacts_model import KeyFactItem, checked_key_facts
from agents.models import Article
from agents.services import draft_create, edit_create
from tests.agents.draft_script import verify_pass
from tests.fakes.anthropic import FakeAnthropic

pytestmark = pytest.mark.django_db

PROSE = (
    "문화체육관광부, 지역 서점과 도서관을 잇는 독서 공동체 사업 추진\n"
    "문화체육관광부는 지역 서점과 공공도서관이 함께 주민 독서 모임을 여는 독서 공동체 사업을 "
    "새로 추진한다고 밝혔다. 서점은 모임 공간과 도서를 내고, 도서관은 강사와 프로그램을 맡는다. "
    "참여를 원하는 서점은 관할 지방자치단체를 거쳐 신청하면 되며, 선정된 서점에는 운영비가 지원된다. "
    "장관은 동네 서점이 책을 파는 곳을 넘어 주민이 만나는 문화 공간이 되도록 돕겠다고 말했다. "
    "문체부는 사업 결과를 바탕으로 지역 출판 생태계를 살리는 후속 대책도 마련할 계획이다.\n"
    "담당 부서: 문화체육관광부 출판인쇄독서진흥과 (044-203-3241)"
)
LISTED = [
    {
        "fact": "문체부가 서점·도서관 독서 공동체 사업을 추진한다",
        "source_text": "지역 서점과 공공도서관이 함께 주민 독서 모임을 여는 독서 공동체 사업",
    },
    {"fact": "서점은 관할 지자체를 거쳐 신청한다", "source_text": "관할 지방자치단체를 거쳐 신청하면 되며"},
    {
        "fact": "선정 서점에 50억 원을 지원한다",
        "source_text": "선정된 서점에는 50억 원이 지원된다",
    },  # not in it
    {"fact": "담당 부서는 출판인쇄독서진흥과다", "source_text": "출판인쇄독서진흥과 (044-203-3241)"},  # frame
]
HEADLINE = "지역 서점·도서관 독서 공동체 사업"
ARTICLE = (
    "문화체육관광부가 지역 서점과 공공도서관이 함께 주민 독서 모임을 여는 독서 공동체 사업을 추진한다. "
    "서점은 모임 공간과 도서를, 도서관은 강사와 프로그램을 맡는다. "
    "장관은 동네 서점이 책을 파는 곳을 넘어 주민이 만나는 문화 공간이 되도록 돕겠다고 말했다."
)


def test_code_keeps_only_the_facts_the_release_holds_and_no_frame_line() -> None:
    kept = checked_key_facts(release=PROSE, listed=[KeyFactItem(**item) for item in LISTED])

    assert [k["fact"] for k in kept] == [
        "문체부가 서점·도서관 독서 공동체 사업을 추진한다",
        "서점은 관할 지자체를 거쳐 신청한다",
    ]


def test_at_most_five_are_kept_in_the_models_order() -> None:
    many = [KeyFactItem(fact=f"사실 {n}", source_text=word) for n, word in enumerate(PROSE.split()[:9])]

    assert [k["fact"] for k in checked_key_facts(release=PROSE, listed=many)] == [
        f"사실 {n}" for n in range(5)
    ]


def test_the_models_facts_are_judged_against_the_article_under_its_own_summary() -> None:
    kept = checked_key_facts(release=PROSE, listed=[KeyFactItem(**item) for item in LISTED])

    missing = missing_facts(release=PROSE, headline="", body=ARTICLE, listed=kept)

    assert [(f.fact, f.source_text) for f in missing] == [
        ("서점은 관할 지자체를 거쳐 신청한다", "관할 지방자치단체를 거쳐 신청하면 되며")
    ]


def test_a_draft_gets_its_key_facts_from_the_submit_call_with_no_extra_call(
    reporter, fake_llm: FakeAnthropic
) -> None:
    submission = {"headline": HEADLINE, "body": ARTICLE, "source_indices": [], "key_facts": LISTED}
    fake_llm.tool("submit_article", submission, forced=False)
    verify_pass(fake_llm, claims=[])
    run = draft_create(reporter=reporter, press_release=PROSE)
    tasks.draft_run.apply(args=[run.pk])
    article = Article.objects.get(run=run)

    # One writing turn and the verification: nothing else reached the model.
    assert fake_llm.requests[0].tool_names.count("submit_article") == 1
    assert len(fake_llm.requests) == 2 and fake_llm.requests[1].forced_tool == "verify_article"
    assert "key_facts" in fake_llm.requests[0].body["tools"][-1]["input_schema"]["properties"]
    assert [f["fact"] for f in article.missing_facts] == ["서점은 관할 지자체를 거쳐 신청한다"]
    release = next(d for d in article.source_material if d["kind"] == "press_release")
    assert [k["source_text"] for k in release["key_facts"]] == [
        LISTED[0]["source_text"],
        LISTED[1]["source_text"],
    ]

    fake_llm.tool("edit_article", {"headline": article.headline, "body": ARTICLE, "changes_made": "그대로"})
    edit = edit_create(reporter=reporter, article=article, instruction="제목 바꿔줘")
    tasks.edit_run.apply(args=[edit.pk])

    assert Article.objects.get(run=edit).missing_facts == article.missing_facts


def test_a_submission_without_key_facts_leaves_code_to_draw_the_list(
    reporter, fake_llm: FakeAnthropic
) -> None:
    fake_llm.tool(
        "submit_article", {"headline": HEADLINE, "body": ARTICLE, "source_indices": []}, forced=False
    )
    verify_pass(fake_llm, claims=[])
    run = draft_create(reporter=reporter, press_release=PROSE)
    tasks.draft_run.apply(args=[run.pk])
    article = Article.objects.get(run=run)

    assert len(fake_llm.requests) == 2
    release = next(d for d in article.source_material if d["kind"] == "press_release")
    assert "key_facts" not in release
    assert not any("044" in f["fact"] or "담당" in f["fact"] for f in article.missing_facts)

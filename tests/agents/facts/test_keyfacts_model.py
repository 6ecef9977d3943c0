"""Where code finds no key facts in a release (prose, no figures), one forced call lists them."""

from __future__ import annotations

import pytest

from agents import tasks
from agents.facts.keyfacts import missing_facts
from agents.facts.keyfacts_model import model_key_facts, needs_model
from agents.llm import client as llm
from agents.models import Article
from agents.services import draft_create, edit_create
from tests.agents.draft_script import submit, verify_pass
from tests.fakes.anthropic import FakeAnthropic
from tests.fixtures.press import PRESS_RELEASE

pytestmark = pytest.mark.django_db

PROSE = (
    "문화체육관광부, 지역 서점과 도서관을 잇는 독서 공동체 사업 추진\n"
    "문화체육관광부는 지역 서점과 공공도서관이 함께 주민 독서 모임을 여는 독서 공동체 사업을 "
    "새로 추진한다고 밝혔다. 서점은 모임 공간과 도서를 내고, 도서관은 강사와 프로그램을 맡는다. "
    "참여를 원하는 서점은 관할 지방자치단체를 거쳐 신청하면 되며, 선정된 서점에는 운영비가 지원된다. "
    "장관은 동네 서점이 책을 파는 곳을 넘어 주민이 만나는 문화 공간이 되도록 돕겠다고 말했다. "
    "문체부는 사업 결과를 바탕으로 지역 출판 생태계를 살리는 후속 대책도 마련할 계획이다. "
    "독서 모임은 어린이와 청소년, 어르신 등 세대별로 나누어 운영하고, 지역 작가와의 만남도 함께 연다."
)
LISTED = [
    {
        "fact": "서점·도서관 독서 공동체 사업 추진",
        "source_text": "지역 서점과 공공도서관이 함께 주민 독서 모임을 여는 독서 공동체 사업",
    },
    {"fact": "서점은 관할 지자체를 거쳐 신청한다", "source_text": "관할 지방자치단체를 거쳐 신청하면 되며"},
    {"fact": "지원 예산 50억 원", "source_text": "선정된 서점에는 50억 원이 지원된다"},  # not in the release
]
ARTICLE = (
    "문화체육관광부가 지역 서점과 공공도서관이 함께 주민 독서 모임을 여는 독서 공동체 사업을 추진한다. "
    "서점은 모임 공간과 도서를, 도서관은 강사와 프로그램을 맡는다."
)
CTX = llm.CallContext(api_key="sk-ant-test-keyfacts")


def test_code_asks_the_model_only_for_a_long_release_with_no_figure_date_or_contact() -> None:
    assert needs_model(PROSE)
    assert not needs_model(PRESS_RELEASE)  # figures and a date: code lists them itself
    assert not needs_model(PROSE[:200])  # a short notice is its title and lead


def test_one_forced_call_lists_the_facts_and_code_drops_any_the_release_does_not_hold(
    fake_llm: FakeAnthropic,
) -> None:
    fake_llm.tool("list_key_facts", {"facts": LISTED})

    listed = model_key_facts(ctx=CTX, release=PROSE)

    assert [f["fact"] for f in listed] == [
        "서점·도서관 독서 공동체 사업 추진",
        "서점은 관할 지자체를 거쳐 신청한다",
    ]
    sent = fake_llm.requests[-1]
    assert sent.forced_tool == "list_key_facts" and "독서 공동체" in sent.last_user_text()
    assert "한 글자도 바꾸지 않고" in sent.system_text


def test_a_failed_call_leaves_the_code_list_alone(fake_llm: FakeAnthropic) -> None:
    fake_llm.error(400, message="bad request")

    assert model_key_facts(ctx=CTX, release=PROSE) == []


def test_the_model_facts_replace_the_guessed_clauses_and_are_judged_against_the_article() -> None:
    missing = missing_facts(release=PROSE, headline="", body=ARTICLE, listed=LISTED[:2])

    assert [f.fact for f in missing] == ["서점은 관할 지자체를 거쳐 신청한다"]
    assert missing[0].source_text == "관할 지방자치단체를 거쳐 신청하면 되며"


def test_a_draft_of_prose_makes_the_call_once_and_its_edits_inherit_the_list(
    reporter, fake_llm: FakeAnthropic
) -> None:
    submit(fake_llm, body=ARTICLE, headline="지역 서점·도서관 독서 공동체 사업")
    verify_pass(fake_llm, claims=[])
    fake_llm.tool("list_key_facts", {"facts": LISTED})
    run = draft_create(reporter=reporter, press_release=PROSE)
    tasks.draft_run.apply(args=[run.pk])
    article = Article.objects.get(run=run)

    assert [f["fact"] for f in article.missing_facts] == ["서점은 관할 지자체를 거쳐 신청한다"]
    release = next(d for d in article.source_material if d["kind"] == "press_release")
    assert len(release["key_facts"]) == 2

    fake_llm.tool("edit_article", {"headline": article.headline, "body": ARTICLE, "changes_made": "그대로"})
    edit = edit_create(reporter=reporter, article=article, instruction="제목 바꿔줘")
    tasks.edit_run.apply(args=[edit.pk])

    assert len(fake_llm.calls_for("list_key_facts")) == 1
    assert Article.objects.get(run=edit).missing_facts == article.missing_facts

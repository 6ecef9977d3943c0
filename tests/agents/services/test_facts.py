"""The "추가" of a missing key fact: an edit that names the fact and its release text, verified
like any edit. `article` is a finished draft of the fixture release (tests/agents/conftest.py)."""

from __future__ import annotations

import pytest

from agents import tasks
from agents.models import Article, Run
from agents.services import InputError, add_fact_instruction, fact_add_create
from tests.fakes.anthropic import FakeAnthropic
from tests.fixtures.press import BODY, HEADLINE

pytestmark = pytest.mark.django_db

FACT = {
    "fact": "지원 대상자는 소득과 재산 기준을 충족해야 하며",
    "source_text": "지원 대상자는 소득과 재산 기준을 충족해야 하며",
}


def test_the_fixture_article_lacks_the_eligibility_rule(article: Article) -> None:
    assert article.missing_facts == [FACT]


def test_the_instruction_names_the_fact_and_quotes_its_release_text_and_asks_for_it_alone() -> None:
    instruction = add_fact_instruction(
        fact="접수 기간 10~24일", source_text="신청은 오는 10일부터 24일까지 받는다."
    )

    assert "접수 기간 10~24일" in instruction and '"신청은 오는 10일부터 24일까지 받는다."' in instruction
    assert "하나만" in instruction and "그대로" in instruction


def test_a_long_release_text_is_shortened_to_fit_an_edit_instruction() -> None:
    instruction = add_fact_instruction(fact="예산", source_text="가" * 2000)

    assert len(instruction) <= 500 and "…" in instruction


def test_adding_a_fact_queues_an_edit_of_that_article(reporter, article: Article) -> None:
    run = fact_add_create(reporter=reporter, article=article, number=1)

    assert run.kind == Run.Kind.EDIT and run.parent_article == article
    assert FACT["source_text"] in run.input["instruction"]


@pytest.mark.parametrize("number", [0, 2, -1])
def test_a_fact_number_the_article_does_not_list_is_refused(reporter, article: Article, number: int) -> None:
    with pytest.raises(InputError) as refused:
        fact_add_create(reporter=reporter, article=article, number=number)

    assert refused.value.status == 404 and not Run.objects.filter(kind=Run.Kind.EDIT).exists()


def test_the_added_fact_is_verified_like_any_edit(
    reporter, article: Article, fake_llm: FakeAnthropic
) -> None:
    added = (
        BODY
        + "\n\n지원 대상자는 소득과 재산 기준을 충족해야 한다."
        + " 시는 내년 지원 규모를 5만 가구로 늘릴 계획이다."
    )
    fake_llm.tool("edit_article", {"headline": HEADLINE, "body": added, "changes_made": "지원 기준 추가"})
    run = fact_add_create(reporter=reporter, article=article, number=1)

    tasks.edit_run.apply(args=[run.pk])

    revision = Article.objects.get(run=run)
    assert "소득과 재산 기준을 충족해야 한다" in revision.body
    # The sentence the model slipped in beside the fact carries a figure no source has: cut.
    assert "5만 가구" not in revision.body and revision.verdict == "revised"
    assert revision.issues.filter(origin="code", status="not_found", action="deleted").exists()
    assert revision.missing_facts == []
    sent = fake_llm.requests[-1]
    assert sent.forced_tool == "edit_article" and FACT["source_text"] in sent.last_user_text()

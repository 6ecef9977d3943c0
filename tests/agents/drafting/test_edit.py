"""Edits make a new revision linked to its parent, re-checked by the code guard."""

from __future__ import annotations

import pytest

from agents import tasks
from agents.drafting.edit import edit_article
from agents.drafting.material import SourceDoc
from agents.llm import client as llm
from agents.models import Article, Run
from agents.services import edit_create
from tests.factories import ArticleFactory
from tests.fixtures import suspects
from tests.fixtures.press import BODY, HEADLINE
from tests.fixtures.suspects import suspect_guard  # noqa: F401 (a fixture)

pytestmark = pytest.mark.django_db


def edit(reporter, article: Article, instruction: str) -> Run:
    run = edit_create(reporter=reporter, article=article, instruction=instruction)
    tasks.edit_run.apply(args=[run.pk])
    run.refresh_from_db()
    return run


def test_a_new_headline_makes_revision_two_linked_to_its_parent(reporter, article, fake_llm) -> None:
    fake_llm.tool(
        "edit_article", {"headline": "청년 월세 지원 2만 가구로", "body": BODY, "changes_made": "제목 변경"}
    )

    run = edit(reporter, article, "제목 바꿔줘")

    revision = run.article
    assert run.status == Run.Status.DONE
    assert revision.parent == article and revision.revision == 2
    assert revision.headline == "청년 월세 지원 2만 가구로" and revision.body == article.body
    assert revision.verdict == "pass" and revision.instruction == "제목 바꿔줘"
    sent = fake_llm.requests[-1]
    assert sent.forced_tool == "edit_article" and HEADLINE in sent.last_user_text()


def test_a_length_request_is_reasked_once_when_far_off(reporter, article, fake_llm) -> None:
    fake_llm.tool("edit_article", {"headline": HEADLINE, "body": BODY, "changes_made": "그대로"})
    short = "서울시는 3일 청년 월세 지원 대상을 2만 가구로 확대한다고 밝혔다. " * 4
    fake_llm.tool("edit_article", {"headline": HEADLINE, "body": short.strip(), "changes_made": "줄임"})

    revision = edit(reporter, article, "150자로 줄여줘").article

    assert "150자" in fake_llm.requests[-1].last_user_text()
    assert revision.body == short.strip()


def test_an_edit_that_adds_a_number_loses_that_sentence(reporter, article, fake_llm) -> None:
    added = BODY + "\n\n시는 2030년까지 10만 가구를 지원할 계획이다."
    fake_llm.tool("edit_article", {"headline": HEADLINE, "body": added, "changes_made": "계획 추가"})

    revision = edit(reporter, article, "전망을 한 문단 덧붙여줘").article

    assert "10만 가구" not in revision.body and "10만 가구" in revision.draft_body
    assert revision.verdict == "revised"
    assert revision.issues.filter(origin="code", status="not_found", action="deleted").exists()


def test_an_empty_instruction_is_refused(reporter, article) -> None:
    from agents.services import InputError

    with pytest.raises(InputError):
        edit_create(reporter=reporter, article=article, instruction="  ")


def test_an_edit_lists_every_fact_it_checked_so_the_reporter_is_told_what_was_checked(
    reporter, article, fake_llm
) -> None:
    fake_llm.tool("edit_article", {"headline": HEADLINE, "body": BODY, "changes_made": "그대로"})

    revision = edit(reporter, article, "문장 다듬어줘").article

    assert revision.verdict == "pass"
    assert revision.issues.filter(status="confirmed").count() >= 5
    assert not revision.issues.exclude(status="confirmed").exists()


def test_an_edited_headline_with_a_number_the_sources_lack_is_not_delivered(
    reporter, article, fake_llm
) -> None:
    fake_llm.tool(
        "edit_article",
        {"headline": "서울시, 청년 월세 지원 5만 가구로 확대", "body": BODY, "changes_made": "제목"},
    )

    revision = edit(reporter, article, "제목 바꿔줘").article

    assert revision.headline == "서울시, 청년 월세 지원 확대"
    assert revision.verdict == "revised"
    assert revision.issues.get(sentence_index=0, claim="5만 가구").action == "trimmed"


LINTED = "서울시는 청년 리스크가 커졌다고 밝혔다.\n\n지원 대상은 가장 최고 수준인 2만 가구다."


def linted_article(reporter, *, body: str = LINTED) -> Article:
    return ArticleFactory(
        reporter=reporter,
        department="테크부",
        headline=HEADLINE,
        draft_body=body,
        body=body,
        verdict="pass",
        length=len(body),
    )


def test_fix_it_applies_the_mechanical_lint_fixes_in_code_without_a_model_call(reporter, fake_llm) -> None:
    parent = linted_article(reporter)

    revision = edit(reporter, parent, "고쳐줘").article

    assert revision.body == "서울시는 청년 위험이 커졌다고 밝혔다.\n\n지원 대상은 최고 수준인 2만 가구다."
    assert revision.revision == 2 and revision.changes_made == "표기 점검 2곳 수정"
    assert fake_llm.requests == []


def test_fix_it_sends_only_the_hits_that_need_rewording_to_the_model(reporter, fake_llm) -> None:
    parent = linted_article(reporter, body="대책은 정부에 의해 발표됐다. 업계 리스크가 커졌다.")
    fake_llm.tool(
        "edit_article",
        {
            "headline": HEADLINE,
            "body": "정부가 대책을 발표했다. 업계 위험이 커졌다.",
            "changes_made": "능동문",
        },
    )

    revision = edit(reporter, parent, "고쳐줘").article

    sent = fake_llm.requests[-1].last_user_text()
    assert "'에 의해'" in sent and "업계 위험이 커졌다" in sent and "리스크" not in sent
    assert revision.body == "정부가 대책을 발표했다. 업계 위험이 커졌다."


@pytest.mark.usefixtures("suspect_guard")
def test_an_edit_keeps_a_suspect_sentence_and_marks_it_since_no_model_checks_an_edit(fake_llm) -> None:
    fake_llm.tool("edit_article", {"headline": "1인 가구", "body": suspects.BODY, "changes_made": "그대로"})

    result = edit_article(
        ctx=llm.CallContext(api_key="sk-ant-test-edit"),
        headline="1인 가구",
        body=suspects.BODY,
        instruction="그대로 둬",
        material=[SourceDoc("press_release", "자료 1", suspects.RELEASE)],
        reference=suspects.REFERENCE,
    )

    [marked] = [i for i in result.issues if i.claim == suspects.CLAIM]
    assert result.body == suspects.BODY and result.verdict == "pass"
    assert (marked.status, marked.action) == ("suspect", "kept")
    assert marked.reason.startswith("확인 필요")


def test_a_file_sent_with_an_edit_is_material_its_figures_survive_the_guard(
    reporter, article, fake_llm
) -> None:
    from agents.services import upload_receive

    correction = "정정: 시는 2030년까지 10만 가구를 지원할 계획이다."
    upload = upload_receive(
        reporter=reporter, file_name="정정.txt", mime_type="text/plain", data=correction.encode()
    )
    added = BODY + "\n\n시는 2030년까지 10만 가구를 지원할 계획이다."
    fake_llm.tool("edit_article", {"headline": HEADLINE, "body": added, "changes_made": "계획 추가"})

    run = edit_create(reporter=reporter, article=article, instruction="자료대로 덧붙여줘", upload=upload)
    tasks.edit_run.apply(args=[run.pk])
    revision = Run.objects.get(pk=run.pk).article

    assert "10만 가구" in revision.body and revision.verdict == "pass"
    assert (
        revision.source_material[-1] | {"kind": "attachment", "title": "정정.txt", "text": correction}
        == (revision.source_material[-1])
    )
    assert correction in fake_llm.requests[-1].all_text()

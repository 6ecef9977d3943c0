"""Verification: the verifier's budget and split, evidence code can check, and the headline."""

from __future__ import annotations

from datetime import date
from typing import Any

import pytest

from agents import messages as msg
from agents import tasks
from agents.models import Article, Run
from agents.services import draft_create
from agents.verification import evidence
from agents.verification.evidence import Derivation
from agents.verification.guard import split_sentences
from agents.verification.verify import (
    VERIFY_MAX_TOKENS,
    ClaimCheck,
    Issue,
    apply_evidence,
    code_issues,
    headline_issues,
)
from tests.agents.draft_script import submit, verify_pass
from tests.fakes.anthropic import FakeAnthropic, tool_use
from tests.fixtures.press import BODY, BODY_WITH_HALLUCINATION, HALLUCINATED_SENTENCE, HEADLINE, PRESS_RELEASE

pytestmark = pytest.mark.django_db


def draft(reporter) -> Run:
    run = draft_create(reporter=reporter, press_release=PRESS_RELEASE)
    tasks.draft_run.apply(args=[run.pk])
    run.refresh_from_db()
    return run


def cut_off(fake: FakeAnthropic) -> None:
    """A verify_article answer that ran out of output tokens half-way through its issue list."""
    partial = {"thinking": "대조 중", "verdict": "pass", "issues": []}
    fake.reply(tool_use("verify_article", partial), expect="verify_article", stop_reason="max_tokens")


def test_the_verifier_may_answer_with_the_seeds_budget_of_8192_tokens(
    reporter, fake_llm: FakeAnthropic
) -> None:
    submit(fake_llm)
    verify_pass(fake_llm)

    draft(reporter)

    assert VERIFY_MAX_TOKENS == 8192
    assert fake_llm.calls_for("verify_article")[0].body["max_tokens"] == 8192


def test_a_verification_cut_off_by_its_budget_is_asked_again_per_half_of_the_sentences(
    reporter, fake_llm: FakeAnthropic
) -> None:
    count = len(split_sentences(BODY))
    submit(fake_llm)
    cut_off(fake_llm)
    verify_pass(fake_llm)
    verify_pass(fake_llm, claims=[])

    run = draft(reporter)

    assert run.status == Run.Status.DONE, run.error
    assert run.article.verdict == Article.Verdict.PASS
    assert msg.VERIFY_MODEL_MISSING not in run.article.warnings
    first, second = (call.last_user_text() for call in fake_llm.calls_for("verify_article")[1:])
    half = count // 2
    assert f"[{half}] " in first and f"[{half + 1}] " not in first
    assert f"[{half + 1}] " in second and f"[{count}] " in second and "[1] " not in second
    assert run.article.issues.filter(origin="llm", sentence_index=1).exists()


def test_halves_cut_off_again_are_split_again_down_to_single_sentences(
    reporter, fake_llm: FakeAnthropic
) -> None:
    submit(fake_llm)
    cut_off(fake_llm)  # the whole article
    cut_off(fake_llm)  # its first half
    for _ in range(3):  # the first half's two quarters, then the second half
        verify_pass(fake_llm, claims=[])

    run = draft(reporter)

    assert run.status == Run.Status.DONE, run.error
    assert len(fake_llm.calls_for("verify_article")) == 5
    assert msg.VERIFY_MODEL_MISSING not in run.article.warnings


def test_a_single_sentence_still_cut_off_keeps_the_code_guard_and_says_so(
    reporter, fake_llm: FakeAnthropic
) -> None:
    one_sentence = "서울시가 청년 월세 지원 대상을 2만 가구로 늘린다."
    submit(fake_llm, body=one_sentence)
    submit(fake_llm, body=one_sentence)  # short again after the length re-ask: kept with a warning
    cut_off(fake_llm)

    run = draft(reporter)

    assert run.status == Run.Status.DONE, run.error
    assert run.article.verdict == Article.Verdict.SKIPPED
    assert msg.VERIFY_MODEL_MISSING in run.article.warnings


# --- evidence code can check decides (item 4) ---------------------------------------------------
SOURCES = ["올해 예산은 1,480억원이다. 지난해 예산은 1,250 억 원이었다."]


def flagged(claim: str, *, status: str = "not_found", sentence: int = 2) -> Issue:
    return Issue(claim, status, "number", msg.NOT_IN_SOURCES, "code", sentence)


def confirmed_by_model(sentence: int = 2, **evidence: Any) -> ClaimCheck:
    return ClaimCheck(
        claim="지난해 예산 1,250억원", status="confirmed", kind="number", sentence=sentence, **evidence
    )


def settle(issue: Issue, check: ClaimCheck) -> Issue:
    apply_evidence(issues=[issue], checks=[check], sources=SOURCES, reference=date(2026, 3, 3))
    return issue


def test_a_figure_code_missed_is_kept_on_a_source_span_that_code_finds_holding_it() -> None:
    issue = settle(flagged("1,250억원"), confirmed_by_model(evidence_quote="지난해 예산은 1,250 억 원이었다"))

    assert issue.status == "confirmed"
    assert issue.source == "자료 1: 지난해 예산은 1,250 억 원이었다"
    assert issue.reason == msg.KEPT_BY_SPAN


def test_a_derived_figure_is_kept_on_a_derivation_code_recomputes() -> None:
    derivation = Derivation(operation="difference", operands=["1,480억원", "1,250억원"])
    issue = settle(flagged("230억원"), confirmed_by_model(derivation=derivation))

    assert issue.status == "confirmed"
    assert issue.formula == "1,480억원 − 1,250억원 = 230억원"


def test_the_models_word_alone_keeps_no_figure() -> None:
    issue = settle(flagged("1,250억원"), confirmed_by_model())

    assert issue.status == "not_found"
    assert issue.reason == msg.EVIDENCE_MISSING


def test_a_span_that_is_not_in_the_sources_keeps_no_figure() -> None:
    issue = settle(flagged("1,500억원"), confirmed_by_model(evidence_quote="지난해 예산은 1,500억원이었다"))

    assert issue.status == "not_found"
    assert issue.reason == msg.EVIDENCE_REJECTED


def test_a_figure_code_found_contradicted_is_never_reopened() -> None:
    issue = settle(
        flagged("1,250억원", status="contradicted"),
        confirmed_by_model(evidence_quote="지난해 예산은 1,250 억 원이었다"),
    )

    assert issue.status == "contradicted"


def test_evidence_is_read_in_the_sentence_the_code_issue_stands_in() -> None:
    """Alone, "세 가지" is held by any list of three; in its sentence it counts two definitions."""
    sources = ["가족의 정의로는 혈연관계와 법적 연결관계를 꼽았다. 경향은 서울, 인천, 경기도에서 두드러진다."]
    body = "가족의 정의로는 ‘혈연관계’와 ‘법적 연결관계’ 세 가지에 대한 동의가 높았다."
    span = "경향은 서울, 인천, 경기도에서 두드러진다."
    [issue] = [
        i for i in code_issues(body=body, sources=sources, reference=date(2026, 3, 3)) if i.claim == "세 가지"
    ]
    check = ClaimCheck(claim="세 가지", status="confirmed", kind="number", sentence=1, evidence_quote=span)

    apply_evidence(issues=[issue], checks=[check], sources=sources, reference=date(2026, 3, 3))

    assert issue.context == body
    assert evidence.span_supports(fact="세 가지", span=span, sources=sources, reference=None)  # alone
    assert issue.status == "not_found"
    assert issue.reason == msg.EVIDENCE_REJECTED


def test_evidence_given_for_another_sentence_keeps_nothing() -> None:
    issue = settle(
        flagged("1,250억원"), confirmed_by_model(sentence=3, evidence_quote="지난해 예산은 1,250 억 원이었다")
    )

    assert issue.status == "not_found"


def test_a_verifier_that_confirms_a_hallucinated_figure_with_a_made_up_span_does_not_keep_it(
    reporter, fake_llm: FakeAnthropic
) -> None:
    submit(fake_llm, body=BODY_WITH_HALLUCINATION)
    last = len(split_sentences(BODY_WITH_HALLUCINATION))
    claim = {
        "claim": "1,500억원",
        "status": "confirmed",
        "kind": "number",
        "sentence": last,
        "source": "자료 1",
        "evidence_quote": "지원 규모를 1,500억원으로 늘릴 계획",
    }
    verify_pass(fake_llm, claims=[claim])

    article = draft(reporter).article

    assert HALLUCINATED_SENTENCE not in article.body
    assert article.issues.get(origin="code", claim="1,500억원").action == "deleted"
    assert "evidence_quote" in fake_llm.calls_for("verify_article")[0].all_text()


# --- the headline is verified like a sentence (item 5) -------------------------------------------
WRONG_HEADLINE = "서울시, 청년 월세 지원 3만 가구로 확대"


def test_a_headline_figure_the_sources_do_not_hold_is_replaced_by_the_verifiers_rewrite(
    reporter, fake_llm: FakeAnthropic
) -> None:
    submit(fake_llm, headline=WRONG_HEADLINE)
    rewrite = "서울시, 청년 월세 지원 2만 가구로 늘린다"
    fake_llm.tool(
        "verify_article",
        {
            "thinking": "제목 수치 오류",
            "verdict": "needs_revision",
            "issues": [],
            "revisions": [],
            "headline": rewrite,
        },
    )

    article = draft(reporter).article

    assert article.headline == rewrite
    assert article.verdict == Article.Verdict.REVISED
    assert article.issues.get(sentence_index=0, claim="3만 가구").action == "trimmed"
    assert "제목(문장 0)" in fake_llm.calls_for("verify_article")[0].last_user_text()


def test_without_a_usable_rewrite_the_unsupported_words_are_removed_from_the_headline(
    reporter, fake_llm: FakeAnthropic
) -> None:
    submit(fake_llm, headline=WRONG_HEADLINE)
    fake_llm.tool(
        "verify_article",
        {
            "thinking": "",
            "verdict": "needs_revision",
            "issues": [],
            "revisions": [],
            "headline": "서울시, 5만 가구 지원",
        },
    )

    article = draft(reporter).article

    assert article.headline == "서울시, 청년 월세 지원 확대"
    assert article.verdict == Article.Verdict.REVISED


def test_a_headline_that_is_nothing_but_the_unsupported_figure_gives_way_to_the_first_sentence(
    reporter, fake_llm: FakeAnthropic
) -> None:
    submit(fake_llm, headline="3만 가구 지원")
    verify_pass(fake_llm)

    article = draft(reporter).article

    assert article.headline == split_sentences(BODY)[0].text.rstrip(".")
    assert article.verdict == Article.Verdict.REVISED
    assert any("제목을 다시 써" in warning for warning in article.warnings)
    assert article.issues.get(sentence_index=0, claim="3만 가구").action == "deleted"


def test_a_supported_headline_is_kept_and_its_facts_are_listed_as_sentence_0(
    reporter, fake_llm: FakeAnthropic
) -> None:
    submit(fake_llm)
    verify_pass(fake_llm)

    article = draft(reporter).article

    assert article.headline == HEADLINE
    assert article.verdict == Article.Verdict.PASS
    assert article.issues.filter(sentence_index=0, status="confirmed", origin="code").exists()


def test_a_headline_is_checked_with_its_body_so_a_figure_the_body_binds_is_not_cut() -> None:
    release = "생산 면적은 2017년 76만ha에서 2023년 64만ha로 줄었다."
    headline = "쌀 생산 면적 6년 새 12만ha 줄어"

    alone = headline_issues(headline=headline, body="", sources=[release], reference=None)
    with_body = headline_issues(headline=headline, body=release, sources=[release], reference=None)

    assert {i.claim for i in alone if i.status != "confirmed"} == {"6년"}
    assert all(i.status == "confirmed" and i.sentence_index == 0 for i in with_body)

"""Suspect claims: kept only on a source clause code re-reads holding the value with the article's
subject words, cut without one, and kept and marked for the reporter when no model runs."""

from __future__ import annotations

from datetime import date

import pytest

from agents import messages as msg
from agents.drafting.material import SourceDoc
from agents.llm import client as llm
from agents.verification import suspects
from agents.verification.summary import summary
from agents.verification.verify import Issue, Verification, verify_article
from tests.fakes.anthropic import FakeAnthropic, tool_use
from tests.fixtures.suspects import (
    BODY,
    CLAIM,
    HEADLINE,
    OTHER_SUBJECT_QUOTE,
    REASON,
    REFERENCE,
    RELEASE,
    RULE,
    SAME_SUBJECT_QUOTE,
    SUSPECT_SENTENCE,
    suspect_guard,  # noqa: F401 (a fixture)
)

SOURCES = [RELEASE]
CTX = llm.CallContext(api_key="sk-ant-test-suspects")
MATERIAL = [SourceDoc("press_release", "자료 1", RELEASE)]


def holding(fact: str, sentence: str, span: str, kind: str = "number", sources: list[str] = SOURCES) -> bool:
    found = suspects.clause_holding(
        fact=fact, kind=kind, sentence=sentence, span=span, sources=sources, reference=date(2026, 3, 3)
    )
    return found is not None


# --- the clause code re-reads ---------------------------------------------------------------------
def test_a_clause_holding_the_value_with_the_articles_subject_words_is_evidence() -> None:
    assert holding(CLAIM, SUSPECT_SENTENCE, SAME_SUBJECT_QUOTE)


def test_the_value_beside_another_subject_is_no_evidence() -> None:
    assert not holding(CLAIM, "부산의 1인 가구 비율은 30.4%로 집계됐다.", SAME_SUBJECT_QUOTE)


def test_a_clause_with_the_subject_but_another_value_is_no_evidence() -> None:
    assert not holding(CLAIM, SUSPECT_SENTENCE, OTHER_SUBJECT_QUOTE)


def test_subject_and_value_in_two_clauses_of_one_sentence_are_no_evidence() -> None:
    """'서울 30.4%, 부산 20.1%': the comma parts the clauses, so 부산 never holds 30.4%."""
    assert not holding("20.1%", "서울의 1인 가구 비율은 20.1%였다.", SAME_SUBJECT_QUOTE)


def test_in_a_clause_of_two_figures_each_value_is_about_the_words_right_before_it() -> None:
    """One clause, no comma: 자산 names 4억 원, 부채 names 2천만 원; 농가 is the topic of both."""
    farm = "지난해 농가 자산은 4억 원으로 1.8% 감소했고 부채는 2천만 원으로 0.4% 늘었다."

    assert holding("2천만 원", "농가 부채는 2천만 원이었다.", farm, sources=[farm])
    assert not holding("2천만 원", "농가 자산은 2천만 원이었다.", farm, sources=[farm])


def test_in_a_bracketed_list_each_value_belongs_to_the_label_before_it() -> None:
    airports = "공항별로는 대구(118.9%)·김해(13.3%)·인천(7.6%)공항 등은 증가했다."

    assert holding("118.9%", "대구공항은 118.9% 늘었다.", airports, sources=[airports])
    assert not holding("118.9%", "김해공항은 118.9% 늘었다.", airports, sources=[airports])


def test_a_quote_that_is_not_in_the_sources_is_no_evidence() -> None:
    assert not holding(CLAIM, SUSPECT_SENTENCE, "서울의 1인 가구 비율은 30.4%로 가장 높았다.")


def test_a_date_is_evidenced_by_the_clause_of_its_own_event() -> None:
    span = "시는 3월 5일 설명회를 열고, 3월 12일 접수를 시작한다."

    assert holding("3월 12일", "접수는 3월 12일 시작한다.", span, kind="date")
    assert not holding("3월 12일", "설명회는 3월 12일 열린다.", span, kind="date")


def test_the_subject_words_are_what_the_article_says_right_before_the_figure() -> None:
    sentence = "부산의 1인 가구 비율은 30.4%였다."
    start = sentence.index(CLAIM)

    words = suspects.subject_words(sentence=sentence, start=start, end=start + len(CLAIM))

    assert words == {"부산", "가구", "비율"}


# --- in the verification -----------------------------------------------------------------------
def answer(fake: FakeAnthropic, **check: object) -> None:
    issue = {"claim": CLAIM, "status": "confirmed", "kind": "number", "sentence": 1, "source": "자료 1"}
    fake.tool("verify_article", {"verdict": "pass", "issues": [{**issue, **check}], "revisions": []})


def verified(*, ctx: llm.CallContext | None, headline: str = "") -> Verification:
    return verify_article(ctx=ctx, headline=headline, body=BODY, material=MATERIAL, reference=REFERENCE)


def the_suspect(check: Verification) -> Issue:
    [issue] = [i for i in check.issues if i.origin == "code" and i.claim == CLAIM and i.sentence_index == 1]
    return issue


pytestmark = pytest.mark.django_db


@pytest.mark.usefixtures("suspect_guard")
def test_a_suspect_claim_goes_to_the_verifier_in_the_one_call_with_both_source_spans(
    fake_llm: FakeAnthropic,
) -> None:
    answer(fake_llm, evidence_quote=SAME_SUBJECT_QUOTE)

    verified(ctx=CTX)

    [call] = fake_llm.calls_for("verify_article")
    sent = call.last_user_text()
    assert "<코드_의심>" in sent and f'문장 1: "{CLAIM}"' in sent
    assert '대상에 관한 자료 구절: "부산 20.1%로 집계됐다"' in sent
    value_line = sent.split("같은 값이 나오는 자료 구절: ")[1].splitlines()[0]
    assert "서울 30.4%" in value_line
    assert "<코드_검사>" not in sent  # nothing is flagged: the suspect is not a not_found


@pytest.mark.usefixtures("suspect_guard")
def test_a_suspect_claim_with_a_clause_code_re_reads_is_kept(fake_llm: FakeAnthropic) -> None:
    answer(fake_llm, evidence_quote=SAME_SUBJECT_QUOTE)

    check = verified(ctx=CTX)

    issue = the_suspect(check)
    assert SUSPECT_SENTENCE in check.body
    assert (issue.status, issue.action, issue.rule) == ("confirmed", "kept", RULE)
    assert issue.reason == msg.SUSPECT_KEPT_BY_CLAUSE
    assert issue.source == "자료 1: 지난해 1인 가구 비율은 서울 30.4%"
    assert check.verdict == "pass"


@pytest.mark.usefixtures("suspect_guard")
def test_a_suspect_claim_the_verifier_confirms_without_a_quote_is_cut(fake_llm: FakeAnthropic) -> None:
    answer(fake_llm)

    check = verified(ctx=CTX)

    issue = the_suspect(check)
    assert SUSPECT_SENTENCE not in check.body and "3월 12일" in check.body
    assert (issue.status, issue.action) == ("suspect", "deleted")
    assert issue.reason == msg.SUSPECT_EVIDENCE_MISSING
    assert check.verdict == "revised"
    assert summary(check.issues).flagged == 1 and summary(check.issues).marked == ()


@pytest.mark.usefixtures("suspect_guard")
def test_a_suspect_claim_quoted_beside_another_subject_is_cut(fake_llm: FakeAnthropic) -> None:
    answer(fake_llm, evidence_quote=OTHER_SUBJECT_QUOTE)

    check = verified(ctx=CTX)

    issue = the_suspect(check)
    assert SUSPECT_SENTENCE not in check.body
    assert (issue.status, issue.action, issue.reason) == ("suspect", "deleted", msg.SUSPECT_EVIDENCE_REJECTED)


@pytest.mark.usefixtures("suspect_guard")
def test_without_a_model_a_suspect_claim_is_kept_and_marked_for_the_reporter() -> None:
    check = verified(ctx=None)

    issue = the_suspect(check)
    assert check.body == BODY
    assert (issue.status, issue.action, issue.rule) == ("suspect", "kept", RULE)
    assert issue.reason == msg.SUSPECT_UNCHECKED.format(reason=REASON)
    assert issue.reason.startswith("확인 필요")
    assert check.verdict == "pass"
    assert summary(check.issues).marked == (CLAIM,) and summary(check.issues).flagged == 0


@pytest.mark.usefixtures("suspect_guard")
def test_a_verifier_outage_keeps_a_suspect_claim_and_marks_it(fake_llm: FakeAnthropic) -> None:
    fake_llm.reply(tool_use("verify_article", {}), expect="verify_article", stop_reason="refusal")

    check = verified(ctx=CTX)

    issue = the_suspect(check)
    assert check.body == BODY
    assert (issue.status, issue.action) == ("suspect", "kept")
    assert issue.reason.startswith(msg.SUSPECT_MARK)
    assert msg.VERIFY_MODEL_MISSING in check.warnings


@pytest.mark.usefixtures("suspect_guard")
def test_a_suspect_headline_is_kept_without_a_model_and_replaced_after_one_without_evidence(
    fake_llm: FakeAnthropic,
) -> None:
    kept = verified(ctx=None, headline=HEADLINE)
    answer(fake_llm, sentence=0)
    replaced = verified(ctx=CTX, headline=HEADLINE)

    assert kept.headline == HEADLINE
    assert replaced.headline != HEADLINE
    [cut] = [i for i in replaced.issues if i.sentence_index == 0 and i.status == "suspect"]
    assert cut.action != "kept"


def test_every_issue_carries_its_rule_family(fake_llm: FakeAnthropic) -> None:
    body = BODY + " 신청은 1,000명을 넘었다."
    answer(fake_llm, evidence_quote=SAME_SUBJECT_QUOTE)

    check = verify_article(ctx=CTX, headline="", body=body, material=MATERIAL, reference=REFERENCE)

    rules = {(i.origin, i.status): i.rule for i in check.issues}
    assert rules[("llm", "confirmed")] == "model"
    assert rules[("code", "not_found")] == "absent"
    assert all(i.rule for i in check.issues)

"""Verification through the draft task: the verifier's budget, and an answer cut off by it."""

from __future__ import annotations

import pytest

from agents import messages as msg
from agents import tasks
from agents.guard import split_sentences
from agents.models import Article, Run
from agents.services import draft_create
from agents.verify import VERIFY_MAX_TOKENS
from tests.agents.drafting import submit, verify_pass
from tests.fakes.anthropic import FakeAnthropic, tool_use
from tests.fixtures.press import BODY, PRESS_RELEASE

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

"""The draft pipeline through its Celery task: writing loop → verification → saved article."""

from __future__ import annotations

import pytest

from agents import tasks
from agents.models import Article, LLMCall, Run, VerificationIssue
from agents.services import draft_create
from agents.verification.guard import split_sentences
from tests.agents.draft_script import submit, verify_flags, verify_pass
from tests.fakes.anthropic import FakeAnthropic, text
from tests.fixtures.press import (
    BODY,
    BODY_WITH_HALLUCINATION,
    HALLUCINATED_SENTENCE,
    PRESS_RELEASE,
)

pytestmark = pytest.mark.django_db


def queue(reporter, **kwargs) -> Run:
    return draft_create(reporter=reporter, press_release=kwargs.pop("press_release", PRESS_RELEASE), **kwargs)


def run_task(run: Run) -> Run:
    tasks.draft_run.apply(args=[run.pk])
    run.refresh_from_db()
    return run


def test_a_press_release_becomes_a_verified_article_in_two_round_trips(
    reporter, fake_llm: FakeAnthropic
) -> None:
    submit(fake_llm)
    verify_pass(fake_llm)

    run = run_task(queue(reporter))

    assert run.status == Run.Status.DONE, run.error
    article = run.article
    assert article.verdict == Article.Verdict.PASS
    assert article.body == article.draft_body == BODY.replace("\n\n", "\n\n")
    assert article.length == len(article.body.replace("\n", ""))
    assert len(fake_llm.requests) == 2
    first = fake_llm.requests[0]
    assert first.tool_choice == {"type": "any"}
    assert first.tool_names == ["submit_article"]  # no search asked for, style and text already in the prompt
    prompt = first.last_user_text()
    assert "청년 월세 지원" in prompt and "<스타일_가이드" in prompt and "금지 표현" in prompt
    assert fake_llm.requests[1].forced_tool == "verify_article"
    assert "[1] " in fake_llm.requests[1].last_user_text()


def test_the_code_guard_catches_a_hallucinated_number_even_when_the_model_verifier_passes_it(
    reporter, fake_llm: FakeAnthropic
) -> None:
    submit(fake_llm, body=BODY_WITH_HALLUCINATION)
    verify_pass(fake_llm)

    run = run_task(queue(reporter))

    article = run.article
    assert HALLUCINATED_SENTENCE not in article.body
    assert HALLUCINATED_SENTENCE in article.draft_body
    assert article.verdict == Article.Verdict.REVISED
    flagged = article.issues.filter(origin="code", status="not_found")
    assert "1,500억원" in [issue.claim for issue in flagged]
    assert {issue.action for issue in flagged} == {"deleted"}
    # every other sentence is kept word for word
    kept = [s.text for s in split_sentences(article.body)]
    assert kept == [s.text for s in split_sentences(BODY)]


def test_a_revision_that_adds_a_number_is_refused_and_the_sentence_cut(
    reporter, fake_llm: FakeAnthropic
) -> None:
    submit(fake_llm, body=BODY_WITH_HALLUCINATION)
    last = len(split_sentences(BODY_WITH_HALLUCINATION))
    verify_flags(
        fake_llm,
        sentence=last,
        claim="1,500억원 계획",
        revision="시는 내년까지 지원 규모를 2,000억원으로 늘린다.",
    )

    article = run_task(queue(reporter)).article

    assert "2,000억원" not in article.body and "1,500억원" not in article.body
    assert article.issues.filter(action="deleted").exists()
    assert not article.issues.filter(action="trimmed").exists()


def test_a_safe_trim_from_the_verifier_is_kept(reporter, fake_llm: FakeAnthropic) -> None:
    body = BODY + " 시는 예산 480억 원을 편성해 청년 주거 문제를 근본적으로 해결했다."
    submit(fake_llm, body=body)
    last = len(split_sentences(body))
    trimmed = "시는 예산 480억 원을 편성해 청년 주거 문제를 해결했다."
    verify_flags(fake_llm, sentence=last, claim="근본적으로 해결", revision=trimmed)

    article = run_task(queue(reporter)).article

    assert article.body.endswith(trimmed)
    assert article.issues.get(origin="llm").action == "trimmed"


def test_out_of_range_sentence_numbers_from_the_verifier_are_dropped(
    reporter, fake_llm: FakeAnthropic
) -> None:
    submit(fake_llm)
    verify_flags(fake_llm, sentence=99, claim="없는 문장")

    article = run_task(queue(reporter)).article

    assert article.verdict == Article.Verdict.PASS
    assert not article.issues.filter(origin="llm").exists()


def test_an_article_far_off_the_requested_length_is_reasked_once(reporter, fake_llm: FakeAnthropic) -> None:
    submit(fake_llm, body="서울시가 청년 월세 지원을 2만 가구로 늘린다.")
    submit(fake_llm)
    verify_pass(fake_llm)

    run = run_task(queue(reporter, length=400))

    assert run.status == Run.Status.DONE
    feedback = fake_llm.requests[1].last_user_text()
    assert "분량" in feedback and "약 400자" in feedback
    assert run.article.body.startswith("서울시가 청년 월세 지원 대상을")


def test_a_model_that_never_submits_fails_the_run_with_every_call_recorded(
    reporter, fake_llm: FakeAnthropic
) -> None:
    for _ in range(4):
        submit(fake_llm, body="   ")
    submit(fake_llm, body="   ", forced=True)

    run = run_task(queue(reporter))

    assert run.status == Run.Status.FAILED
    assert "5회" in run.error
    assert not Article.objects.exists()
    assert LLMCall.objects.filter(run=run).count() == 5
    assert fake_llm.requests[-1].forced_tool == "submit_article"


def test_a_text_only_answer_is_nudged_back_to_the_tools(reporter, fake_llm: FakeAnthropic) -> None:
    fake_llm.reply(text("자료를 검토하겠습니다."), expect="loop")
    submit(fake_llm)
    verify_pass(fake_llm)

    assert run_task(queue(reporter)).status == Run.Status.DONE
    assert "submit_article" in fake_llm.requests[1].last_user_text()


def test_each_reporter_pays_with_their_own_key(reporter, other_reporter, fake_llm: FakeAnthropic) -> None:
    for _ in range(2):
        submit(fake_llm)
        verify_pass(fake_llm)

    run_task(queue(reporter))
    run_task(queue(other_reporter))

    keys = [r.api_key for r in fake_llm.requests]
    assert keys == ["sk-ant-test-kim-0001"] * 2 + ["sk-ant-test-lee-0002"] * 2


def test_overload_is_retried_by_celery_and_then_succeeds(reporter, fake_llm: FakeAnthropic) -> None:
    fake_llm.error(529, headers={"retry-after-ms": "1"})
    fake_llm.error(529, headers={"retry-after-ms": "1"})
    submit(fake_llm)
    verify_pass(fake_llm)

    run = run_task(queue(reporter))

    assert run.status == Run.Status.DONE
    assert run.events.filter(kind="retry", message="재시도 중 1/3").exists()
    assert LLMCall.objects.filter(run=run, status="error").count() == 1


def test_a_refused_key_fails_at_once_and_marks_the_key(reporter, fake_llm: FakeAnthropic) -> None:
    fake_llm.error(401, message="invalid x-api-key")

    run = run_task(queue(reporter))

    assert run.status == Run.Status.FAILED and "거부" in run.error
    assert len(fake_llm.requests) == 1
    reporter.refresh_from_db()
    assert reporter.anthropic_key_status == "refused"


def test_llm_failure_after_all_retries_fails_the_run_without_an_article(
    reporter, fake_llm: FakeAnthropic
) -> None:
    for _ in range(8):
        fake_llm.error(529, headers={"retry-after-ms": "1"})

    run = run_task(queue(reporter))

    assert run.status == Run.Status.FAILED
    assert "일시적으로" in run.error
    assert not Article.objects.exists()
    assert LLMCall.objects.filter(run=run).count() == 4  # one per attempt; the SDK retried each once
    assert len(fake_llm.requests) == 8


def test_a_finished_run_is_not_run_again_by_a_duplicate_message(reporter, fake_llm: FakeAnthropic) -> None:
    submit(fake_llm)
    verify_pass(fake_llm)
    run = run_task(queue(reporter))

    run_task(run)

    assert Article.objects.count() == 1 and len(fake_llm.requests) == 2


def test_every_issue_is_stored_with_its_origin(reporter, fake_llm: FakeAnthropic) -> None:
    submit(fake_llm, body=BODY_WITH_HALLUCINATION)
    verify_pass(fake_llm)

    article = run_task(queue(reporter)).article

    origins = set(VerificationIssue.objects.filter(article=article).values_list("origin", flat=True))
    assert origins == {"code", "llm"}


def test_a_reporters_own_article_is_verified_by_code_and_model_without_writing(
    reporter, fake_llm: FakeAnthropic
) -> None:
    from agents.services import verify_create

    verify_pass(fake_llm)
    run = verify_create(reporter=reporter, article=BODY_WITH_HALLUCINATION, sources=[PRESS_RELEASE])

    run = run_task(run)

    assert run.status == Run.Status.DONE
    assert [r.forced_tool for r in fake_llm.requests] == ["verify_article"]
    article = run.article
    assert article.draft_body == BODY_WITH_HALLUCINATION and HALLUCINATED_SENTENCE not in article.body
    assert article.verdict == Article.Verdict.REVISED


def test_an_article_off_length_on_the_last_turn_is_delivered_with_a_length_warning(
    reporter, fake_llm: FakeAnthropic
) -> None:
    for _ in range(4):
        fake_llm.reply(text("자료를 더 검토하겠습니다."), expect="loop")
    short = "서울시가 청년 월세 지원을 2만 가구로 늘린다."
    submit(fake_llm, body=short, forced=True)
    verify_pass(fake_llm)

    run = run_task(queue(reporter, length=1000))

    assert run.status == Run.Status.DONE, run.error
    assert run.article.body == short
    assert any("요청 분량" in warning for warning in run.article.warnings)
    assert fake_llm.requests[4].forced_tool == "submit_article"

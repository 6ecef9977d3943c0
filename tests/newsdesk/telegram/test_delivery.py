"""The verification line under a delivered article says what was checked and what was done."""

from __future__ import annotations

from datetime import datetime
from typing import Any

import pytest
import time_machine

from agents.facts.embargo import KST
from agents.models import Article
from newsdesk.telegram.delivery import article_text, verification_line
from tests.factories import ArticleFactory, VerificationIssueFactory

pytestmark = pytest.mark.django_db


def article(reporter: Any, *, revision: int = 1, verdict: str = "pass", issues: list[tuple] = ()) -> Article:
    saved = ArticleFactory(
        reporter=reporter,
        run__kind="edit" if revision > 1 else "draft",
        headline="제목",
        draft_body="본문.",
        body="본문.",
        verdict=verdict,
        length=3,
        revision=revision,
    )
    for kind, status, sentence, action in issues:
        VerificationIssueFactory(
            article=saved,
            claim="2만 가구",
            status=status,
            kind=kind,
            origin="code",
            sentence_index=sentence,
            action=action,
        )
    return saved


def test_it_names_the_kinds_and_counts_checked_and_how_many_were_confirmed(reporter) -> None:
    line = verification_line(
        article(
            reporter,
            issues=[
                ("date", "confirmed", 1, "kept"),
                ("number", "confirmed", 1, "kept"),
                ("number", "confirmed", 2, "kept"),
                ("quote", "confirmed", 3, "kept"),
            ],
        )
    )

    assert line == "사실 확인: 수치 2건·날짜 1건·인용 1건 대조 → 4건 확인"


def test_it_says_how_many_were_unsupported_and_which_sentences_were_cut_or_trimmed(reporter) -> None:
    line = verification_line(
        article(
            reporter,
            verdict="revised",
            issues=[
                ("number", "confirmed", 1, "kept"),
                ("number", "not_found", 2, "deleted"),
                ("date", "not_found", 2, "deleted"),
                ("other", "not_found", 3, "trimmed"),
                ("number", "not_found", 0, "trimmed"),
            ],
        )
    )

    assert line == (
        "사실 확인: 수치 3건·날짜 1건·기타 주장 1건 대조 → 1건 확인, 4건 근거 없음"
        " · 1문장 삭제 · 1문장 축약 · 제목 수정"
    )


def test_after_an_edit_it_says_what_the_new_version_was_checked_for_never_0_of_0(reporter) -> None:
    checked = verification_line(article(reporter, revision=2, issues=[("number", "confirmed", 1, "kept")]))
    nothing = verification_line(article(reporter, revision=2))

    assert checked == "수정본 사실 확인: 수치 1건 대조 → 1건 확인"
    assert nothing == "수정본 사실 확인: 자료와 대조할 수치·날짜·인용이 없었습니다"
    assert "0건" not in checked + nothing


def test_a_draft_the_model_could_not_check_says_only_the_code_guard_ran(reporter) -> None:
    line = verification_line(
        article(reporter, verdict="skipped", issues=[("number", "confirmed", 1, "kept")])
    )

    assert "코드 검사만" in line


def test_the_lint_line_counts_the_hits_and_shows_where_and_how_to_fix_them(reporter) -> None:
    from newsdesk.telegram.delivery import lint_line

    saved = article(reporter)
    saved.department = "테크부"
    saved.body = "리스크가 크다. 정부에 의해 정해졌다. 가장 최고다. 니즈가 많다."
    saved.save()

    line = lint_line(saved)

    assert line.startswith("표기 점검: 4건")
    assert "'리스크'(1문단 1번째 글자) → 위험" in line and " 외 1건" in line and "고쳐줘" in line


def test_a_clean_article_has_no_lint_line(reporter) -> None:
    from newsdesk.telegram.delivery import lint_line

    assert lint_line(article(reporter)) == ""


def test_the_article_reply_names_the_missing_key_facts_on_one_line(reporter) -> None:
    saved = article(reporter)
    saved.missing_facts = [{"fact": f"사실 {n}", "source_text": f"원문 {n}"} for n in range(1, 6)]
    saved.save()

    text = article_text(saved, saved.run)

    lines = [line for line in text.splitlines() if line.startswith("빠진 핵심 사실")]
    assert lines == ["빠진 핵심 사실 5건: 사실 1 / 사실 2 / 사실 3 외 2건"]


def test_an_article_that_carries_every_key_fact_has_no_missing_line(reporter) -> None:
    saved = article(reporter)
    assert "빠진 핵심 사실" not in article_text(saved, saved.run)


def test_the_article_reply_opens_with_the_embargo_while_it_holds_and_not_after(reporter) -> None:
    saved = article(reporter)
    saved.embargo = {"until": "2026-12-01T06:00:00+09:00", "text": "보도시점: 2026. 12. 1.(화) 06:00"}
    saved.save()

    with time_machine.travel(datetime(2026, 12, 1, 5, 0, tzinfo=KST), tick=False):
        before = article_text(saved, saved.run)
    with time_machine.travel(datetime(2026, 12, 1, 6, 0, tzinfo=KST), tick=False):
        after = article_text(saved, saved.run)

    assert before.splitlines()[:3] == ["보도 가능: 12월 1일(화) 06:00 이후", "", saved.headline]
    assert after.splitlines()[0] == saved.headline


def test_suspect_claims_kept_without_a_model_are_named_for_the_reporter_to_check(reporter) -> None:
    saved = article(reporter, issues=[("number", "confirmed", 1, "kept")])
    for claim in ("30.4%", "20.1%", "3월 12일", "1만 가구"):
        VerificationIssueFactory(
            article=saved, claim=claim, status="suspect", action="kept", sentence_index=2
        )

    line = verification_line(saved)

    assert "사실 확인: 수치 1건·기타 주장 4건 대조 → 1건 확인" in line
    assert "확인 필요 4건: '30.4%', '20.1%', '3월 12일' 외 1건" in line
    assert "근거 없음" not in line  # a marked claim is not counted as unsupported


def test_a_suspect_claim_cut_after_the_model_check_is_counted_as_flagged_not_marked(reporter) -> None:
    saved = article(reporter, verdict="revised", issues=[("number", "suspect", 1, "deleted")])

    line = verification_line(saved)

    assert "1건 근거 없음 · 1문장 삭제" in line and "확인 필요" not in line


def test_a_draft_whose_check_did_not_finish_still_names_its_suspect_claims(reporter) -> None:
    saved = article(reporter, verdict="skipped", issues=[("number", "suspect", 1, "kept")])

    line = verification_line(saved)

    assert "코드 검사만" in line and "확인 필요 1건: '2만 가구'" in line

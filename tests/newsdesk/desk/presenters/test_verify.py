"""The claims table a reporter can read: by sentence, problems first, reasons and evidence shown."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.test import Client

from agents.verification.verify import Issue
from newsdesk.desk.presenters.verify import ClaimGroup, claim_groups, claim_rows, ordered
from tests.agents.draft_script import submit, verify_flags
from tests.fakes.anthropic import FakeAnthropic
from tests.fixtures.press import BODY_WITH_HALLUCINATION, HALLUCINATED_SENTENCE
from tests.newsdesk.desk.html import one, parse, text

ISSUES = [
    Issue("2만 가구", "confirmed", "number", "…대상을 2만 가구로 늘린다…", "code", 1),
    Issue("올해", "confirmed", "date", "…올해 1만5000가구에서…", "code", 2),
    Issue("1만5000가구", "confirmed", "number", "…1만5000가구에서…", "code", 2),
    Issue(
        "1,500억원",
        "not_found",
        "number",
        "자료에서 찾을 수 없음",
        "code",
        4,
        "deleted",
        reason="자료에서 찾을 수 없음",
    ),
    Issue(
        "5000가구",
        "confirmed",
        "number",
        "2만 가구 − 1만5000가구 = 5000가구",
        "code",
        3,
        formula="2만 가구 − 1만5000가구 = 5000가구",
    ),
    Issue(
        "3만 가구",
        "not_found",
        "number",
        "자료에서 찾을 수 없음",
        "code",
        0,
        "trimmed",
        reason="자료에서 찾을 수 없음",
    ),
]
TEXTS = {0: "청년 월세 3만 가구", 1: "첫 문장.", 2: "둘째 문장.", 3: "셋째 문장.", 4: HALLUCINATED_SENTENCE}


def groups() -> list[ClaimGroup]:
    return claim_groups(claims=claim_rows(issues=ordered(ISSUES), anchor_prefix="a1"), texts=TEXTS)


def test_sentences_with_a_problem_come_first_then_the_rest_in_reading_order() -> None:
    assert [g.sentence for g in groups()] == [0, 4, 1, 2, 3]
    assert [g.label for g in groups()][:2] == ["제목", "4번 문장"]


def test_each_group_shows_its_sentence_and_what_was_done_to_it() -> None:
    cut = groups()[1]

    assert cut.text == HALLUCINATED_SENTENCE
    assert cut.action == "deleted" and cut.action_label == "삭제"
    assert [row.claim for row in cut.problems] == ["1,500억원"]
    assert cut.problems[0].reason == "자료에서 찾을 수 없음"


def test_a_confirmation_shows_the_source_span_or_the_formula_behind_it() -> None:
    by_sentence = {g.sentence: g for g in groups()}

    assert by_sentence[1].confirmed[0].source == "…대상을 2만 가구로 늘린다…"
    assert by_sentence[3].confirmed[0].formula == "2만 가구 − 1만5000가구 = 5000가구"


def test_confirmed_date_words_without_digits_are_folded_away() -> None:
    second = {g.sentence: g for g in groups()}[2]

    assert [row.claim for row in second.folded] == ["올해"]
    assert [row.claim for row in second.confirmed] == ["1만5000가구"]


@pytest.mark.django_db
def test_the_draft_page_groups_the_claims_by_sentence_with_the_cut_sentence_first(
    desk: Client, finish_draft: Callable[..., object]
) -> None:
    def script(fake: FakeAnthropic) -> None:
        submit(fake, body=BODY_WITH_HALLUCINATION)
        verify_flags(fake, sentence=9, claim="내년 1,500억원 계획")

    run = finish_draft(script)
    soup = parse(desk.get(f"/desk/drafts/{run.pk}/"))

    first = one(soup, "table.claims tbody.claim-group")
    assert "claim-group-problem" in first["class"]
    assert text(first, ".group-label") == "9번 문장" and text(first, ".group-head .action") == "삭제"
    assert HALLUCINATED_SENTENCE in text(first, ".group-text")
    reasons = [r.get_text() for r in first.select("tr.claim .claim-reason")]
    assert reasons and all(reasons)
    confirmed = soup.select("tbody.claim-group:not(.claim-group-problem) tr.claim-confirmed .claim-source")
    assert confirmed and all(c.get_text().strip() for c in confirmed)  # the span behind each one
    assert "날짜 표현" in text(soup, "tr.claim-folded details summary")
    assert "올해" in [li.contents[0].strip() for li in soup.select("tr.claim-folded ul.folded li")]


def test_a_suspect_claim_kept_is_a_problem_marked_for_the_reporter_and_not_counted_as_cut() -> None:
    kept = Issue("30.4%", "suspect", "number", "…", "code", 2, "kept", reason="확인 필요: …", rule="bind:x")
    cut = Issue("20.1%", "suspect", "number", "…", "code", 3, "deleted", reason="…삭제", rule="bind:x")
    rows = claim_rows(issues=ordered([*ISSUES[:3], kept, cut]), anchor_prefix="a1")

    by_claim = {row.claim: row for row in rows}
    assert by_claim["30.4%"].needs_check and not by_claim["30.4%"].flagged
    assert by_claim["30.4%"].status_label == "의심" and by_claim["30.4%"].rule == "bind:x"
    assert by_claim["20.1%"].flagged and not by_claim["20.1%"].needs_check
    assert by_claim["20.1%"].anchor == "#a1-s3" and by_claim["30.4%"].anchor == ""
    problems = {g.sentence: [r.claim for r in g.problems] for g in claim_groups(claims=rows, texts=TEXTS)}
    assert problems[2] == ["30.4%"] and problems[3] == ["20.1%"]
    assert [row.sentence for row in rows] == [2, 2, 2, 3, 1]  # sentences with a problem first
    assert rows[0].claim == "30.4%"  # and within one, its problems first

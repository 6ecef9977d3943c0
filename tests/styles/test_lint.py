"""House-style lint: rules are data; the curated seed catches the common faults and spares
sourced hearsay, quotations and compounds; fixes keep the particles right."""

from __future__ import annotations

import pytest

from styles.lint import Rule, apply_fixes, forbidden_rules, is_fix_request, lint_text, position_label
from styles.models import LintRule
from styles.selectors import lint_body


def rules_of(hits) -> list[tuple[str, str]]:
    return [(h.rule, h.text) for h in hits]


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("sentence", "rule", "text"),
    [
        ("대책은 정부에 의해 발표됐다.", "번역투", "에 의해"),
        ("이 문제는 해결되어져야 한다.", "이중 피동", "되어져"),
        ("효과가 클 것으로 보여진다.", "이중 피동", "보여진"),
        ("그는 사퇴한 것으로 알려졌다.", "출처 없는 전언", "것으로 알려졌"),
        ("이번 결과는 충격적이다.", "기자 주관어", "충격적"),
        ("올해 매출은 역대급이다.", "기자 주관어", "역대급"),
        ("업계 리스크가 커졌다.", "불필요한 외래어", "리스크"),
        ("양측은 회담을 가졌다.", "번역투", "회담을 가졌"),
        ("매출이 약 10%가량 늘었다.", "중복 표현", "약 10%가량"),
        ("가장 최고의 성과다.", "중복 표현", "가장 최고"),
    ],
)
# 테크부's guide forbids none of these, so only the curated list speaks.
def test_each_curated_fault_is_found_with_its_span(sentence: str, rule: str, text: str) -> None:
    hits = lint_body(body=sentence, department="테크부")

    assert (rule, text) in rules_of(hits)
    hit = next(h for h in hits if h.text == text)
    assert sentence[hit.start : hit.end] == text and hit.suggestion


@pytest.mark.django_db
@pytest.mark.parametrize(
    "sentence",
    [
        "경찰에 따르면 그는 사퇴한 것으로 알려졌다.",  # the source is named
        '그는 "충격적인 결과"라고 말했다.',  # the reporter quotes, not judges
        "헬스케어 시장이 커졌다.",  # "케어" inside a compound
        "서울시는 이를 통해 예산을 아꼈다.",  # one "통해" is not overuse
        "통계청은 3일 고용동향을 발표했다.",
    ],
)
def test_clean_or_sourced_sentences_are_not_flagged(sentence: str) -> None:
    assert lint_body(body=sentence, department="테크부") == []


@pytest.mark.django_db
def test_overuse_rules_flag_only_the_repeats() -> None:
    body = "교육을 통해 배운다. 상담을 통해 돕는다. 앱을 통해 신청한다."

    hits = [h for h in lint_body(body=body, department="테크부") if h.rule == "번역투"]

    assert [h.text for h in hits] == ["을 통해", "을 통해"] and hits[0].start > body.index("상담")


@pytest.mark.django_db
def test_the_department_guide_forbidden_expressions_are_rules_too() -> None:
    hits = lint_body(body="지수가 폭락했다.", department="경제부")

    assert rules_of(hits) == [("경제부 스타일 금지 표현", "폭락")]
    assert lint_body(body="지수가 폭락했다.", department="문화부") == []


def test_forbidden_entries_lose_their_tilde_and_keep_their_condition_as_advice() -> None:
    rules = forbidden_rules(
        ["~것으로 알려졌다", "업계 최초(확인되지 않은 경우)", "~"], guide_label="산업부 스타일"
    )

    assert [r.pattern for r in rules] == ["것으로\\ 알려졌다", "업계\\ 최초"]
    assert "확인되지 않은 경우" in rules[1].suggestion


def test_fixes_swap_words_and_turn_the_following_particle() -> None:
    rule = Rule("불필요한 외래어", "리스크", "위험으로", replacement="위험")
    body = "리스크가 크다. 리스크를 줄인다. 리스크는 남는다."

    assert apply_fixes(body=body, hits=lint_text(body=body, rules=[rule])) == (
        "위험이 크다. 위험을 줄인다. 위험은 남는다."
    )


def test_hits_without_a_replacement_are_left_for_rewording() -> None:
    rules = [Rule("번역투", "에 의해", "능동문으로"), Rule("중복", r"가장 (최고)", "최고", replacement=r"\1")]
    body = "정부에 의해 정해진 가장 최고의 안."

    assert apply_fixes(body=body, hits=lint_text(body=body, rules=rules)) == "정부에 의해 정해진 최고의 안."


def test_overlapping_hits_keep_the_first_rule() -> None:
    rules = [Rule("가", "역대급", "a"), Rule("나", "역대", "b")]

    assert rules_of(lint_text(body="역대급 실적", rules=rules)) == [("가", "역대급")]


@pytest.mark.django_db
def test_an_editor_rule_applies_and_a_muted_one_does_not() -> None:
    LintRule.objects.create(
        name="사내 표기", pattern="코로나19 바이러스", suggestion="코로나19", replacement="코로나19"
    )
    LintRule.objects.filter(name="기자 주관어").update(active=False)

    hits = lint_body(body="코로나19 바이러스 확산은 충격적이다.", department="테크부")

    assert rules_of(hits) == [("사내 표기", "코로나19 바이러스")]


@pytest.mark.django_db
def test_a_broken_stored_pattern_is_skipped_not_fatal() -> None:
    LintRule.objects.create(name="깨진 규칙", pattern="(", suggestion="x")

    assert rules_of(lint_body(body="충격적이다.", department="테크부")) == [("기자 주관어", "충격적")]


@pytest.mark.parametrize("text", ["고쳐줘", "고쳐 줘", "표기 고쳐줘", "다 고쳐주세요!", "지적된 부분 고쳐줘"])
def test_a_bare_fix_request_is_recognised(text: str) -> None:
    assert is_fix_request(text)


@pytest.mark.parametrize("text", ["제목 고쳐줘", "두 번째 문단 고쳐줘", "300자로 줄여줘"])
def test_a_specific_edit_is_not_a_fix_request(text: str) -> None:
    assert not is_fix_request(text)


def test_positions_count_paragraphs_and_characters_from_one() -> None:
    body = "첫 문단.\n\n둘째 문단의 리스크."

    assert position_label(body, body.index("리스크")) == "2문단 8번째 글자"

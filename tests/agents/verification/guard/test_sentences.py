"""Sentence splitting: no character is ever lost, quotes and abbreviations never split."""

from __future__ import annotations

import pytest

from agents.verification.guard import Sentence, join_sentences, normalize_body, split_sentences
from tests.agents.verification.guard.helpers import texts
from tests.agents.verification.guard.world import CASES, TRICKY_BODIES


def test_it_splits_after_a_period_followed_by_a_space() -> None:
    assert texts("서울시는 5일 밝혔다. 지원 대상은 청년이다.") == [
        "서울시는 5일 밝혔다.",
        "지원 대상은 청년이다.",
    ]


def test_it_splits_after_question_and_exclamation_marks_and_the_ellipsis() -> None:
    body = "정말 그럴까? 그렇다! 하지만… 아직 이르다."
    assert texts(body) == ["정말 그럴까?", "그렇다!", "하지만…", "아직 이르다."]


def test_it_never_splits_inside_curly_double_quotes() -> None:
    body = "그는 “규제를 풀겠다. 기업이 살아야 한다”고 말했다. 다음 문장이다."
    assert texts(body) == ["그는 “규제를 풀겠다. 기업이 살아야 한다”고 말했다.", "다음 문장이다."]


def test_it_never_splits_inside_straight_double_quotes() -> None:
    body = '장관은 "수출이 늘었다. 내년에도 늘 것이다"라고 했다. 끝이다.'
    assert texts(body) == ['장관은 "수출이 늘었다. 내년에도 늘 것이다"라고 했다.', "끝이다."]


@pytest.mark.parametrize(("opener", "closer"), [("‘", "’"), ("「", "」"), ("『", "』"), ("'", "'")])
def test_it_never_splits_inside_single_quotes_or_corner_brackets(opener: str, closer: str) -> None:
    body = f"그는 {opener}첫째다. 둘째다{closer}라고 적었다. 끝이다."
    assert texts(body) == [f"그는 {opener}첫째다. 둘째다{closer}라고 적었다.", "끝이다."]


def test_it_closes_a_sentence_after_the_closing_quote_when_it_ends_with_da_dot_quote() -> None:
    assert texts("“규제를 풀겠다.” 김 장관은 말했다.") == ["“규제를 풀겠다.”", "김 장관은 말했다."]
    assert texts('"규제를 풀겠다." 김 장관은 말했다.') == ['"규제를 풀겠다."', "김 장관은 말했다."]


def test_it_never_splits_inside_decimal_numbers() -> None:
    assert texts("금리는 3.5% 올랐다. 1.2조원이 풀린다.") == ["금리는 3.5% 올랐다.", "1.2조원이 풀린다."]


@pytest.mark.parametrize("abbreviation", ["U.S.", "U.N.", "No.", "Dr.", "Mr.", "vs.", "J.", "e.g."])
def test_it_never_splits_after_abbreviations_and_initials(abbreviation: str) -> None:
    body = f"이번 회의에는 {abbreviation} 대표단이 참석했다. 다음 문장이다."
    assert texts(body) == [f"이번 회의에는 {abbreviation} 대표단이 참석했다.", "다음 문장이다."]


def test_it_never_splits_after_list_numbers_or_dotted_dates() -> None:
    assert texts("1. 개요") == ["1. 개요"]
    assert texts("일정은 2026. 3. 5. 오후다. 끝.") == ["일정은 2026. 3. 5. 오후다.", "끝."]


def test_it_ignores_an_unmatched_quote_mark_instead_of_gluing_the_paragraph() -> None:
    body = '그러나 "따옴표가 닫히지 않았다. 다음 문장은 나뉘어야 한다.'
    assert texts(body) == ['그러나 "따옴표가 닫히지 않았다.', "다음 문장은 나뉘어야 한다."]


def test_it_does_not_take_an_apostrophe_for_a_quote() -> None:
    assert texts("Moody's 등급이 올랐다. 끝이다.") == ["Moody's 등급이 올랐다.", "끝이다."]


def test_it_numbers_sentences_from_one_and_paragraphs_from_zero() -> None:
    sentences = split_sentences("첫 문장. 둘째 문장.\n\n셋째 문장.\n넷째 문장.")
    assert sentences == [
        Sentence(1, "첫 문장.", 0),
        Sentence(2, "둘째 문장.", 0),
        Sentence(3, "셋째 문장.", 1),
        Sentence(4, "넷째 문장.", 2),
    ]


def test_it_treats_every_non_empty_line_as_a_paragraph() -> None:
    assert [s.paragraph for s in split_sentences("가.\n나.\n\n\n다.")] == [0, 1, 2]


def test_it_normalizes_lines_spaces_and_blank_lines() -> None:
    body = "  첫  문단\t입니다.  \r\n\r\n\r\n 둘째\u3000문단 \n\n"
    assert normalize_body(body) == "첫 문단 입니다.\n\n둘째 문단"


def test_it_normalizes_an_empty_body_to_an_empty_string() -> None:
    assert normalize_body(" \n\t\n") == ""
    assert split_sentences(" \n\t\n") == []


@pytest.mark.parametrize(
    "body",
    [c.release for c in CASES] + [c.article for c in CASES] + list(TRICKY_BODIES),
    ids=[f"release-{c.name}" for c in CASES]
    + [f"article-{c.name}" for c in CASES]
    + [f"tricky-{i}" for i in range(len(TRICKY_BODIES))],
)
def test_it_rebuilds_the_normalized_body_from_its_sentences(body: str) -> None:
    assert join_sentences(split_sentences(body)) == normalize_body(body)


def test_it_rebuilds_a_body_without_the_sentences_the_caller_deleted() -> None:
    sentences = split_sentences("가다. 나다. 다다.\n\n라다.")
    kept = [s for s in sentences if s.index not in (2, 4)]
    assert join_sentences(kept) == "가다. 다다."

"""The fetch step's department filter drops only what plainly belongs to a far-off desk."""

from __future__ import annotations

import pytest

from agents.drafting.relevance import NEWS_DESKS, belongs_elsewhere, desk_words


@pytest.mark.parametrize(
    ("text", "department"),
    [
        ("프로야구 선수 FA 이적 시장 개막, 야구 대표팀 출신", "경제부"),
        ("아이돌 그룹 컴백 드라마 OST 흥행", "사회부"),
        ("국회 본회의 법안 통과, 여당 야당 정당 대치", "스포츠부"),
    ],
)
def test_a_result_of_a_far_off_desk_naming_none_of_the_own_desks_words_is_dropped(
    text: str, department: str
) -> None:
    assert belongs_elsewhere(text=text, department=department)


@pytest.mark.parametrize(
    ("text", "department"),
    [
        ("삼성전자 반도체 투자 확대, SK하이닉스 HBM", "경제부"),  # a neighbouring desk's story
        ("손흥민 결승골", "사회부"),  # names nothing either way
        ("야구장 안전 점검, 경찰 수사 착수", "사회부"),  # names its own desk's words too
        ("프로야구 선수 FA 이적", "스포츠부"),  # its own desk
        ("프로야구 선수 FA 이적", "없는부서"),  # an unknown desk filters nothing
    ],
)
def test_results_near_the_desk_or_naming_nothing_are_kept(text: str, department: str) -> None:
    assert not belongs_elsewhere(text=text, department=department)


def test_no_word_counts_for_two_desks() -> None:
    words = list(desk_words().values())
    assert all(not (a & b) for i, a in enumerate(words) for b in words[i + 1 :])
    assert set(desk_words()) >= NEWS_DESKS

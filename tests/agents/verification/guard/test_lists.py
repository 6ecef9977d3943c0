"""Lists a release writes one item a line, counted per section and bullet level."""

from __future__ import annotations

import pytest

from agents.verification.guard import article_findings
from agents.verification.guard.lists import bullet_runs, sentence_list_length

EXPLANATION = """\
<언론보도내용>
□ 신문은 조사 방식을 바꿨다고 보도
□ 통계청장이 조사 방식을 강조했다고 보도
<설명내용>
□ 통계청은 2019년 가계동향조사의 조사방식을 개편하였음
○ 기존방식 조사와 통합조사 결과는 직접 비교할 수 없음
따라서 보도 내용은 적절치 않음
□ 통계청은 부가조사 조사방식을 변경한 바 없음
○ 또한 유의사항도 게시중임
○ 과거 자료와 비교할 수 없음
"""


@pytest.mark.parametrize(
    ("text", "counts"),
    [
        (EXPLANATION, [2, 2]),  # each section's □ items; the ○ under them are parts of an item
        ("□ 하나뿐인 항목\n○ 세부 1\n○ 세부 2\n", []),  # one item: no list
        ("머리말\n▪ 첫째 과제\n▪ 둘째 과제\n▪ 셋째 과제\n", [3]),
        ("□ 항목\n" * 12, []),  # a long run is a table or an index
    ],
)
def test_it_counts_the_items_of_one_level_of_one_section(text: str, counts: list[int]) -> None:
    assert [run.count for run in bullet_runs(text)] == counts


def status(article: str, figure: str) -> str:
    return next(
        f.status for f in article_findings(body=article, sources=[EXPLANATION]) if f.fact.text == figure
    )


@pytest.mark.parametrize(
    ("article", "figure", "expected"),
    [
        ("통계청은 보도 가운데 두 가지 내용에 대해 설명했다.", "두 가지", "confirmed"),
        ("통계청은 보도 가운데 세 가지 내용에 대해 설명했다.", "세 가지", "not_found"),
        # a count of named things is not a count of points
        ("통계청은 두 조사를 설명했다.", "두 조사", "not_found"),
    ],
)
def test_an_article_count_of_points_is_checked_against_the_items(
    article: str, figure: str, expected: str
) -> None:
    assert status(article, figure) == expected


@pytest.mark.parametrize(
    ("sentence", "length"),
    [
        ("△일자리 △복지 △안전을 기본 방향으로 삼는다.", 3),
        ("요양병원과 정신병원(폐쇄병동), 요양시설, 종교시설을 점검한다.", 4),
        ("서울과 부산을 잇는다.", 0),  # two items: too common a pair to count
    ],
)
def test_it_reads_the_length_of_a_list_written_in_one_sentence(sentence: str, length: int) -> None:
    assert sentence_list_length(sentence) == length

"""Tables read as tables: units of header labels, label(value) cells, header years, ratios."""

from __future__ import annotations

import pytest

from tests.agents.verification.guard.helpers import unsupported

BIRTHS = "〈표〉 연도별 출생아 수 (명)\n구분 2022 2023\n서울 45000 39000\n부산 15000 13000"
EXPORTS = "수출입 실적 (억 달러)\n구분 2022 2023\n수출 6836 6322"
RAIN = "계절별 강수량(mm): 봄(250.1), 여름(600.2), 가을(300.3), 겨울(28.1)"


@pytest.mark.parametrize(
    ("article", "source"),
    [
        ("서울 출생아는 2023년 3만9000명이다.", BIRTHS),
        ("수출은 2023년 6322억 달러였다.", EXPORTS),
        ("겨울 강수량은 28.1mm였다.", RAIN),
        ("평균 경쟁률은 5.22대 1이었다.", "평균 경쟁률은 5.22:1이었다."),
    ],
)
def test_it_reads_a_cell_with_the_unit_its_table_gives_it(article: str, source: str) -> None:
    assert unsupported(article, source) == []


def test_it_still_flags_a_value_no_cell_holds() -> None:
    assert unsupported("서울 출생아는 2023년 3만8000명이다.", BIRTHS) == ["3만8000명"]
    assert unsupported("평균 경쟁률은 5.32대 1이었다.", "평균 경쟁률은 5.22:1이었다.") == ["5.32대 1"]

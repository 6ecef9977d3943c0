"""What a release's lines, clauses and brackets say a figure is about, and which rounds are ordinals."""

from __future__ import annotations

from datetime import date

import pytest

from agents.guard import check_article


def statuses(article: str, source: str) -> dict[str, str]:
    found = check_article(body=article, sources=[source], reference=date(2024, 4, 20))
    return {f.fact.text: f.status for f in found if f.fact.kind == "number"}


TRADE = (
    "- 수출은 3월 기준 52억 달러로 전년동월(48억 달러) 대비 8.3% 증가하였고,\n"
    "1~3월 누계 기준 150억 달러로 전년동기(141억 달러) 대비 6.4% 증가하였다.\n"
    "- 수입은 3월 기준 45억 달러로 전년동월(47억 달러) 대비 4.3% 감소하였다."
)


@pytest.mark.parametrize(
    ("article", "figure", "status"),
    [
        ("1~3월 누계로 보면 수입은 줄었지만, 수출은 150억달러로 6.4% 늘었다.", "150억달러", "confirmed"),
        ("3월 수출은 52억달러로 8.3% 늘었다.", "52억달러", "confirmed"),
        ("3월 수입은 52억달러로 늘었다.", "52억달러", "contradicted"),
    ],
)
def test_a_bullet_continued_on_the_next_line_is_still_about_its_subject(
    article: str, figure: str, status: str
) -> None:
    assert statuses(article, TRADE)[figure] == status


WASTE = "○ 봉투 속 폐기물은 종이류가 가장 많았고(31.2%), 다음으로 비닐류(24.6%), 캔류(22.3%) 순이었다."


@pytest.mark.parametrize(
    ("article", "figure", "status"),
    [
        (
            "폐기물은 종이류(31.2%)가 가장 많았고 비닐류(24.6%), 캔류(22.3%)가 뒤를 이었다.",
            "22.3%",
            "confirmed",
        ),
        (
            "폐기물은 종이류(31.2%)가 가장 많았고 비닐류(22.3%), 캔류(24.6%)가 뒤를 이었다.",
            "24.6%",
            "contradicted",
        ),
    ],
)
def test_a_bracket_after_a_label_is_about_that_label_alone(article: str, figure: str, status: str) -> None:
    assert statuses(article, WASTE)[figure] == status

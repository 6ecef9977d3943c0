"""What a release's lines, clauses and brackets say a figure is about; a round is no ordinal."""

from __future__ import annotations

from datetime import date

import pytest

from agents.verification.guard import article_findings


def statuses(article: str, source: str) -> dict[str, str]:
    found = article_findings(body=article, sources=[source], reference=date(2024, 4, 20))
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
        ("3월 수입은 52억달러로 늘었다.", "52억달러", "suspect"),
    ],
)
def test_a_bullet_continued_on_the_next_line_is_still_about_its_subject(
    article: str, figure: str, status: str
) -> None:
    assert statuses(article, TRADE)[figure] == status


PAYERS = (
    "□ 근로소득 연말정산 신고 인원은 1,910만 명이다.\n"
    "□ 근로소득 연말정산에 의료비 공제를 신고한 근로자는 전년(420.5만 명) 대비 3.1% 늘어난 433.6만 명이다."
)


@pytest.mark.parametrize(
    ("article", "status"),
    [
        # 연말정산 is what the stated figure is about; that another count also says 근로자 decides nothing
        ("지난해 근로소득 연말정산을 신고한 근로자가 1910만명이었다.", "confirmed"),
        ("의료비 공제를 신고한 근로자는 1910만명이었다.", "suspect"),
    ],
)
def test_a_value_stays_with_the_figure_whose_own_words_the_article_uses(article: str, status: str) -> None:
    assert statuses(article, PAYERS)["1910만명"] == status


ROUNDS = "□ 통계청은 이번에 3차로 공개하는 통계 120종을 누리집에 올린다. 1차 사업은 지난해 끝났다."


@pytest.mark.parametrize(
    ("article", "figure", "status"),
    [
        ("통계청이 통계 120종을 공개했다. 이번이 네 번째 공개다.", "네 번째", "not_found"),
        # "1차 사업" names a phase, and "3차로 공개" is the third 공개, of nothing else
        ("통계청이 통계 120종을 공개했다. 이번이 첫 번째 사업이다.", "첫 번째", "not_found"),
        ("통계청은 세 번째 사업을 시작했다.", "세 번째", "not_found"),
    ],
)
def test_a_round_is_no_ordinal_of_what_the_article_counts(article: str, figure: str, status: str) -> None:
    assert statuses(article, ROUNDS)[figure] == status


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
            "suspect",
        ),
    ],
)
def test_a_bracket_after_a_label_is_about_that_label_alone(article: str, figure: str, status: str) -> None:
    assert statuses(article, WASTE)[figure] == status

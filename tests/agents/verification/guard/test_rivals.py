"""A value the source states stays confirmed unless the article itself tells the rival apart:
by a word only the rival is about, by the figure's role, or by a size band."""

from __future__ import annotations

from datetime import date

import pytest

from agents.verification.guard import article_findings


def statuses(article: str, *sources: str) -> list[tuple[str, str]]:
    return [
        (f.fact.text, f.status)
        for f in article_findings(body=article, sources=sources)
        if f.fact.kind == "number"
    ]


PAY = (
    "○ 평균 총급여액은 전년(3,900만 원) 대비 3.1%(121만 원) 늘어난 4,021만 원입니다.\n\n"
    "□ 총급여액이 1억 원을 초과하는 고액 연봉자는 120만 명으로 나타났습니다."
)
RAIN = (
    "올해 봄철, 전국 평균기온 평년보다 1 ℃ 높았고, 강수량은 85.3 mm 더 내려\n"
    "- 평균기온 13.2 ℃ 역대 2위, 강수량 318.4 mm 6위"
)
DEALS = (
    "(거래량) 5월 매매거래는 48,120건으로, 전월 대비 6.2% 증가하였다.\n"
    "- 5월 전월세 거래는 190,305건으로, 전월 대비 3.4% 증가하였다."
)


def statuses_on(article: str, source: str) -> set[tuple[str, str]]:
    found = article_findings(body=article, sources=[source], reference=date(2024, 12, 19))
    return {(f.fact.text, f.status) for f in found if f.fact.kind == "number"}


@pytest.mark.parametrize(
    ("source", "article"),
    [
        # what sets the other figures apart (평균) is nowhere in the article
        (PAY, "지난해 연말정산 기준 총급여액이 1억원을 초과하는 고액 연봉자는 120만명으로 집계됐다."),
        # two figures about one thing in one role are told apart by value alone
        (RAIN, "봄철 전국 강수량은 318.4㎜로 평년보다 85.3㎜ 많았다."),
        # the base of a comparison written as one word ("전월보다") says nothing about the figure
        (DEALS, "5월 주택 매매거래는 4만8120건으로 전월보다 6.2% 늘었다."),
    ],
)
def test_it_keeps_a_stated_value_unless_the_article_names_what_sets_another_figure_apart(
    source: str, article: str
) -> None:
    assert {status for _, status in statuses_on(article, source)} == {"confirmed"}


def test_it_contradicts_a_stated_value_given_to_what_sets_another_figure_apart() -> None:
    assert statuses_on("지난해 평균 총급여액은 1억원으로 집계됐다.", PAY) == {("1억원", "suspect")}


BANDS = (
    "□(총괄) 3월 말 현재, 종사자 1인 이상 사업체의 종사자는 18,240천명으로 전년동월 대비 150천명 증가\n"
    "ㅇ (규모별) 상용 300인 미만은 15,120천명으로 120천명 증가, 300인 이상은 3,120천명으로 30천명 증가"
)


def test_it_confirms_a_figure_in_the_size_band_the_source_states_it_in() -> None:
    article = (
        "규모별로는 상용 300인 미만 사업체 종사자가 1512만명으로 12만명, 300인 이상은 312만명으로"
        " 3만명 증가했다."
    )
    assert {status for _, status in statuses(article, BANDS)} == {"confirmed"}


@pytest.mark.parametrize(
    ("article", "flagged"),
    [
        ("상용 300인 이상 사업체 종사자가 1512만명이다.", "1512만명"),
        ("규모별로는 상용 300인 미만 사업체 종사자가 312만명으로 12만명 증가했다.", "312만명"),
    ],
)
def test_it_contradicts_a_figure_moved_to_another_size_band(article: str, flagged: str) -> None:
    assert (flagged, "suspect") in statuses(article, BANDS)

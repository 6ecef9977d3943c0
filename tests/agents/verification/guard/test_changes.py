"""A change "A에서 B로" read against the order in which the source states A and B."""

from __future__ import annotations

import pytest

from agents.verification.guard import article_findings


def flagged(article: str, source: str) -> list[str]:
    found = article_findings(body=article, sources=[source])
    return [f.fact.text for f in found if f.fact.kind == "number" and f.status != "confirmed"]


LISTED = "치료제·백신 개발 지원 예산 : (’20년 3회 추경) 940억 원, (’21년안) 1,314억 원"
WAS = "도입 초기 28.4%였던 참여율은 2024년 기준 66.3%까지 증가했다."
BRACKETED = "정부는 발전 설비용량(현재 0.35GW)을 25GW까지 확대한다."
BASE_AFTER = "예산은 1,314억 원으로 전년(940억 원)보다 늘었다."
NOW_AFTER = "설비용량을 25GW까지 확대한다(현재 0.35GW)."


@pytest.mark.parametrize(
    ("source", "article"),
    [
        (LISTED, "개발 지원 예산은 940억원에서 1314억원으로 늘었다."),
        (WAS, "참여율은 도입 초기 28.4%에서 66.3%로 높아졌다."),
        (BRACKETED, "설비용량을 0.35GW에서 25GW로 늘린다."),
        (BASE_AFTER, "예산은 940억원에서 1314억원으로 늘었다."),
        (NOW_AFTER, "설비용량을 0.35GW에서 25GW로 늘린다."),
    ],
)
def test_it_confirms_a_change_in_the_direction_the_source_states(source: str, article: str) -> None:
    assert flagged(article, source) == []


@pytest.mark.parametrize(
    ("source", "article", "end"),
    [
        (LISTED, "개발 지원 예산은 1314억원에서 940억원으로 줄었다.", "940억원"),
        (WAS, "참여율은 도입 초기 66.3%에서 28.4%로 낮아졌다.", "28.4%"),
        (BRACKETED, "설비용량을 25GW에서 0.35GW로 줄인다.", "0.35GW"),
    ],
)
def test_it_contradicts_the_end_of_a_change_the_source_states_the_other_way_round(
    source: str, article: str, end: str
) -> None:
    assert end in flagged(article, source)


def test_it_names_both_source_figures_in_the_reason() -> None:
    found = article_findings(body="참여율은 66.3%에서 28.4%로 낮아졌다.", sources=[WAS])
    reason = next(f.reason for f in found if f.fact.text == "28.4%")
    assert "28.4%" in reason and "66.3%" in reason

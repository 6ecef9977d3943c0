"""Contexts: in a "각각" list the i-th figure is about the i-th item, written either way round."""

from __future__ import annotations

import pytest

from agents.guard import check_article

EACH = "1인가구와 1세대 가구는 2050년에 각각 39.6%, 25.0%로 늘어날 전망이다."
FUNDS = "도는 청년 창업과 농촌 관광에 각각 30억원, 20억원을 투입한다."
SEPARATE = "중학생은 0.5%, 고등학생은 2.0% 늘었다."
BEFORE = "서울과 부산의 참여율은 62.1%, 48.3%로 각각 집계됐다."


def statuses(article: str, source: str) -> dict[str, str]:
    return {
        f.fact.text: f.status
        for f in check_article(body=article, sources=[source])
        if f.fact.kind == "number"
    }


@pytest.mark.parametrize(
    ("source", "article"),
    [
        (EACH, "2050년 1인가구는 39.6%, 1세대 가구는 25.0%에 이를 전망이다."),
        (EACH, "1인가구와 1세대 가구 비중은 2050년에 각각 39.6%, 25.0%가 된다."),
        (FUNDS, "청년 창업에 30억원, 농촌 관광에 20억원이 투입된다."),
        (FUNDS, "도는 청년 창업과 농촌 관광에 각각 30억 원과 20억 원을 쓴다."),
        (SEPARATE, "중학생과 고등학생은 각각 0.5%, 2.0% 늘었다."),
        (BEFORE, "참여율은 서울과 부산이 각각 62.1%, 48.3%였다."),
    ],
)
def test_it_confirms_each_figure_of_a_distributive_list_in_its_place(source: str, article: str) -> None:
    assert set(statuses(article, source).values()) == {"confirmed"}


@pytest.mark.parametrize(
    ("source", "article"),
    [
        (EACH, "1인가구와 1세대 가구는 2050년에 각각 25.0%, 39.6%에 이를 전망이다."),
        (EACH, "2050년 1인가구는 25.0%, 1세대 가구는 39.6%에 이를 전망이다."),
        (FUNDS, "도는 청년 창업과 농촌 관광에 각각 20억원, 30억원을 투입한다."),
        (SEPARATE, "중학생과 고등학생은 각각 2.0%, 0.5% 늘었다."),
        (BEFORE, "참여율은 서울과 부산이 각각 48.3%, 62.1%였다."),
    ],
)
def test_it_contradicts_figures_swapped_within_a_distributive_list(source: str, article: str) -> None:
    assert "contradicted" in statuses(article, source).values()

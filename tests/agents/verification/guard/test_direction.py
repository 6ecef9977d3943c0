"""guard.direction: the change word said of a figure, checked against the source's."""

from __future__ import annotations

import pytest

from agents.verification.guard import article_findings

TRADE = "수출은 전년보다 3.2% 감소했고 수입은 5.1% 늘었다. 비가 평년보다 85.3mm 더 내려 많았다."


def _rules(article: str) -> dict[str, str]:
    return {f.fact.text: f.rule for f in article_findings(body=article, sources=[TRADE])}


@pytest.mark.parametrize(
    ("article", "figure"),
    [("수출은 3.2% 증가했다.", "3.2%"), ("수입은 5.1% 줄었다.", "5.1%"), ("수입은 5.1% 감소했다.", "5.1%")],
)
def test_it_flags_a_change_said_the_other_way_round(article: str, figure: str) -> None:
    assert _rules(article)[figure] == "change:direction"


@pytest.mark.parametrize(
    "article", ["수출은 3.2% 줄었다.", "수입은 5.1% 증가했다.", "수입은 5.1%였다.", "강수량은 85.3mm 많았다."]
)
def test_it_confirms_a_change_said_the_same_way_or_not_at_all(article: str) -> None:
    assert set(_rules(article).values()) == {"confirm:match"}


BIRTHS = (
    "출생아 수는 2만4123명으로 전년 같은 달보다 1943명(-7.5%) 감소했다. "
    "쌀 생산량은 370만2000톤으로 지난해 376만4000톤보다 1.6% 감소했다. 전세가격은 0.04% 올랐다."
)


def _births(article: str) -> dict[str, str]:
    return {f.fact.text: f.rule for f in article_findings(body=article, sources=[BIRTHS])}


@pytest.mark.parametrize(
    ("article", "figure"),
    [
        # The change word follows the rate bracketed after the figure.
        ("출생아 수는 2만4123명으로 전년 같은 달보다 1943명(-7.5%) 늘었다.", "1943명"),
        # The sentence's own figures give the rate: the word is still flipped.
        ("쌀 생산량은 370만2000톤으로 지난해 376만4000톤보다 1.6% 증가했다.", "1.6%"),
        # 내리다 after a rate.
        ("전세가격은 0.04% 내렸다.", "0.04%"),
    ],
)
def test_it_flags_a_flip_past_a_bracket_a_computed_rate_or_in_내리다(article: str, figure: str) -> None:
    assert _births(article)[figure] == "change:direction"


def test_it_confirms_rain_that_fell_as_more_rain() -> None:
    assert _rules("비가 평년보다 85.3mm 더 내렸다.")["85.3mm"] == "confirm:match"

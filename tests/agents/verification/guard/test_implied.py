"""Figures an article implies from its own years, lists and figures: confirmed when they add up,
flagged when they do not."""

from __future__ import annotations

from datetime import date

import pytest

from agents.verification.guard import article_findings

REFERENCE = date(2023, 9, 20)


def status(article: str, source: str, figure: str) -> str:
    findings = article_findings(body=article, sources=[source], reference=REFERENCE)
    return next(f.status for f in findings if f.fact.text == figure)


MARRIAGE = "평균 초혼연령은 2000년에 남자 29.3세에서 2022년에 남자 33.7세로 상승하였다."
DEATHS = "자연증가는 -12만 명으로 2020년 첫 자연감소 후 지속적으로 자연감소하였습니다."
CULTURE = "2014년에 처음 시작한 제도의 참여율은 도입 초기 28.4%에서 2024년 기준 66.3%까지 증가했다."
RESOURCES = "자연·유휴시설·식문화·경관 등 농촌자원을 활용한 경제활동도 인증제에 포함한다."
PLANS = "5·6 대책에서 규제를 완화했고 이후 8·4 대책에서 대상을 민간임대까지 확대했다."
LOAN = (
    "첨단전략산업기금이 해상풍력 발전사업에 7500억 원을 대출한다. "
    + "설비용량은 390MW다. " * 30
    + "발전사업의 3조 4000억 원 전체 사업비 중 일부다."
)
SCHOOLS = (
    "초등학교는 2,495,005명으로 감소한 반면, 중학교는 1,332,850명으로 6,019명(0.5%↑) 증가, "
    "고등학교는 1,304,325명으로 26,056명(2.0%↑) 증가했다. 초등학생과 중학생은 각각 0.7%로 동일하다."
)


@pytest.mark.parametrize(
    ("source", "article", "figure"),
    [
        # a span of years between two years the article states (지난해 = 2022 on the reference date)
        (MARRIAGE, "초혼연령은 2000년 29.3세에서 지난해 33.7세로 올랐다. 22년 새 4.4세 높아졌다.", "22년"),
        (CULTURE, "참여율은 2014년 28.4%에서 2024년 66.3%로 높아졌다. 10년 남짓한 사이 오른 것이다.", "10년"),
        # "째" counts the first year too
        (
            DEATHS,
            "'2024년 인구동향'에 따르면 2020년 첫 자연감소 이후 다섯 해째 자연감소가 이어졌다.",
            "다섯 해",
        ),
        (DEATHS, "'2024년 인구동향'에 따르면 2020년 첫 자연감소 이후 5년째 자연감소가 이어졌다.", "5년"),
        # a count after 이들 is the length of the list named just before it
        (
            RESOURCES,
            "자연·유휴시설·식문화·경관 등 농촌자원도 포함된다. 이들 네 가지 자원을 활용한다.",
            "네 가지",
        ),
        # events named one by one and counted
        (PLANS, "이번 개정은 5·6 대책과 8·4 대책, 두 차례 발표에 담긴 규제 완화를 잇는다.", "두 차례"),
        # a share of two figures sentences apart
        (
            LOAN,
            "첨단전략산업기금이 7500억원을 대출한다. 설비용량은 390MW다. "
            "전체 사업비는 3조4000억원으로, 첨단전략산업기금 대출액은 이 가운데 약 22%다.",
            "22%",
        ),
        # 각각 says how figures are shared out, not what they are about
        (SCHOOLS, "중학생은 133만2850명, 고등학생은 130만4325명으로 각각 0.5%, 2.0% 늘었다.", "0.5%"),
    ],
)
def test_a_figure_the_article_itself_gives_is_confirmed(source: str, article: str, figure: str) -> None:
    assert status(article, source, figure) == "confirmed"


@pytest.mark.parametrize(
    ("source", "article", "figure"),
    [
        (MARRIAGE, "초혼연령은 2000년 29.3세에서 지난해 33.7세로 올랐다. 23년 새 4.4세 높아졌다.", "23년"),
        (
            DEATHS,
            "'2024년 인구동향'에 따르면 2020년 첫 자연감소 이후 여섯 해째 자연감소가 이어졌다.",
            "여섯 해",
        ),
        # a span of years needs a word of span after it: "22년 동안의 계획" in a sentence of its own
        (MARRIAGE, "초혼연령은 2000년 29.3세에서 지난해 33.7세로 올랐다. 계획은 22년 계획이다.", "22년"),
        (
            RESOURCES,
            "자연·유휴시설·식문화·경관 등 농촌자원도 포함된다. 이들 다섯 가지 자원을 활용한다.",
            "다섯 가지",
        ),
        (PLANS, "이번 개정은 5·6 대책과 8·4 대책, 세 차례 발표에 담긴 규제 완화를 잇는다.", "세 차례"),
        (
            LOAN,
            "첨단전략산업기금이 7500억원을 대출한다. 설비용량은 390MW다. "
            "전체 사업비는 3조4000억원으로, 첨단전략산업기금 대출액은 이 가운데 약 25%다.",
            "25%",
        ),
        # the earlier figure must be about the same thing as the rate
        (
            LOAN,
            "정부가 7500억원을 지원한다. 설비용량은 390MW다. "
            "전체 사업비는 3조4000억원으로, 첨단전략산업기금 대출액은 이 가운데 약 22%다.",
            "22%",
        ),
    ],
)
def test_a_figure_the_article_does_not_add_up_to_is_flagged(source: str, article: str, figure: str) -> None:
    assert status(article, source, figure) != "confirmed"

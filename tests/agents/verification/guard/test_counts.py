"""Counts and ordinals bound to what they count, totals and rates computed from the article itself."""

from __future__ import annotations

import pytest

from agents.verification.guard import article_findings
from tests.agents.verification.guard.helpers import unsupported


def statuses(article: str, *sources: str) -> dict[str, str]:
    return {
        f.fact.text: f.status
        for f in article_findings(body=article, sources=sources)
        if f.fact.kind == "number"
    }


TASKS = (
    "첫 번째 과제는 공공부문 일자리 조성입니다. 두 번째, 보도자료 4쪽이 되겠습니다. 서민금융을 지원합니다."
)
FAMILY = (
    "가족에 대한 정의 중 ‘혈연관계’와 ‘법적 연결관계’에 대한 동의가 높다. 서울, 인천, 경기도에서 두드러진다."
)
CONTACTS = "접촉자 중 1명(지인)이 양성이다. 가족 2명에서 양성이 확인됐다."
RATES = "도입 초기 28.4%였던 참여율은 2024년 기준 66.3%까지 증가했다."
LOAN = "사업에 7500억 원을 대출한다. 전체 사업비는 3조 4000억 원이다."


@pytest.mark.parametrize(
    ("source", "article", "figure"),
    [
        (TASKS, "첫 번째 과제는 공공부문 일자리 조성이다.", "첫 번째"),
        (FAMILY, "가족의 정의로는 ‘혈연관계’와 ‘법적 연결관계’ 두 가지에 대한 동의가 높았다.", "두 가지"),
        (CONTACTS, "지인 1명과 가족 2명 등 접촉자 3명이 양성 판정을 받았다.", "3명"),
        (
            RATES,
            "참여율은 28.4%에서 66.3%로 높아졌다. 10년 남짓한 사이 37.9%포인트 오른 것이다.",
            "37.9%포인트",
        ),
        (
            LOAN,
            "사업에 7500억원을 대출한다. 전체 사업비는 3조4000억원으로, 대출액은 이 가운데 약 22%다.",
            "22%",
        ),
        (
            "총 2,000억 규모의 서민금융사업을 추진한다.",
            "2000억원 규모의 서민금융사업을 추진한다.",
            "2000억원",
        ),
        ("정밀검사(5회 연속)를 실시한다.", "다섯 차례 연속 정밀검사를 받는다.", "다섯 차례"),
    ],
)
def test_it_confirms_a_count_or_figure_the_source_or_the_article_supports(
    source: str, article: str, figure: str
) -> None:
    assert statuses(article, source)[figure] == "confirmed"


@pytest.mark.parametrize(
    ("source", "article", "figure"),
    [
        (TASKS, "두 번째 과제는 공공부문 일자리 조성이다.", "두 번째"),
        (FAMILY, "가족의 정의로는 ‘혈연관계’와 ‘법적 연결관계’ 세 가지에 대한 동의가 높았다.", "세 가지"),
        (CONTACTS, "지인 1명과 가족 2명 등 접촉자 4명이 양성 판정을 받았다.", "4명"),
        (RATES, "참여율은 28.4%에서 66.3%로 높아졌다. 10년 남짓한 사이 37.9% 오른 것이다.", "37.9%"),
    ],
)
def test_it_flags_a_count_or_figure_that_nothing_supports(source: str, article: str, figure: str) -> None:
    assert statuses(article, source)[figure] != "confirmed"


def test_a_count_besides_a_named_one_includes_it() -> None:
    assert unsupported("10개사가 참여했다.", "삼성전자 외 9개사가 참여했다.") == []
    assert unsupported("국내외 5곳에서 공장을 운영한다.", "국내외 4곳에서 공장을 운영한다.") == ["5곳"]


@pytest.mark.parametrize(
    ("article", "source", "status"),
    [
        ("결혼 건수가 두자릿수 감소율을 기록했다.", "결혼 건수가 두 자릿수 감소율을 기록했다.", "confirmed"),
        ("결혼 건수가 두 자릿수 감소율을 기록했다.", "결혼 건수가 두자릿수 감소율을 기록했다.", "confirmed"),
        ("물가 상승률은 한자릿수에 머물렀다.", "물가 상승률은 한 자릿수에 머물렀다.", "confirmed"),
        ("건수가 세자릿수 감소율을 기록했다.", "건수가 두 자릿수 감소율을 기록했다.", "contradicted"),
    ],
)
def test_a_count_of_digits_is_read_spaced_or_not(article: str, source: str, status: str) -> None:
    assert set(statuses(article, source).values()) == {status}

"""A figure moved to a thing the release names without it is contradicted; a paraphrase is not."""

from __future__ import annotations

import pytest

from agents.verification.guard import article_findings


def statuses(article: str, *sources: str) -> dict[str, str]:
    return {
        f.fact.text: f.status
        for f in article_findings(body=article, sources=sources)
        if f.fact.kind == "number"
    }


TARGETS = "도는 청년 창업기업을 2030년까지 500곳으로 늘린다. 또 지역 특화 산업단지 조성도 추진한다."
CONTACTS = (
    "○ 5번째 환자의 접촉자 10명 가운데 1명(지인)이 양성으로 확인됐다.\n"
    "○ 6번째 환자는 접촉자 8명 가운데 가족 2명이 양성으로 확인됐다."
)
SHARE = "복지부 예산 90조원 편성, 정부 총지출 중 16.2% 차지"
TALKS = "파주에서 8번째 맞손토크가 열렸다. 김 지사는 시민들과 평화 방안을 논의했다."
RESIDENTS = "외국인 주민은 120명, 내국인 주민은 80명이다."
ITEMS = "15대 주력 품목 가운데 11개 품목의 수출이 늘었다. 지역별로는 9대 주요 지역 중 7곳에서 늘었다."


@pytest.mark.parametrize(
    ("source", "article"),
    [
        (TARGETS, "도는 2030년까지 청년 창업기업을 500곳으로 늘리고 지역 특화 산업단지 조성도 추진한다."),
        (CONTACTS, "5번째 환자의 지인 1명과 6번째 환자의 가족 2명이 양성 판정을 받았다."),
        (SHARE, "정부 총지출에서 복지부 예산이 차지하는 비중은 16.2%다."),
        (TALKS, "김 지사는 여덟 번째 맞손토크를 파주에서 열었다."),
        (RESIDENTS, "내국인 주민은 80명, 외국인 주민은 120명이다."),
        (ITEMS, "15대 주력 품목 중 11개 품목과 9대 주요 지역 중 7곳에서 수출이 늘었다."),
    ],
)
def test_it_confirms_a_figure_whose_owner_the_article_names_before_it(source: str, article: str) -> None:
    assert set(statuses(article, source).values()) == {"confirmed"}


@pytest.mark.parametrize(
    ("source", "article", "moved"),
    [
        (
            TARGETS,
            "도는 지역 특화 산업단지를 2030년까지 500곳으로 늘리고 청년 창업기업 조성도 추진한다.",
            "500곳",
        ),
        (CONTACTS, "5번째 환자의 지인 2명과 6번째 환자의 가족 1명이 양성 판정을 받았다.", "2명"),
        (RESIDENTS, "외국인 주민은 80명, 내국인 주민은 120명이다.", "80명"),
    ],
)
def test_it_contradicts_a_figure_moved_to_a_thing_the_release_names_without_it(
    source: str, article: str, moved: str
) -> None:
    assert statuses(article, source)[moved] == "suspect"

"""Contexts: in a "각각" list the i-th figure is about the i-th item, written either way round."""

from __future__ import annotations

import pytest

from agents.verification.guard import article_findings
from agents.verification.guard.context import contexts, stem

EACH = "1인가구와 1세대 가구는 2050년에 각각 39.6%, 25.0%로 늘어날 전망이다."
FUNDS = "도는 청년 창업과 농촌 관광에 각각 30억원, 20억원을 투입한다."
SEPARATE = "중학생은 0.5%, 고등학생은 2.0% 늘었다."
BEFORE = "서울과 부산의 참여율은 62.1%, 48.3%로 각각 집계됐다."


def statuses(article: str, source: str) -> dict[str, str]:
    return {
        f.fact.text: f.status
        for f in article_findings(body=article, sources=[source])
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
    assert "suspect" in statuses(article, source).values()


@pytest.mark.parametrize(
    ("sentence", "figure", "described"),
    [
        ("기금이 사업에 5000억원 규모의 선순위 대출자로 참여한다.", "5000억원", {"선순위", "대출자"}),
        ("사업의 2조 1000억 원 전체 사업비 중 24%다.", "2조 1000억 원", {"사업비"}),
        ("5000억원 규모의 자금이 공급된다.", "5000억원", {"자금"}),
        ("예산 30억원을 들여 짓는다.", "30억원", set()),  # a particle makes it an argument
        ("임시근로자는 1만 4천명 각각 감소 비임금근로자 중", "1만 4천명", set()),  # what happened
        ("상용근로자는 39만명 증가했다.", "39만명", set()),
    ],
)
def test_it_reads_the_nouns_a_figure_qualifies_and_only_those(
    sentence: str, figure: str, described: set[str]
) -> None:
    start = sentence.index(figure)
    (context,) = contexts(sentence, [(start, start + len(figure))])
    assert context.described == described


@pytest.mark.parametrize(
    ("word", "stemmed"), [("감소한", ""), ("증가한", ""), ("최소한", "최소한"), ("권한", "권한")]
)
def test_a_change_said_of_a_figure_is_no_word_about_it(word: str, stemmed: str) -> None:
    assert stem(word) == stemmed

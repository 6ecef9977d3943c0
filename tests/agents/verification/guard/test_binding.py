"""Claims bound to their context: the same value about the same thing, or a flag that says why."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from agents.verification.guard import article_findings


def statuses(article: str, *sources: str) -> list[tuple[str, str]]:
    return [
        (f.fact.text, f.status)
        for f in article_findings(body=article, sources=sources)
        if f.fact.kind == "number"
    ]


BUDGETS = "서울시 청년 예산은 30억원, 부산시 청년 예산은 25억원이다."
CHANGE = "지원 인원은 지난해 3만2000명에서 올해 4만5000명으로 늘어난다."
SAMPLES = "설문에는 서울 시민 1,200명, 경기 도민 800명이 응답했다."
REGIONS = "수출은 미국이 120억 달러, 중국이 95억 달러였다."
FUND = (
    "'해안 풍력 발전사업'에 정책기금이 5000억 원 선순위 대출자로 참여한다. 해안 풍력 발전사업의"
    " 2조 1000억 원 전체 사업비 중 약 24%다."
)
HARVEST = "올해 쌀 생산량은 전년 대비 18만 t 감소, 451만 t으로 추정됐다."
RATES = (
    "외국인 관광객 수는 120만명으로 전년(108만명) 대비 12만명(11.1%↑) 늘었으며, 전체 관광객 대비"
    " 외국인 관광객 비율은 4.2%로 올랐다."
)


@pytest.mark.parametrize(
    ("source", "article"),
    [
        (BUDGETS, "서울시 청년 예산은 30억 원이고 부산시 청년 예산은 25억 원이다."),
        (BUDGETS, "부산시는 25억 원을, 서울시는 30억 원을 청년 예산으로 쓴다."),
        (CHANGE, "지원 인원도 4만5000명으로 지난해(3만2000명)보다 늘었다."),
        (CHANGE, "지원 인원은 3만2000명에서 4만5000명으로 늘어난다."),
        (SAMPLES, "경기 도민 800명과 서울 시민 1200명이 설문에 답했다."),
        (REGIONS, "대미 수출은 120억 달러, 대중 수출은 95억 달러였다."),
        # the words before a loan name the project, as they do before its total cost; the nouns the
        # figure qualifies say which one it is
        (FUND, "정책기금이 '해안 풍력 발전사업'에 5000억원 규모의 선순위 대출자로 참여한다."),
        (FUND, "해안 풍력 발전사업에 5000억원 규모의 자금이 공급된다."),
        # a bracket right after a figure restates it: the growth rate of the count, not a share
        (RATES, "외국인 관광객은 120만명으로 12만명(11.1%) 늘었다."),
        (HARVEST, "올해 쌀 생산량은 지난해보다 18만t 줄어든 451만t으로 추정됐다."),
    ],
)
def test_it_confirms_each_figure_stated_about_the_same_thing(source: str, article: str) -> None:
    assert {status for _, status in statuses(article, source)} == {"confirmed"}


@pytest.mark.parametrize(
    ("source", "article", "swapped"),
    [
        (BUDGETS, "서울시 청년 예산은 25억원, 부산시 청년 예산은 30억원이다.", {"25억원", "30억원"}),
        (CHANGE, "지원 인원은 지난해 4만5000명에서 올해 3만2000명으로 늘어난다.", {"4만5000명", "3만2000명"}),
        (SAMPLES, "설문에는 서울 시민 800명, 경기 도민 1,200명이 응답했다.", {"800명", "1,200명"}),
        (REGIONS, "수출은 미국이 95억 달러, 중국이 120억 달러였다.", {"95억 달러", "120억 달러"}),
        (RATES, "외국인 관광객 비율은 11.1%로 올랐다.", {"11.1%"}),
        (FUND, "해안 풍력 발전사업의 전체 사업비는 5000억원이다.", {"5000억원"}),
        # how much it changed by (감소) and what it became: the roles tell them apart
        (HARVEST, "올해 쌀 생산량은 지난해보다 451만t 줄어든 18만t으로 추정됐다.", {"451만t"}),
        (FUND, "해안 풍력 발전사업의 5000억원 전체 사업비 중 약 24%다.", {"5000억원"}),
    ],
)
def test_it_contradicts_real_figures_given_to_the_wrong_subject(
    source: str, article: str, swapped: set[str]
) -> None:
    flagged = {text for text, status in statuses(article, source) if status == "suspect"}
    assert flagged == swapped


def test_it_contradicts_another_value_for_the_same_thing_and_names_the_source_value() -> None:
    *_, finding = article_findings(
        body="청년 1인 가구 비율은 45%다.", sources=["청년 1인 가구 비율은 30%로 집계됐다."]
    )
    assert (finding.status, finding.rule) == ("contradicted", "bind:other-value")
    assert "30%" in finding.reason
    assert "30%" in finding.evidence
    assert not finding.supported


def test_it_does_not_find_a_value_the_source_never_states_about_anything_like_it() -> None:
    (finding,) = article_findings(body="참석자는 37명이었다.", sources=["예산은 30억원이다."])
    assert finding.status == "not_found"
    assert finding.evidence == ""
    assert finding.reason


def test_it_gives_the_source_location_of_a_confirmation() -> None:
    source = "서두다. 예산은 1,200억원이다."
    (finding,) = article_findings(body="예산은 1200억 원이다.", sources=["무관한 자료", source])
    assert finding.supported
    assert finding.source == 1
    assert source[finding.start : finding.end] == "1,200억원"


def test_it_reads_a_year_ago_as_the_previous_year_the_source_compares_with() -> None:
    source = (
        "1월 수산물 수출 2억 달러 돌파. "
        "1월 수산물 수출액이 전년 동기(1억 3,000만 달러) 대비 증가한 2억 달러다."
    )
    article = "1월 수산물 수출액은 1년 전(1억3000만달러)보다 늘어난 2억달러다."
    assert {status for _, status in statuses(article, source)} == {"confirmed"}


FIRST = "군은 해안 풍력 발전사업을 시작으로 지역 기업에 자금을 공급한다."


@pytest.mark.parametrize(
    ("source", "article", "status"),
    [
        (FIRST, "해안 풍력 발전사업은 군의 첫 번째 자금 공급 대상이다.", "confirmed"),
        ("이 제도는 국내 최초로 도입됐다.", "이 제도는 국내에서 첫 번째로 도입됐다.", "confirmed"),
        (FIRST, "해안 풍력 발전사업은 군의 두 번째 자금 공급 대상이다.", "not_found"),
        # "시작으로" is anyone's first: it supports no first of something its sentence never names
        (FIRST, "시청 광장에 첫 번째 청년 주택이 문을 연다.", "not_found"),
    ],
)
def test_it_reads_a_first_the_source_says_in_words(source: str, article: str, status: str) -> None:
    assert [s for text, s in statuses(article, source) if "번째" in text] == [status]


TIED = """
from agents.verification.guard import article_findings
source = "수입 과일은 바나나가 가장 많았고(31.5%), 다음으로 포도(22.4%), 오렌지(21.9%), 망고(5.1%) 순이다."
article = "수입 과일은 바나나(31.5%)가 가장 많았고 포도(21.9%), 오렌지(22.4%), 망고(5.1%)가 뒤를 이었다."
print(sorted((f.fact.text, f.status) for f in article_findings(body=article, sources=[source])))
"""


def test_two_rivals_that_fit_equally_well_give_one_verdict_whatever_the_hash_order() -> None:
    root = Path(__file__).resolve().parents[4]
    verdicts = {
        subprocess.run(
            [sys.executable, "-c", TIED],
            cwd=root,
            env={**os.environ, "PYTHONHASHSEED": str(seed), "PYTHONPATH": str(root)},
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        for seed in range(8)
    }
    assert len(verdicts) == 1

"""Derived figures: a sum, difference, ratio or change of nearby source figures, within rounding."""

from __future__ import annotations

import pytest

from agents.verification.guard import article_findings

RELEASE = (
    "지원 인원은 지난해 3만2000명에서 올해 4만5000명으로 늘어난다. "
    "직접 고용은 850명, 협력업체를 포함한 간접 고용은 2,300명이다. "
    "청년 1인 가구 비율은 2015년 27.6%에서 2025년 36.8%로 높아졌다. "
    "수출은 2024년 300억 달러에서 2025년 690억 달러로 늘었다."
)


def finding_for(article: str, text: str):  # type: ignore[no-untyped-def]
    findings = article_findings(body=article, sources=[RELEASE])
    return next(f for f in findings if f.fact.text == text)


@pytest.mark.parametrize(
    ("article", "figure", "operands"),
    [
        ("지원 인원은 1만3000명 늘어난다.", "1만3000명", ("4만5000명", "3만2000명")),
        ("직접·간접 고용을 합치면 3150명이다.", "3150명", ("850명", "2,300명")),
        ("지원 인원은 지난해보다 40.6% 늘어난다.", "40.6%", ("3만2000명", "4만5000명")),
        ("청년 1인 가구 비율은 10년 새 9.2%p 높아졌다.", "9.2%p", ("36.8%", "27.6%")),
        ("수출은 1년 새 2.3배로 늘었다.", "2.3배", ("690억 달러", "300억 달러")),
    ],
)
def test_it_confirms_a_figure_derived_from_source_figures_and_shows_the_formula(
    article: str, figure: str, operands: tuple[str, str]
) -> None:
    finding = finding_for(article, figure)
    assert finding.status == "confirmed"
    assert all(operand in finding.formula for operand in operands)
    assert finding.reason


@pytest.mark.parametrize(
    ("article", "figure"),
    [
        ("지원 인원은 1만4000명 늘어난다.", "1만4000명"),
        ("지원 인원은 지난해보다 46.0% 늘어난다.", "46.0%"),
        ("직접·간접 고용을 합치면 3500명이다.", "3500명"),
    ],
)
def test_it_flags_a_figure_that_no_formula_over_source_figures_gives(article: str, figure: str) -> None:
    assert not finding_for(article, figure).supported


def test_it_never_derives_the_start_or_end_of_a_change() -> None:
    # 1만3000명 is 4만5000명 − 3만2000명, but as the start of a change it is a stated figure.
    assert not finding_for("지원 인원은 1만3000명에서 4만5000명으로 늘어난다.", "1만3000명").supported


def test_it_rounds_a_change_like_newspapers_do() -> None:
    # (45,000 − 32,000) ÷ 32,000 = 40.625%: written as 40.6% or 41%, never 40.7%.
    assert finding_for("인원은 지난해보다 41% 늘어난다.", "41%").supported
    assert not finding_for("인원은 지난해보다 40.7% 늘어난다.", "40.7%").supported


def test_it_confirms_a_ratio_of_two_figures_the_same_sentence_states() -> None:
    article = "PCT 출원 증가율(12.6%)은 국내 출원 증가율(2.9%)의 네 배를 넘는다."
    source = "PCT 국제출원은 12.6% 증가했다. 국내 특허출원은 2.9% 늘었다."
    findings = {f.fact.text: f for f in article_findings(body=article, sources=[source])}
    assert findings["네 배"].supported
    assert "12.6%" in findings["네 배"].formula
    changed = {
        f.fact.text: f for f in article_findings(body=article.replace("네 배", "다섯 배"), sources=[source])
    }
    assert not changed["다섯 배"].supported


def test_it_checks_a_multiple_of_two_rates_the_sentence_states_against_them_only() -> None:
    # Other figures of the release give 0.4 ÷ 0.1 = 4; the sentence's own rates give 2.9.
    source = "학업중단율은 고등학생 2.0%, 중학생 0.7%다. 학급당 학생 수는 0.4명, 0.1명 줄었다."
    article = "고등학생 학업중단율(2.0%)은 중학생(0.7%)의 세 배에 이른다."
    findings = {f.fact.text: f for f in article_findings(body=article, sources=[source])}
    assert findings["세 배"].supported
    changed = {
        f.fact.text: f for f in article_findings(body=article.replace("세 배", "네 배"), sources=[source])
    }
    assert not changed["네 배"].supported


LABOUR = (
    "도소매업은 5만 7천명 감소했고, 자영업자는 3만 4천명 증가했다. "
    "20대 취업자는 8만 1천명, 30대 취업자는 1만명 각각 늘었다."
)


def test_it_never_adds_up_figures_about_other_things_than_the_article_figure() -> None:
    # 5만 7천명 + 3만 4천명 = 9만 1천명, but the second is about 자영업자, not 도소매업
    finding = article_findings(body="도소매업은 9만1000명 감소했다.", sources=[LABOUR])[-1]
    assert finding.status != "confirmed"


def test_it_still_adds_up_figures_about_the_same_thing() -> None:
    finding = article_findings(body="20대와 30대 취업자는 모두 9만1000명 늘었다.", sources=[LABOUR])[-1]
    assert (finding.status, finding.formula) == ("confirmed", "8만 1천명 + 1만명 = 91000")

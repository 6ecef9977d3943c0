"""Evidence code can check: a verbatim source span holding the value, or a derivation it recomputes."""

from __future__ import annotations

from datetime import date

import pytest

from agents.verification.evidence import Derivation, derivation_supports, find_span, span_supports

RELEASE = (
    "올해 지원 예산은 1,480억원으로 지난해 1,250 억 원보다 늘었다.\n"
    "참여 기업은 대기업 120개사, 중소기업 35개사다. 신청은 4. 18.(화)부터 받는다."
)
SOURCES = ["다른 자료에는 관련 수치가 없다.", RELEASE]
REFERENCE = date(2026, 4, 3)


def derived(fact: str, operation: str, *operands: str) -> str | None:
    found = derivation_supports(
        fact=fact, derivation=Derivation(operation=operation, operands=list(operands)), sources=SOURCES
    )
    return found.formula if found else None


def test_a_span_is_found_in_its_source_despite_other_spacing_and_commas() -> None:
    assert find_span("지난해 1250억 원보다", SOURCES) == 2
    assert find_span("올해  지원 예산은\n1,480억원", SOURCES) == 2


def test_a_span_the_sources_do_not_hold_is_not_found() -> None:
    assert find_span("지난해 1,350억원보다", SOURCES) is None


def test_a_span_of_a_few_characters_proves_nothing() -> None:
    assert find_span("1,4", SOURCES) is None


def test_a_span_in_a_source_that_holds_the_figure_supports_it() -> None:
    found = span_supports(
        fact="1,250억원", span="지난해 1,250 억 원보다", sources=SOURCES, reference=REFERENCE
    )
    assert found is not None and found.source == 2 and found.span == "지난해 1,250 억 원보다"


def test_a_real_span_that_holds_another_figure_does_not_support_it() -> None:
    assert (
        span_supports(fact="1,480억원", span="지난해 1,250 억 원보다", sources=SOURCES, reference=REFERENCE)
        is None
    )


def test_a_made_up_span_does_not_support_the_figure_it_holds() -> None:
    assert (
        span_supports(fact="1,500억원", span="예산은 1,500억원으로", sources=SOURCES, reference=REFERENCE)
        is None
    )


def test_a_difference_of_source_figures_is_recomputed_and_shown_as_a_formula() -> None:
    assert derived("230억원", "difference", "1,480억원", "1,250 억 원") == "1,480억원 − 1,250억원 = 230억원"


def test_a_sum_of_source_counts_is_recomputed() -> None:
    assert derived("155개사", "sum", "120개사", "35개사") == "120개사 + 35개사 = 155개사"
    assert derived("165개사", "sum", "120개사", "35개사") is None


def test_a_percentage_change_holds_within_the_rounding_the_article_shows() -> None:
    assert derived("18.4%", "percent_change", "1,480억원", "1,250억원")  # 18.4 of 18.40
    assert derived("18%", "percent_change", "1,480억원", "1,250억원")
    assert derived("18.6%", "percent_change", "1,480억원", "1,250억원") is None


def test_a_ratio_is_read_in_times() -> None:
    assert derived("1.2배", "ratio", "1,480억원", "1,250억원")
    assert derived("1.2%", "ratio", "1,480억원", "1,250억원") is None


def test_a_derivation_from_a_figure_the_sources_do_not_hold_is_refused() -> None:
    assert derived("250억원", "difference", "1,500억원", "1,250억원") is None


def test_operands_of_different_units_are_not_added() -> None:
    assert derived("155개사", "sum", "120개사", "35억원") is None


def test_a_difference_of_two_percentages_is_in_percentage_points_never_in_percent() -> None:
    rates = ["고용률은 69.6%로 지난해 68.9%보다 올랐다."]
    difference = Derivation(operation="difference", operands=["69.6%", "68.9%"])

    assert derivation_supports(fact="0.7%p", derivation=difference, sources=rates)
    assert derivation_supports(fact="0.7%", derivation=difference, sources=rates) is None


def test_operands_scattered_over_a_release_make_no_derivation() -> None:
    release = "올해 사망률은 2.8명이다. " + "관련 통계 설명이 이어진다. " * 40 + "신고는 0.1명 줄었다."
    difference = Derivation(operation="difference", operands=["2.8명", "0.1명"])

    assert derivation_supports(fact="2.7명", derivation=difference, sources=[release]) is None
    assert derivation_supports(fact="2.7명", derivation=difference, sources=["사망률은 2.8명, 0.1명 감소"])


# --- evidence is read in the article sentence, about the same thing (a lying verifier) -----------
STUDY = (
    "고등학생 학업중단율은 2.0%, 초·중학생은 0.7%다.\n"
    "학급당 학생 수는 유치원 15.7명, 초등학교 20.0명, 중학교 24.5명이다.\n"
    "유치원 23,190명, 중학교 6,019명 증가.\n"
    "가족의 정의로는 혈연관계와 법적 연결관계를 꼽았다. 경향은 서울, 인천, 경기도에서 두드러진다.\n"
    "보도자료는 월요일 1건, 화요일 2건이다. 지원 예산은 1,480억원으로 지난해 1,250억원보다 늘었다."
)


@pytest.mark.parametrize(
    ("sentence", "fact", "span"),
    [
        # a list of three elsewhere in the release is no count of the two definitions
        (
            "가족의 정의로는 ‘혈연관계’와 ‘법적 연결관계’ 세 가지에 대한 동의가 높았다.",
            "세 가지",
            "경향은 서울, 인천, 경기도에서 두드러진다.",
        ),
        # a span that holds the value about something else
        ("지원 예산은 2건이다.", "2건", "보도자료는 월요일 1건, 화요일 2건이다."),
    ],
)
def test_a_span_about_something_else_does_not_keep_the_figure(sentence: str, fact: str, span: str) -> None:
    assert (
        span_supports(fact=fact, span=span, sources=[STUDY], reference=REFERENCE, sentence=sentence) is None
    )


def test_a_span_about_the_same_thing_keeps_the_figure_read_in_its_sentence() -> None:
    found = span_supports(
        fact="1,250억원",
        span="지원 예산은 1,480억원으로 지난해 1,250억원보다 늘었다.",
        sources=[STUDY],
        reference=REFERENCE,
        sentence="지난해 지원 예산은 1,250억원이었다.",
    )
    assert found is not None


@pytest.mark.parametrize(
    ("sentence", "fact", "operation", "operands"),
    [
        # small counts add up to any small count: the guard never derives a one-digit count
        ("이날 나가는 보도자료는 세 건이다.", "세 건", "sum", ["1건", "2건"]),
        # a multiple of the two rates the sentence states is computed from those two only
        (
            "고등학생 학업중단율(2.0%)은 초·중학생(0.7%)의 네 배 가까이 된다.",
            "네 배",
            "ratio",
            ["23,190명", "6,019명"],
        ),
        # operands about something other than what the sentence is about
        ("학급 수가 230억원 늘었다.", "230억원", "difference", ["1,480억원", "1,250억원"]),
    ],
)
def test_a_derivation_beyond_the_guards_limits_or_about_something_else_is_refused(
    sentence: str, fact: str, operation: str, operands: list[str]
) -> None:
    derivation = Derivation(operation=operation, operands=operands)  # type: ignore[arg-type]
    assert derivation_supports(fact=fact, derivation=derivation, sources=[STUDY], sentence=sentence) is None


@pytest.mark.parametrize(
    ("sentence", "fact", "operation", "operands"),
    [
        ("지원 예산은 지난해보다 230억원 늘었다.", "230억원", "difference", ["1,480억원", "1,250억원"]),
        ("지원 예산은 지난해보다 18.4% 늘었다.", "18.4%", "percent_change", ["1,480억원", "1,250억원"]),
        (
            "고등학생 학업중단율(2.0%)은 초·중학생(0.7%)의 세 배 가까이 된다.",
            "세 배",
            "ratio",
            ["2.0%", "0.7%"],
        ),
    ],
)
def test_an_honest_derivation_about_the_same_thing_is_kept(
    sentence: str, fact: str, operation: str, operands: list[str]
) -> None:
    derivation = Derivation(operation=operation, operands=operands)  # type: ignore[arg-type]
    assert derivation_supports(fact=fact, derivation=derivation, sources=[STUDY], sentence=sentence)

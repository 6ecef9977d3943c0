"""Dates, times and relative day words, compared by the components the text states."""

from __future__ import annotations

from datetime import date

import pytest

from agents.verification.guard import article_findings, extract_facts
from tests.agents.verification.guard.helpers import keys, unsupported


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("2026년 3월 5일", "2026-03-05"),
        ("2026.3.5", "2026-03-05"),
        ("2026. 3. 5.", "2026-03-05"),
        ("2026-03-05", "2026-03-05"),
        ("2026/3/5", "2026-03-05"),
        ("3월 5일", "m:3|d:5"),
        ("3.5(목)", "m:3|d:5"),
        ("5일", "d:5"),
        ("지난 5일", "d:5"),
        ("오는 10일", "d:10"),
        ("3월", "m:3"),
        ("2026년", "y:2026"),
        ("2026년 3월", "y:2026|m:3"),
        ("오후 3시", "t:15:00"),
        ("오전 10시 30분", "t:10:30"),
        ("15시 30분", "t:15:30"),
        ("15:30", "t:15:30"),
        ("3시 반", "t:3:30"),
    ],
)
def test_it_reads_dates_and_times(text: str, key: str) -> None:
    assert keys(text) == [key]


def test_it_keeps_the_prefix_in_the_surface_form_of_a_day() -> None:
    assert [f.text for f in extract_facts("서울시는 지난 3일 밝혔다.")] == ["지난 3일"]


def test_it_reads_each_day_of_a_range() -> None:
    assert keys("3월 5~7일") == ["m:3|d:5", "m:3|d:7"]
    assert keys("3~4월") == ["m:3", "m:4"]


def test_it_does_not_report_the_digits_of_a_date_as_numbers_too() -> None:
    facts = extract_facts("2026년 3월 5일 오후 2시 30분")
    assert {f.kind for f in facts} == {"date"}


def test_it_tells_a_duration_from_a_time_of_day() -> None:
    assert keys("3시간 30분") == ["3|시간", "30|분"]
    assert keys("12개월") == ["12|개월"]


def test_it_supports_a_day_by_a_fuller_source_date() -> None:
    assert unsupported("지난 5일 밝혔다.", "2026년 3월 5일 밝혔다.") == []
    assert unsupported("5일 밝혔다.", "3월 5일 밝혔다.") == []


def test_it_does_not_support_a_month_and_day_by_a_bare_day_without_a_reference() -> None:
    assert unsupported("3월 5일 밝혔다.", "5일 밝혔다.") == ["3월 5일"]


def test_it_supports_a_month_and_day_by_a_bare_day_resolved_against_the_reference() -> None:
    assert unsupported("3월 5일 밝혔다.", "5일 밝혔다.", reference=date(2026, 3, 6)) == []
    assert unsupported("4월 5일 밝혔다.", "5일 밝혔다.", reference=date(2026, 3, 6)) == ["4월 5일"]


def test_it_resolves_jinan_and_oneun_days_in_the_right_direction() -> None:
    reference = date(2026, 3, 20)
    assert unsupported("2월 25일 열렸다.", "지난 25일 열렸다.", reference=reference) == []
    assert unsupported("4월 5일 열린다.", "오는 5일 열린다.", reference=reference) == []
    assert unsupported("3월 5일 열린다.", "오는 5일 열린다.", reference=reference) == ["3월 5일"]


def test_it_fills_the_year_of_a_source_date_from_the_reference() -> None:
    assert unsupported("2026년 3월 16일", "3월 16일", reference=date(2026, 3, 6)) == []
    assert unsupported("2025년 3월 16일", "3월 16일", reference=date(2026, 3, 6)) == ["2025년 3월 16일"]


def test_it_never_completes_the_article_date_from_the_reference() -> None:
    # The article's "3월 16일" is checked as month and day, so a source "2025년 3월 16일" still supports it.
    assert unsupported("3월 16일", "2025년 3월 16일", reference=date(2026, 3, 6)) == []


def test_it_never_lets_an_inferred_month_support_a_month_on_its_own() -> None:
    # "10일" resolves to 2026-03-10, but the source never said "3월": "3월 수출" stays unsupported.
    reference = date(2026, 3, 11)
    assert unsupported("3월 10일 밝혔다.", "10일 밝혔다.", reference=reference) == []
    assert unsupported("3월 수출이 늘었다.", "10일 밝혔다.", reference=reference) == ["3월"]
    assert unsupported("2월 수출이 늘었다.", "2026년 2월 수출", reference=reference) == []


def test_it_gives_a_date_finding_the_source_date_as_evidence() -> None:
    (finding,) = article_findings(body="3월 16일부터 받는다.", sources=["신청은 2026년 3월 16일부터 받는다."])
    assert "2026년 3월 16일" in finding.evidence


@pytest.mark.parametrize(
    ("word", "key"),
    [
        ("오늘", "2026-03-06"),
        ("금일", "2026-03-06"),
        ("어제", "2026-03-05"),
        ("그제", "2026-03-04"),
        ("내일", "2026-03-07"),
        ("모레", "2026-03-08"),
        ("올해", "y:2026"),
        ("지난해", "y:2025"),
        ("작년", "y:2025"),
        ("내년", "y:2027"),
        ("지난달", "y:2026|m:2"),
        ("이번 달", "y:2026|m:3"),
        ("다음 달", "y:2026|m:4"),
        ("지난주", "w:2026-W09"),
        ("이번 주", "w:2026-W10"),
        ("다음 주", "w:2026-W11"),
    ],
)
def test_it_resolves_relative_words_against_the_reference_date(word: str, key: str) -> None:
    assert keys(f"서울시는 {word} 발표했다.", reference=date(2026, 3, 6)) == [key]


def test_it_reads_relative_words_literally_without_a_reference() -> None:
    assert keys("서울시는 어제 발표했다.") == ["r:어제"]
    assert keys("작년 매출") == keys("지난해 매출") == ["r:지난해"]


def test_it_supports_a_relative_word_by_the_same_word_without_a_reference() -> None:
    assert unsupported("어제 발표했다.", "어제 발표했다.") == []
    assert unsupported("어제 발표했다.", "5일 발표했다.") == ["어제"]


def test_it_supports_a_relative_word_by_the_date_it_means_with_a_reference() -> None:
    reference = date(2026, 3, 6)
    assert unsupported("어제 발표했다.", "5일 발표했다.", reference=reference) == []
    assert unsupported("어제 발표했다.", "3월 5일 발표했다.", reference=reference) == []
    assert unsupported("어제 발표했다.", "4일 발표했다.", reference=reference) == ["어제"]
    assert unsupported("5일 발표했다.", "어제 발표했다.", reference=reference) == []
    assert unsupported("올해 매출", "2026년 매출", reference=reference) == []
    assert unsupported("지난해 매출", "2025년 매출", reference=reference) == []
    assert unsupported("내년 매출", "2026년 매출", reference=reference) == ["내년"]


def test_it_supports_a_week_by_a_source_date_in_that_week() -> None:
    reference = date(2026, 3, 6)  # a Friday; the week runs from 2 to 8 March
    assert unsupported("이번 주 발표했다.", "3월 3일 발표했다.", reference=reference) == []
    assert unsupported("이번 주 발표했다.", "3월 10일 발표했다.", reference=reference) == ["이번 주"]


def test_it_skips_i_nal_because_it_only_points_back_to_a_date_already_given() -> None:
    assert extract_facts("회사는 이날 협약을 맺었다.") == []


@pytest.mark.parametrize("word", ["오늘날", "그제야", "내일채움공제"])
def test_it_does_not_take_words_that_contain_a_relative_word_for_dates(word: str) -> None:
    assert extract_facts(f"{word} 이야기다.") == []


def test_it_matches_an_hour_without_am_or_pm_to_either_half_of_the_day() -> None:
    assert unsupported("3시에 열린다.", "오후 3시에 열린다.") == []
    assert unsupported("오후 3시에 열린다.", "15시에 열린다.") == []
    assert unsupported("오후 4시에 열린다.", "3시에 열린다.") == ["오후 4시"]


# --- formats from real press releases ----------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("'23. 4. 18.(화)", "2023-04-18"),
        ("’23.4.18.", "2023-04-18"),
        ("4. 18.", "m:4|d:18"),
        ("9.30.까지", "m:9|d:30"),
        ("7·10 대책", "m:7|d:10"),
        ("5·18 기념식", "m:5|d:18"),
        ("'07년", "y:2007"),
        ("'98년", "y:1998"),
    ],
)
def test_it_reads_the_date_formats_of_press_releases(text: str, key: str) -> None:
    assert keys(text)[:1] == [key]


@pytest.mark.parametrize("text", ["6·13 지방선거를 앞두고", "5·18 민주화운동 기념"])
def test_it_makes_no_claim_of_a_day_that_names_an_election_or_a_historic_event(text: str) -> None:
    assert keys(text) == []


def test_it_reads_a_relative_year_and_its_month_as_one_date() -> None:
    assert unsupported("2019년 11월 기준", "지난해 11월 기준", reference=date(2020, 10, 29)) == []
    assert unsupported("내년 2월 완공", "2025년 2월 완공", reference=date(2024, 12, 20)) == []
    assert unsupported("올해 2월 완공", "2025년 2월 완공", reference=date(2024, 12, 20)) == ["올해"]


@pytest.mark.parametrize("text", ["1·2차 회의", "3·4위 결정전", "1·2단계 사업"])
def test_it_does_not_take_a_pair_of_ordinals_for_a_date(text: str) -> None:
    assert all(not key.startswith("m:") for key in keys(text))


@pytest.mark.parametrize(
    ("article", "source"),
    [
        ("신청은 9월 30일까지다.", "신청 기간: ~9.30.까지"),
        ("2023년 4월 18일 발표했다.", "발표일 '23. 4. 18.(화)"),
        ("4월 10일 총선을 앞두고", "4·10 총선을 앞두고"),
        ("2007년 이후 처음이다.", "'07년 이후 처음이다."),
    ],
)
def test_it_supports_an_article_date_by_the_release_format(article: str, source: str) -> None:
    assert unsupported(article, source) == []


@pytest.mark.parametrize(
    ("word", "source"),
    [
        ("지난달", "2026년 2월 실적"),
        ("이달", "3월 중 시행"),
        ("오는 15일", "3월 15일 개최"),
        ("다음 달", "4월부터 시행"),
        ("올해", "2026년 예산"),
        ("내년", "2027년 예산"),
    ],
)
def test_it_resolves_relative_dates_against_the_day_of_writing(word: str, source: str) -> None:
    assert unsupported(f"{word} 발표", source, reference=date(2026, 3, 6)) == []


def test_it_reads_jeonnyeon_as_the_year_before() -> None:
    assert unsupported("지난해보다 늘었다.", "전년 대비 늘었다.") == []
    assert unsupported("지난해보다 늘었다.", "전년도보다 늘었다.") == []


@pytest.mark.parametrize("text", ["5·6번째 환자", "5·6번 환자", "1·2호선"])
def test_it_does_not_read_numbered_pairs_as_a_date(text: str) -> None:
    assert all(not key.startswith("m:") for key in keys(text))


@pytest.mark.parametrize(
    ("article", "source"),
    [
        (
            "최근 5년(2015~2019년)간 연평균 증가율은 0.6%였다.",
            "최근 5년(‘15~’19)간 연평균 증가율이 0.6%였다.",
        ),
        ("2015∼2019년 연평균 증가율은 0.6%였다.", "최근 5년(’15~’19년)간 연평균 증가율이 0.6%였다."),
        ("올해 1~4월 특허출원은 6만5499건이다.", "올해 4월까지의 특허출원은 65,499건이다."),
    ],
)
def test_it_reads_short_year_ranges_and_year_to_date_spans_in_a_source(article: str, source: str) -> None:
    assert unsupported(article, source) == []


@pytest.mark.parametrize(
    ("article", "source", "missing"),
    [
        ("2014~2019년 증가율은 0.6%였다.", "최근 5년(‘15~’19)간 증가율이 0.6%였다.", ["2014~2019년"]),
        ("올해 1월 특허출원은 6만5499건이다.", "올해 4월 특허출원은 65,499건이다.", ["1월"]),
    ],
)
def test_it_still_flags_years_and_months_a_source_does_not_span(
    article: str, source: str, missing: list[str]
) -> None:
    assert unsupported(article, source) == missing


@pytest.mark.parametrize(
    ("article", "source"),
    [
        ("10일까지 지침을 마련해 11일부터 시행한다.", "10일까지 지침을 마련해 다음 날부터 시행한다."),
        ("4월 30일 의결하고 5월 1일 공포했다.", "2020년 4월 30일 의결하고 이튿날 공포했다."),
    ],
)
def test_it_reads_the_day_after_a_date_the_source_writes_as_next_day(article: str, source: str) -> None:
    assert unsupported(article, source, reference=date(2020, 5, 7)) == []


def test_it_still_flags_a_day_the_next_day_does_not_give() -> None:
    source = "10일까지 지침을 마련해 다음 날부터 시행한다."
    assert unsupported("10일까지 지침을 마련해 12일부터 시행한다.", source) == ["12일"]


@pytest.mark.parametrize("article", ["24년 2월 수출은 587억 달러였다.", "’24년 2월 수출은 587억 달러였다."])
def test_a_two_digit_year_before_a_month_is_a_year(article: str) -> None:
    source = "2024년 2월 수출은 587억 달러로 집계됐다."
    found = {f.fact.text: f.status for f in article_findings(body=article, sources=[source])}
    assert set(found.values()) == {"confirmed"}
    assert any(text.endswith("24년 2월") for text in found)


def test_a_two_digit_year_with_no_month_is_a_span_of_years() -> None:
    (found,) = extract_facts("24년 만에 가장 많았다.")
    assert (found.kind, found.text) == ("number", "24년")

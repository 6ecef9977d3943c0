"""Numbers with Korean magnitudes and units, compared by value and canonical unit."""

from __future__ import annotations

import pytest

from tests.agents.guard.helpers import keys, unsupported


@pytest.mark.parametrize(
    ("written", "other"),
    [
        ("1,200억원", "1200억 원"),
        ("1,200억원", "1,200억 원"),
        ("1,200억원", "0.12조원"),
        ("1,200억원", "1천200억원"),
        ("1조2000억원", "1조 2,000억 원"),
        ("3조 5,000억 원", "3조5000억원"),
        ("2만5000명", "2만 5000명"),
        ("2만5000명", "25,000명"),
        ("1억2천만원", "1억 2000만원"),
        ("2천만원", "2,000만 원"),
        ("3.5%", "3.5퍼센트"),
        ("3.5%", "3.50%"),
        ("9.2%p", "9.2%포인트"),
        ("9.2%p", "9.2퍼센트포인트"),
        ("12만t", "12만 톤"),
        ("30㎞", "30km"),
        ("84㎡", "84m²"),
        ("5살", "5세"),
        ("140만 대", "140만대"),
    ],
)
def test_it_treats_equal_amounts_written_differently_as_equal(written: str, other: str) -> None:
    assert keys(f"총 {written}이다.") == keys(f"총 {other}이다.")
    assert unsupported(f"총 {written}이다.", f"총 {other}이다.") == []


def test_it_treats_1200_eok_won_with_and_without_comma_as_equal() -> None:
    assert keys("1,200억원") == keys("1200억원") == ["120000000000|원"]


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("1,200억원", "120000000000|원"),
        ("3조 5,000억 원", "3500000000000|원"),
        ("26억7000만 달러", "2670000000|달러"),
        ("12.4%", "12.4|%"),
        ("9.2%포인트", "9.2|%p"),
        ("850명", "850|명"),
        ("7곳", "7|곳"),
        ("11개", "11|개"),
        ("3개월", "3|개월"),
        ("2,400가구", "2400|가구"),
        ("1위", "1|위"),
        ("3분기", "3|분기"),
        ("3시간", "3|시간"),
        ("100만 위안", "1000000|위안"),
        ("500MW", "500|MW"),
        ("1.5GW", "1.5|GW"),
        ("120kWh", "120|kWh"),
        ("2배", "2|배"),
        ("10년", "10|년"),
        ("90일", "90|일"),
        ("제3차", "3|차"),
        ("제3조", "3|조"),
        ("3조", "3000000000000|"),
        ("2026", "2026|"),
        ("15대", "15|대"),
    ],
)
def test_it_reads_value_and_unit(text: str, key: str) -> None:
    assert keys(text) == [key]


@pytest.mark.parametrize(
    ("written", "other"),
    [
        ("1,200억원", "1,200조원"),
        ("1,200억원", "1,300억원"),
        ("1,200억원", "1,200억 달러"),
        ("850명", "850건"),
        ("3.5%", "3.5%p"),
        ("3.5%", "35%"),
        ("2만5000명", "2만6000명"),
        ("7곳", "7개"),
        ("12개월", "12년"),
        ("19~39세", "19~35세"),
        ("3~5%", "4~5%"),
    ],
)
def test_it_tells_changed_amounts_apart(written: str, other: str) -> None:
    assert unsupported(f"총 {other}이다.", f"총 {written}이다.") != []


def test_it_gives_the_first_number_of_a_range_the_unit_and_magnitude_of_the_second() -> None:
    assert keys("19~39세") == ["19|세", "39|세"]
    assert keys("3~5조원") == ["3000000000000|원", "5000000000000|원"]


def test_it_extracts_a_bare_number_of_two_or_more_digits_and_skips_a_bare_digit() -> None:
    assert keys("코드 2026 과 7 이다") == ["2026|"]


def test_it_supports_a_bare_number_by_the_same_value_with_any_unit_in_the_source() -> None:
    assert unsupported("참가자는 1,200이었다.", "참가자는 1200명이었다.") == []
    assert unsupported("참가자는 1,300이었다.", "참가자는 1200명이었다.") == ["1,300"]


def test_it_supports_a_bare_year_number_by_a_year_in_the_source() -> None:
    assert unsupported("2026 시즌이 열린다.", "2026년 시즌이 열린다.") == []


def test_it_does_not_take_a_space_before_a_korean_unit_in_an_article() -> None:
    # "3 대 1" is a score, not three vehicles.
    assert keys("경기는 30 대 1로 끝났다.") == ["30|"]


def test_it_reads_sources_leniently_because_pdf_text_is_spaced_oddly() -> None:
    assert unsupported("참가자는 1,200명이다.", "참 가 자 1,200 명") == []


def test_it_does_not_support_an_amount_by_naive_substring_search() -> None:
    assert unsupported("총 200억원이다.", "총 1,200억원이다.") == ["200억원"]


def test_it_reads_runs_of_spaces_as_one_space() -> None:
    assert unsupported("총 7억 2만 명이다.", "총 7억  2만\u00a0명이다.") == []


def test_it_never_reads_an_amount_across_a_line_break() -> None:
    assert keys("매출 3조\n5000억원") == ["3000000000000|", "500000000000|원"]

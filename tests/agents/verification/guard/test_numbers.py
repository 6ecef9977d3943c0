"""Numbers with Korean magnitudes and units, compared by value and canonical unit."""

from __future__ import annotations

import pytest

from tests.agents.verification.guard.helpers import keys, unsupported


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
        # a symbol in the release, the word in the article
        ("30㎞", "30킬로미터"),
        ("84㎡", "84제곱미터"),
        ("84㎡", "84평방미터"),
        ("12㎢", "12제곱킬로미터"),
        ("3㏊", "3헥타르"),
        ("15㎏", "15킬로그램"),
        ("660.2㎜", "660.2밀리미터"),
        ("1.5GW", "1.5기가와트"),
        ("500MW", "500메가와트"),
        ("120kWh", "120킬로와트시"),
        ("24.7℃", "24.7도"),
        ("24.7 ℃", "24.7도"),
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


# --- formats from real press releases and PDF text, one table per kind --------------------------
@pytest.mark.parametrize(
    ("source", "article"),
    [
        ("예산은 1,250억 → 1,480억원으로 늘었다.", "예산은 1250억 원에서 1480억 원으로 늘었다."),
        ("예산은 820억에서 960억원으로 늘었다.", "예산은 820억 원에서 960억 원으로 늘었다."),
        ("예산은 30억, 25억원이다.", "예산은 30억 원이다."),
        ("사업비는 3~5억원이다.", "사업비는 3억 원에서 5억 원이다."),
    ],
)
def test_it_gives_a_unit_written_once_to_every_number_of_a_list_range_or_arrow(
    source: str, article: str
) -> None:
    assert unsupported(article, source) == []


@pytest.mark.parametrize(
    ("written", "spaced"),
    [
        ("3조2150억원", "3조 2,150 억원"),
        ("1830억원", "1,830 억 원"),
        ("5조원", "5 조 원"),
        ("2만5000명", "2만 5,000 명"),
    ],
)
def test_it_reads_amounts_spaced_by_pdf_extraction(written: str, spaced: str) -> None:
    assert keys(f"총 {written}이다.") == keys(f"총 {spaced}이다.")
    assert unsupported(f"총 {written}이다.", f"총 {spaced}이다.") == []


@pytest.mark.parametrize(
    ("source", "article"),
    [
        ("(단위: 억원)\n구분 2025 2026\n예산 1,200 1,480", "예산은 1480억 원이다."),
        ("〈표〉 지역별 인원 (단위 : 명)\n서울 4,500\n부산 2,100", "부산은 2100명이다."),
    ],
)
def test_it_reads_table_numbers_in_the_unit_of_the_header(source: str, article: str) -> None:
    assert unsupported(article, source) == []


def test_it_does_not_give_a_header_unit_to_numbers_far_below_the_table() -> None:
    source = "(단위: 억원)\n예산 1,200\n" + "가" * 2100 + " 참가 1,480"
    assert unsupported("예산은 1480억 원이다.", source) == ["1480억 원"]


@pytest.mark.parametrize(
    ("source", "article"),
    [
        ("거점 7곳", "거점 7개"),
        ("거점 7개소", "거점 7곳"),
        ("학교 12개교", "학교 12곳"),
        ("학교 12교", "학교 12개교"),
        ("참여 기업 300개사", "참여 기업 300개"),
        # homes: statistics count 호, papers write 가구 or 세대
        ("미분양 주택 52,310호", "미분양 주택 5만2310가구"),
        ("신규 주택 1,200호", "신규 주택 1200세대"),
        # a rank is an ordinal
        ("1990년 이래 3위", "1990년 이래 3번째"),
        ("1990년 이래 3위", "1990년 이래 세 번째"),
    ],
)
def test_it_treats_counters_of_the_same_thing_as_one_unit(source: str, article: str) -> None:
    assert unsupported(f"{article}가 참여한다.", f"{source}가 참여한다.") == []


@pytest.mark.parametrize(
    ("source", "article"),
    [
        ("미분양 주택 52,310호", "미분양 주택 5만2310명"),
        ("1990년 이래 3위", "1990년 이래 네 번째"),
        ("1990년 이래 3위", "1990년 이래 3회"),
        # 차 stays a round: a first round is nobody's first time
        ("1차 사업", "첫 번째 사업"),
    ],
)
def test_it_keeps_counters_of_other_things_apart(source: str, article: str) -> None:
    assert unsupported(f"{article}가 참여한다.", f"{source}가 참여한다.") != []


def test_it_does_not_read_a_school_period_as_a_count_of_schools() -> None:
    assert keys("3교시 수업") == []


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("한 곳", "1|곳"),
        ("두 배", "2|배"),
        ("세 번째", "3|번째"),
        ("열 명", "10|명"),
        ("스물두 개", "22|개"),
        ("첫째", "1|번째"),
        ("둘째", "2|번째"),
        ("첫 번째", "1|번째"),
        ("석 달", "3|개월"),
        ("다섯 가지", "5|가지"),
    ],
)
def test_it_reads_hangul_numerals_and_ordinals(text: str, key: str) -> None:
    assert keys(f"{text}다.") == [key]


@pytest.mark.parametrize("text", ["한 번 더 말했다.", "세수가 줄었다.", "한 해 동안", "세 부담", "두 사람은"])
def test_it_reads_no_figure_where_a_numeral_word_is_not_a_count(text: str) -> None:
    assert [k for k in keys(text) if not k.endswith("|명")] == []


@pytest.mark.parametrize(
    ("source", "article", "changed"),
    [
        ("수출이 2배로 늘었다.", "수출이 두 배로 늘었다.", "수출이 세 배로 늘었다."),
        ("두 번째 회의다.", "2번째 회의다.", "세 번째 회의다."),
        ("10명이 참석했다.", "열 명이 참석했다.", "아홉 명이 참석했다."),
        ("첫째 아이는 딸이다.", "첫 번째 아이는 딸이다.", "둘째 아이는 딸이다."),
    ],
)
def test_it_checks_hangul_numerals_like_digits(source: str, article: str, changed: str) -> None:
    assert unsupported(article, source) == []
    assert unsupported(changed, source) != []


def test_it_reads_1_year_before_as_the_comparison_base_not_as_a_figure() -> None:
    assert keys("1년 전보다 5.2% 늘었다.") == ["5.2|%"]
    assert keys("1년 만에 다시 열렸다.") == ["1|년"]


@pytest.mark.parametrize(
    ("source", "article"),
    [
        ("중국(3, 300만 달러, 125.4%↑)", "중국 수출은 3300만 달러였다."),
        ("고등어(700만 달러, 2 45.5%↑)", "고등어는 245.5% 늘었다."),
    ],
)
def test_it_rejoins_numbers_that_pdf_text_broke_apart(source: str, article: str) -> None:
    assert unsupported(article, source) == []


def test_it_confirms_a_figure_rounded_to_the_magnitude_the_article_writes() -> None:
    source = "전체 학생 수는 5,684,745명이다."
    assert unsupported("전체 학생 수는 568만명이다.", source) == []
    assert unsupported("전체 학생 수는 570만명이다.", source) == ["570만명"]


@pytest.mark.parametrize(
    ("text", "key"), [("이틀", "2|일"), ("사흘", "3|일"), ("열흘", "10|일"), ("보름", "15|일")]
)
def test_it_reads_days_counted_in_native_words(text: str, key: str) -> None:
    assert keys(f"{text} 전이다.") == [key]


def test_it_does_not_read_haru_because_it_is_as_often_the_day_before() -> None:
    assert keys("하루 전 공지했다.") == []


@pytest.mark.parametrize(
    ("article", "flagged"),
    [
        ("반면 도매 및 소매업과 제조업 두 업종은 줄었다.", False),
        ("반면 도매 및 소매업과 제조업 세 업종은 줄었다.", True),
        ("실업률과 물가상승률 두 지표를 언급했다.", False),
    ],
)
def test_it_checks_a_numeral_that_sums_up_a_list_against_the_list(article: str, flagged: bool) -> None:
    assert bool(unsupported(article, "관련 없는 자료다.")) is flagged


def test_it_counts_a_list_written_out_in_the_source() -> None:
    source = "요양병원과 정신병원(폐쇄병동), 요양시설, 종교시설을 고위험집단으로 지정했다."
    assert unsupported("고위험집단으로 지정된 네 종류의 시설", source) == []
    assert unsupported("고위험집단으로 지정된 다섯 종류의 시설", source) != []


def test_it_checks_a_counted_list_of_several_words_per_item_against_the_list() -> None:
    article = "가족의 정의로는 ‘혈연관계’와 ‘법적 연결관계’ 두 가지에 대한 동의가 높았다."
    source = "혈연관계 법적 연결관계"  # the two names are in it (they are checked as quotes), no list is
    assert unsupported(article, source) == []
    assert unsupported(article.replace("두 가지", "세 가지"), source) != []


@pytest.mark.parametrize(
    ("written", "key"),
    [
        ("7800여 곳", "7800|곳"),
        ("31만8000여 가구", "318000|가구"),
        ("1천 2백 여건", "1200|건"),
        ("30여 명", "30|명"),
        ("1만여명", "10000|명"),
    ],
)
def test_it_keeps_the_unit_of_an_approximate_figure_written_with_yeo(written: str, key: str) -> None:
    assert keys(f"모두 {written}이다.") == [key]


def test_it_flags_an_approximate_count_given_the_unit_of_another_thing() -> None:
    source = "지원 대상은 기초생활수급가구 31만 8천여 가구, 경로당 7천 8백여 곳이다."
    assert unsupported("지원 대상은 기초생활수급가구 7800여 가구다.", source) == ["7800여 가구"]


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("평균기온은 24.7도로 높았다.", "24.7|℃"),
        ("평년보다 1.0도 높았다.", "1|℃"),
        ("아침 기온이 영하 10도까지 떨어졌다.", "10|℃"),
        ("낮 최고기온이 35도를 넘었다.", "35|℃"),
        ("수온은 28도였다.", "28|℃"),
        # 도 is also the particle "also": a whole figure without a word of temperature stays bare
        ("지수가 3000도 무너졌다.", "3000|"),
        ("참가자 25도 포함된다.", "25|"),
    ],
)
def test_it_reads_degrees_written_with_do_only_where_they_are_a_temperature(text: str, key: str) -> None:
    assert keys(text) == [key]


def test_a_bare_release_figure_on_a_line_about_temperature_supports_degrees() -> None:
    source = "관측이래 일최고기온 극값 경신 지점: (8월 3일) 울진 37.3 (2위), 강릉 38.4 (5위)"
    assert unsupported("울진이 37.3도, 강릉이 38.4도까지 올랐다.", source) == []
    assert unsupported("울진이 37.5도까지 올랐다.", source) == ["37.5도"]
    # elsewhere a bare figure is no temperature
    assert unsupported("울진이 37.3도까지 올랐다.", "울진 지점 37.3 (2위)") == ["37.3도"]


@pytest.mark.parametrize(
    "text", ["첫째로 예산을 늘린다.", "둘째, 인력을 늘린다.", "청년 세대를 위한 사업이다."]
)
def test_it_reads_no_figure_in_an_enumerator_or_a_noun_spelled_like_a_count(text: str) -> None:
    assert keys(text) == []


def test_it_reads_a_ratio_to_one_in_either_spelling() -> None:
    assert keys("경쟁률은 5.22:1이다.") == keys("경쟁률은 5.22대 1이다.") == ["5.22|대1"]

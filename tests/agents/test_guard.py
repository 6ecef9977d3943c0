"""The deterministic fact guard: sentences, normalisation rules, source lookup, mutations and speed.

Long Korean texts use backslash line continuations: a line ending in "\\" goes on without a break,
so a blank line is a paragraph break and nothing else is.
"""

from __future__ import annotations

import random
import re
import time
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date

import pytest

from agents.guard import (
    Fact,
    Sentence,
    check_article,
    extract_facts,
    find_unsupported,
    join_sentences,
    normalize_body,
    split_sentences,
)


def keys(text: str, *, reference: date | None = None) -> list[str]:
    return [fact.key for fact in extract_facts(text, reference=reference)]


def texts(body: str) -> list[str]:
    return [sentence.text for sentence in split_sentences(body)]


def unsupported(article: str, *sources: str, reference: date | None = None) -> list[str]:
    return [fact.text for fact in find_unsupported(text=article, sources=sources, reference=reference)]


# --- three press releases and clean articles made from them -----------------------------------
SEOUL_RELEASE = """\
서울시, 올해 청년 월세 지원에 1,200억원 투입…지원 인원 4만5000명으로 확대

서울시는 청년층의 주거비 부담을 덜기 위해 올해 청년 월세 지원 사업에 \
총 1,200억원을 투입한다고 5일 밝혔다. 지원 인원은 지난해 3만2000명에서 \
올해 4만5000명으로 40.6% 늘어난다.

지원 대상은 서울에 거주하는 만 19~39세 무주택 청년으로, 기준 중위소득 150% \
이하이면 신청할 수 있다. 선정된 청년은 월 최대 20만원씩 12개월 동안 지원받는다. \
신청은 2026년 3월 16일부터 4월 3일까지 서울주거포털에서 받으며, 결과는 \
5월 22일 발표한다.

시는 역세권 청년주택 2,400가구도 연내 추가로 공급한다. 이 가운데 840가구는 \
신혼부부에게 우선 배정한다. 서울의 청년 1인 가구 비율은 2025년 기준 36.8%로, \
10년 전보다 9.2%포인트 높아졌다.

오세훈 서울시장은 "청년이 주거비 걱정 없이 미래를 준비할 수 있도록 지원을 \
계속 넓히겠다"며 "올해는 소득 기준을 낮춰 더 많은 청년이 혜택을 받도록 했다"고 \
말했다.

김영철 서울시 주택정책실장은 “신청 절차를 온라인으로 단순화해 평균 처리 기간을 \
21일에서 7일로 줄였다”고 설명했다. 시는 오는 3월 12일 오후 2시 시청 다목적홀에서 \
사업 설명회를 연다.

문의: 서울시 주택정책과 02-2133-7011
"""

SEOUL_ARTICLE = """\
서울시가 올해 청년 월세 지원 사업에 1200억 원을 쓴다. 지원 인원도 4만5000명으로 \
지난해(3만2000명)보다 40.6% 늘린다.

서울시는 지난 5일 이런 내용의 청년 주거 지원 계획을 내놨다. 서울에 사는 만 19~39세 \
무주택 청년 가운데 기준 중위소득 150% 이하면 신청할 수 있고, 선정되면 12개월 동안 \
월 최대 20만 원을 받는다.

신청 기간은 3월 16일부터 4월 3일까지이며, 결과는 5월 22일 나온다. 사업 설명회는 \
오는 12일 오후 2시 시청에서 열린다.

역세권 청년주택도 연내 2400가구가 추가 공급되고, 이 중 840가구는 신혼부부 몫이다. \
서울의 청년 1인 가구 비율은 2025년 36.8%로 10년 새 9.2%p 올랐다.

오세훈 서울시장은 “청년이 주거비 걱정 없이 미래를 준비할 수 있도록 지원을 계속 \
넓히겠다”고 했다. 김영철 주택정책실장은 "신청 절차를 온라인으로 단순화해 평균 처리 \
기간을 21일에서 7일로 줄였다"고 밝혔다.
"""

EXPORT_RELEASE = """\
2월 수출 587억 달러, 전년 대비 12.4% 증가…반도체 역대 2월 최대

산업통상자원부는 2026년 2월 수출이 지난해 같은 달보다 12.4% 증가한 587억 달러를 \
기록했다고 1일 밝혔다. 반도체 수출은 142억 달러로 역대 2월 가운데 가장 많았고, \
자동차 수출도 61억 달러로 8.7% 늘었다.

수입은 3.1% 감소한 541억 달러로, 무역수지는 46억 달러 흑자를 냈다. 무역수지는 \
2025년 6월 이후 9개월 연속 흑자 흐름을 이어갔다.

15대 주력 품목 가운데 11개 품목의 수출이 늘었다. 지역별로는 9대 주요 지역 중 \
7곳에서 수출이 증가했으며, 대중국 수출은 118억 달러로 5.2% 늘었다. 조업일수를 \
고려한 일평균 수출액은 26억7000만 달러로 집계됐다.

안덕근 산업통상자원부 장관은 "반도체와 자동차가 수출 증가세를 이끌고 있다"며 \
"올해 수출 7,000억 달러 달성을 위해 무역금융 366조원을 차질 없이 공급하겠다"고 말했다.

정부는 오는 12일 제3차 수출전략회의를 열어 중소기업 수출 지원 대책을 발표한다. \
이번 대책에는 물류비 지원 한도를 기업당 3,000만원에서 5,000만원으로 늘리는 방안이 \
담길 예정이다.
"""

EXPORT_ARTICLE = """\
2월 수출이 587억 달러로 전년 같은 달보다 12.4% 늘었다. 산업통상자원부가 지난 1일 \
내놓은 2월 수출입 동향을 보면 반도체 수출이 142억 달러로 역대 2월 가운데 가장 \
많았고, 자동차 수출도 8.7% 증가한 61억 달러였다.

수입은 541억 달러로 3.1% 줄었다. 이에 따라 무역수지는 46억 달러 흑자로, 2025년 6월 \
이후 9개월째 흑자를 이어갔다.

15대 주력 품목 중 11개 품목과 9대 주요 지역 중 7곳에서 수출이 늘었다. 대중국 \
수출은 5.2% 증가한 118억 달러였고, 일평균 수출액은 26억7000만 달러로 집계됐다.

안덕근 산업통상자원부 장관은 “반도체와 자동차가 수출 증가세를 이끌고 있다”며 \
“올해 수출 7,000억 달러 달성을 위해 무역금융 366조원을 차질 없이 공급하겠다”고 말했다.

정부는 오는 12일 제3차 수출전략회의에서 중소기업 수출 지원 대책을 내놓는다. 기업당 \
물류비 지원 한도를 3000만 원에서 5000만 원으로 늘리는 방안이 포함된다.
"""

PLANT_RELEASE = """\
한빛에너지, 새만금에 2조3000억원 투자…양극재 12만t 공장 짓는다

한빛에너지는 전북 새만금 국가산업단지에 2조 3,000억원을 들여 이차전지 양극재 공장을 \
짓는다고 10일 밝혔다. 공장은 2026년 4월 착공해 2027년 6월 준공할 예정이며, 연간 \
생산능력은 12만t이다. 전기차 약 140만 대에 들어가는 양이다.

새 공장이 가동되면 직접 고용 인원은 850명, 협력업체를 포함한 간접 고용은 2,300명에 \
이를 것으로 회사는 내다봤다. 한빛에너지의 지난해 매출은 4조 8,700억원으로 전년보다 \
23.5% 늘었고, 영업이익은 3,120억원을 기록했다.

회사는 이날 전북도청에서 전북도, 군산시와 투자협약을 맺었다. 협약식은 오후 2시 \
30분부터 1시간 동안 진행됐다.

박정훈 한빛에너지 대표는 “새만금 공장을 글로벌 양극재 공급망의 핵심 거점으로 \
키우겠다”며 “지역 인재를 우선 채용해 지역 경제에 기여하겠다”고 말했다.

김관영 전북도지사는 "이번 투자는 도내 제조업 역사상 최대 규모"라며 "인허가 기간을 \
6개월 이내로 줄이도록 행정 지원을 아끼지 않겠다"고 밝혔다.

한빛에너지는 2030년까지 양극재 생산능력을 연 40만t으로 늘린다는 계획이다. 현재 \
국내외 4곳에서 공장을 운영하고 있다.
"""

PLANT_ARTICLE = """\
한빛에너지가 전북 새만금에 2조3000억 원을 투자해 연간 12만t 규모의 이차전지 양극재 \
공장을 세운다. 전기차 약 140만 대분에 해당하는 생산능력이다.

한빛에너지는 10일 전북도청에서 전북도, 군산시와 투자협약을 맺고 이 같은 계획을 \
밝혔다. 공장은 2026년 4월 착공해 2027년 6월 준공된다. 협약식은 오후 2시 30분부터 \
1시간가량 열렸다.

회사는 공장이 가동되면 직접 고용 850명, 협력업체를 포함한 간접 고용 2300명의 \
일자리가 생길 것으로 예상했다. 한빛에너지의 지난해 매출은 4조 8700억 원으로 23.5% \
증가했고, 영업이익은 3120억 원이었다.

박정훈 대표는 “새만금 공장을 글로벌 양극재 공급망의 핵심 거점으로 키우겠다”고 말했다. \
김관영 전북도지사는 “인허가 기간을 6개월 이내로 줄이도록 행정 지원을 아끼지 \
않겠다”고 했다.

회사는 2030년까지 생산능력을 연 40만t으로 늘릴 계획이다. 현재 국내외 4곳에서 공장을 \
운영 중이다.
"""


@dataclass(frozen=True)
class Case:
    name: str
    release: str
    article: str
    reference: date  # the article's date


CASES = (
    Case("seoul", SEOUL_RELEASE, SEOUL_ARTICLE, date(2026, 3, 6)),
    Case("export", EXPORT_RELEASE, EXPORT_ARTICLE, date(2026, 3, 2)),
    Case("plant", PLANT_RELEASE, PLANT_ARTICLE, date(2026, 3, 10)),
)

TRICKY_BODIES = (
    "",
    "  \n\n \t \n",
    "한 문장뿐이다",
    "첫 문장이다.  둘째 문장이다.\t셋째 문장이다.\r\n\r\n\r\n다음 문단이다.",
    '그는 "첫째다. 둘째다"라고 말했다. 이어 “셋째다! 넷째다?”라고 했다. 끝.',
    "U.S. 정부와 Dr. Kim은 No. 1 과제를 논의했다. 금리는 3.5% 올랐다. 1.2조원이 풀린다.",
    "1. 개요\n2. 주요 내용\n일정은 2026. 3. 5.(목) 오후 2시다. 장소는 시청이다.",
    "“규제를 풀겠다.” 김 장관은 이렇게 말했다. 그러나… 업계 반응은 엇갈렸다.",
    "그가 '혁신'을 말했다. 그러나 \"따옴표가 닫히지 않았다. 다음 문장은 나뉘어야 한다.",
    "매출(전년 대비 3.2% 증가. 잠정치)은 1조원이다. 영업이익은 Moody's 기준이다.",
    "첫 줄\n둘째 줄\n\n\n\n셋째 줄. 넷째 문장!",
    "문장 끝에 닫는 괄호가 있다.) 그 다음 문장이다. 「책 제목. 부제」는 하나다.",
)


# --- sentences ----------------------------------------------------------------------------------
def test_it_splits_after_a_period_followed_by_a_space() -> None:
    assert texts("서울시는 5일 밝혔다. 지원 대상은 청년이다.") == [
        "서울시는 5일 밝혔다.",
        "지원 대상은 청년이다.",
    ]


def test_it_splits_after_question_and_exclamation_marks_and_the_ellipsis() -> None:
    body = "정말 그럴까? 그렇다! 하지만… 아직 이르다."
    assert texts(body) == ["정말 그럴까?", "그렇다!", "하지만…", "아직 이르다."]


def test_it_never_splits_inside_curly_double_quotes() -> None:
    body = "그는 “규제를 풀겠다. 기업이 살아야 한다”고 말했다. 다음 문장이다."
    assert texts(body) == ["그는 “규제를 풀겠다. 기업이 살아야 한다”고 말했다.", "다음 문장이다."]


def test_it_never_splits_inside_straight_double_quotes() -> None:
    body = '장관은 "수출이 늘었다. 내년에도 늘 것이다"라고 했다. 끝이다.'
    assert texts(body) == ['장관은 "수출이 늘었다. 내년에도 늘 것이다"라고 했다.', "끝이다."]


@pytest.mark.parametrize(("opener", "closer"), [("‘", "’"), ("「", "」"), ("『", "』"), ("'", "'")])
def test_it_never_splits_inside_single_quotes_or_corner_brackets(opener: str, closer: str) -> None:
    body = f"그는 {opener}첫째다. 둘째다{closer}라고 적었다. 끝이다."
    assert texts(body) == [f"그는 {opener}첫째다. 둘째다{closer}라고 적었다.", "끝이다."]


def test_it_closes_a_sentence_after_the_closing_quote_when_it_ends_with_da_dot_quote() -> None:
    assert texts("“규제를 풀겠다.” 김 장관은 말했다.") == ["“규제를 풀겠다.”", "김 장관은 말했다."]
    assert texts('"규제를 풀겠다." 김 장관은 말했다.') == ['"규제를 풀겠다."', "김 장관은 말했다."]


def test_it_never_splits_inside_decimal_numbers() -> None:
    assert texts("금리는 3.5% 올랐다. 1.2조원이 풀린다.") == ["금리는 3.5% 올랐다.", "1.2조원이 풀린다."]


@pytest.mark.parametrize("abbreviation", ["U.S.", "U.N.", "No.", "Dr.", "Mr.", "vs.", "J.", "e.g."])
def test_it_never_splits_after_abbreviations_and_initials(abbreviation: str) -> None:
    body = f"이번 회의에는 {abbreviation} 대표단이 참석했다. 다음 문장이다."
    assert texts(body) == [f"이번 회의에는 {abbreviation} 대표단이 참석했다.", "다음 문장이다."]


def test_it_never_splits_after_list_numbers_or_dotted_dates() -> None:
    assert texts("1. 개요") == ["1. 개요"]
    assert texts("일정은 2026. 3. 5. 오후다. 끝.") == ["일정은 2026. 3. 5. 오후다.", "끝."]


def test_it_ignores_an_unmatched_quote_mark_instead_of_gluing_the_paragraph() -> None:
    body = '그러나 "따옴표가 닫히지 않았다. 다음 문장은 나뉘어야 한다.'
    assert texts(body) == ['그러나 "따옴표가 닫히지 않았다.', "다음 문장은 나뉘어야 한다."]


def test_it_does_not_take_an_apostrophe_for_a_quote() -> None:
    assert texts("Moody's 등급이 올랐다. 끝이다.") == ["Moody's 등급이 올랐다.", "끝이다."]


def test_it_numbers_sentences_from_one_and_paragraphs_from_zero() -> None:
    sentences = split_sentences("첫 문장. 둘째 문장.\n\n셋째 문장.\n넷째 문장.")
    assert sentences == [
        Sentence(1, "첫 문장.", 0),
        Sentence(2, "둘째 문장.", 0),
        Sentence(3, "셋째 문장.", 1),
        Sentence(4, "넷째 문장.", 2),
    ]


def test_it_treats_every_non_empty_line_as_a_paragraph() -> None:
    assert [s.paragraph for s in split_sentences("가.\n나.\n\n\n다.")] == [0, 1, 2]


def test_it_normalizes_lines_spaces_and_blank_lines() -> None:
    body = "  첫  문단\t입니다.  \r\n\r\n\r\n 둘째\u3000문단 \n\n"
    assert normalize_body(body) == "첫 문단 입니다.\n\n둘째 문단"


def test_it_normalizes_an_empty_body_to_an_empty_string() -> None:
    assert normalize_body(" \n\t\n") == ""
    assert split_sentences(" \n\t\n") == []


@pytest.mark.parametrize(
    "body",
    [c.release for c in CASES] + [c.article for c in CASES] + list(TRICKY_BODIES),
    ids=[f"release-{c.name}" for c in CASES]
    + [f"article-{c.name}" for c in CASES]
    + [f"tricky-{i}" for i in range(len(TRICKY_BODIES))],
)
def test_it_rebuilds_the_normalized_body_from_its_sentences(body: str) -> None:
    assert join_sentences(split_sentences(body)) == normalize_body(body)


def test_it_rebuilds_a_body_without_the_sentences_the_caller_deleted() -> None:
    sentences = split_sentences("가다. 나다. 다다.\n\n라다.")
    kept = [s for s in sentences if s.index not in (2, 4)]
    assert join_sentences(kept) == "가다. 다다."


# --- numbers ------------------------------------------------------------------------------------
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


# --- dates --------------------------------------------------------------------------------------
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
    (finding,) = check_article(body="3월 16일부터 받는다.", sources=["신청은 2026년 3월 16일부터 받는다."])
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
    assert unsupported("오후 3시에 열린다.", "오후 3시 30분에 열린다.") == ["오후 3시"]


# --- quotes -------------------------------------------------------------------------------------
def test_it_keys_a_quote_by_its_words_without_spaces_or_punctuation() -> None:
    assert keys("그는 “규제를 풀겠다”고 말했다.") == ["q:규제를풀겠다"]
    assert keys('그는 "규제를, 풀겠다!"고 말했다.') == ["q:규제를풀겠다"]


def test_it_supports_a_quote_whose_words_appear_in_a_source_with_other_marks_and_spacing() -> None:
    source = '장관은 "규제를  풀겠다. 기업이 살아야 한다"며 말했다.'
    assert unsupported("장관은 “규제를 풀겠다”고 했다.", source) == []
    assert unsupported("장관은 「기업이 살아야 한다」고 했다.", source) == []


def test_it_flags_a_quote_with_one_word_changed() -> None:
    source = "장관은 “규제를 과감히 풀겠다”고 말했다."
    assert unsupported("장관은 “규제를 신속히 풀겠다”고 말했다.", source) == ["“규제를 신속히 풀겠다”"]


def test_it_ignores_short_double_quotes_and_short_single_quotes() -> None:
    assert keys("이른바 “K팝” 열풍") == []
    assert keys("이른바 ‘혁신 성장’ 전략") == []
    assert keys("이른바 '혁신 성장' 전략") == []


def test_it_treats_long_single_quotes_as_quotes() -> None:
    assert keys("그는 ‘청년이 살아야 나라가 산다’고 했다.") == ["q:청년이살아야나라가산다"]


def test_it_treats_corner_brackets_as_quotes() -> None:
    assert keys("그는 『채식주의자』를 읽었다.") == ["q:채식주의자"]


def test_it_checks_numbers_inside_a_quote_as_numbers_too() -> None:
    facts = extract_facts("그는 “예산 1,200억원을 쓰겠다”고 했다.")
    assert [(f.kind, f.key) for f in facts] == [
        ("quote", "q:예산1200억원을쓰겠다"),
        ("number", "120000000000|원"),
    ]


# --- check_article ------------------------------------------------------------------------------
def test_it_reports_every_fact_with_the_sentence_it_came_from() -> None:
    findings = check_article(body="가 1,200억원. 나 3명.\n\n다 5월 22일.", sources=["1200억 원, 5월 22일"])
    assert [(f.fact.sentence, f.fact.text, f.supported) for f in findings] == [
        (1, "1,200억원", True),
        (2, "3명", False),
        (3, "5월 22일", True),
    ]


def test_it_gives_evidence_of_at_most_120_characters_around_the_match() -> None:
    source = "가" * 500 + " 사업비 1200억 원을 들인다. " + "나" * 500
    (finding,) = check_article(body="사업비는 1,200억원이다.", sources=[source])
    assert finding.supported
    assert "1200억 원" in finding.evidence
    assert len(finding.evidence) <= 120


def test_it_gives_quote_evidence_from_the_original_source_text() -> None:
    source = "서두. 장관은 “규제를 풀겠다”고 말했다. 끝."
    (finding,) = check_article(body="장관은 “규제를 풀겠다”고 했다.", sources=[source])
    assert "규제를 풀겠다" in finding.evidence


def test_it_gives_no_evidence_for_an_unsupported_fact() -> None:
    (finding,) = check_article(body="3명이다.", sources=["4명이다."])
    assert not finding.supported
    assert finding.evidence == ""


def test_it_looks_in_every_source() -> None:
    assert unsupported("1,200억원과 850명", "1200억 원", "850명") == []


def test_it_does_not_match_a_quote_across_two_sources() -> None:
    assert unsupported("“규제를 과감히 풀겠다”", "규제를 과감히", "풀겠다") == ["“규제를 과감히 풀겠다”"]


def test_it_returns_plain_facts_with_sentence_zero() -> None:
    assert extract_facts("850명") == [Fact("number", "850명", "850|명", 0)]


# --- clean articles and mutations ---------------------------------------------------------------
@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
@pytest.mark.parametrize("with_reference", [True, False])
def test_it_flags_nothing_in_a_clean_article(case: Case, with_reference: bool) -> None:
    reference = case.reference if with_reference else None
    findings = check_article(body=case.article, sources=[case.release], reference=reference)
    assert [f.fact for f in findings if not f.supported] == []
    assert len(findings) >= 20


def _reformatted(article: str) -> Iterator[str]:
    """The same article with equal amounts written another way: every variant is still clean."""
    yield re.sub(r"(\d),(\d{3})", r"\1\2", article)
    yield re.sub(r"([억만]) 원", r"\1원", article)
    yield re.sub(r"([억만])원", r"\1 원", article)
    yield article.replace("%p", "%포인트").replace("%", "퍼센트")
    yield "\n".join(reversed(article.splitlines()))


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_it_flags_nothing_when_amounts_are_written_another_way(case: Case) -> None:
    for variant in _reformatted(case.article):
        assert find_unsupported(text=variant, sources=[case.release], reference=case.reference) == []


@dataclass(frozen=True)
class Mutation:
    kind: str
    before: str
    after: str
    article: str


def _appears(token: str, source: str) -> bool:
    """Whether the mutated token is written in the source anyway (then it is no fabrication)."""
    return re.search(rf"(?<![\d.,]){re.escape(token)}(?![\d])", source) is not None


def _around(text: str, start: int, end: int) -> tuple[int, int]:
    """The number around a position plus what follows it up to the next space: "1,200억원을"."""
    while start > 0 and (text[start - 1].isdigit() or text[start - 1] in ",."):
        start -= 1
    while end < len(text) and not text[end].isspace():
        end += 1
    return start, end


def _digit_mutations(case: Case) -> Iterator[Mutation]:
    article = case.article
    for position, char in enumerate(article):
        if not char.isdigit():
            continue
        for step in (1, 9):
            new = str((int(char) + step) % 10)
            mutated = article[:position] + new + article[position + 1 :]
            start, end = _around(mutated, position, position + 1)
            yield Mutation("digit", article[start:end], mutated[start:end], mutated)


UNIT_SWAPS = {
    "억": "조",
    "조": "억",
    "만": "억",
    "명": "건",
    "건": "명",
    "%p": "%",
    "%": "%p",
    "달러": "원",
    "원": "달러",
    "가구": "명",
    "개월": "년",
    "년": "개월",
    "곳": "개",
    "개": "곳",
    "t": "kg",
    "대": "명",
    "세": "명",
    "인": "명",
    "시간": "분",
    "차": "회",
}
_SWAP = re.compile("|".join(sorted(map(re.escape, UNIT_SWAPS), key=len, reverse=True)))


def _unit_mutations(case: Case) -> Iterator[Mutation]:
    for fact in _facts(case, "number"):
        start = case.article.index(fact.text)
        for match in _SWAP.finditer(fact.text):
            new_text = fact.text[: match.start()] + UNIT_SWAPS[match.group()] + fact.text[match.end() :]
            mutated = case.article[:start] + new_text + case.article[start + len(fact.text) :]
            yield Mutation("unit", fact.text, new_text, mutated)


def _date_mutations(case: Case) -> Iterator[Mutation]:
    shifts = {
        "일": lambda n: n % 28 + 1,
        "월": lambda n: n % 12 + 1,
        "년": lambda n: n + 1,
        "시": lambda n: n % 11 + 1,
    }
    for fact in _facts(case, "date"):
        start = case.article.index(fact.text)
        for match in re.finditer(r"(\d+)\s?([일월년시])", fact.text):
            number = shifts[match.group(2)](int(match.group(1)))
            new_text = fact.text[: match.start(1)] + str(number) + fact.text[match.end(1) :]
            mutated = case.article[:start] + new_text + case.article[start + len(fact.text) :]
            yield Mutation("date", fact.text, new_text, mutated)


def _quote_mutations(case: Case) -> Iterator[Mutation]:
    for fact in _facts(case, "quote"):
        start = case.article.index(fact.text)
        words = fact.text.split(" ")
        for i, word in enumerate(words):
            replacement = "반드시" if "반드시" not in word else "결코"
            opener, closer = (word[0], "") if i == 0 else ("", word[-1]) if i == len(words) - 1 else ("", "")
            new_text = " ".join([*words[:i], opener + replacement + closer, *words[i + 1 :]])
            mutated = case.article[:start] + new_text + case.article[start + len(fact.text) :]
            yield Mutation("quote", fact.text, new_text, mutated)


NEW_SENTENCES = (
    "이번 사업에는 예비비 {n}억원이 추가로 편성됐다.",
    "관련 문의는 하루 평균 {n}건 접수됐다.",
    "설명회 참석자는 {n}명이었다.",
    "이 비율은 {n}.4%로 집계됐다.",
    "후속 회의는 {m}월 {d}일 열린다.",
    "담당자는 “{n}개 과제를 연내 마무리하겠다”고 덧붙였다.",
)


def _new_sentence_mutations(case: Case) -> Iterator[Mutation]:
    lines = case.article.strip().split("\n\n")
    for p, _ in enumerate(lines):
        for t, template in enumerate(NEW_SENTENCES):
            sentence = template.format(n=37 + 11 * p + 3 * t, m=(p + t) % 12 + 1, d=23 + t)
            mutated = "\n\n".join(line + (" " + sentence if i == p else "") for i, line in enumerate(lines))
            yield Mutation("new sentence", "", sentence, mutated)


def _facts(case: Case, kind: str) -> list[Fact]:
    return [f for f in extract_facts(case.article) if f.kind == kind]


def _mutations(case: Case) -> Iterator[Mutation]:
    for mutation in (
        *_digit_mutations(case),
        *_unit_mutations(case),
        *_date_mutations(case),
        *_quote_mutations(case),
        *_new_sentence_mutations(case),
    ):
        if mutation.kind == "new sentence" or not _appears(mutation.after, case.release):
            yield mutation


def _changed_sentence(clean: str, mutated: str) -> int:
    before, after = split_sentences(clean), split_sentences(mutated)
    return next(
        a.index for b, a in zip([*before, None], after, strict=False) if b is None or a.text != b.text
    )


def _is_flagged(case: Case, mutation: Mutation, reference: date | None) -> bool:
    """Flagged means: the sentence that changed has a fact the source does not support."""
    changed = _changed_sentence(case.article, mutation.article)
    findings = check_article(body=mutation.article, sources=[case.release], reference=reference)
    return any(f.fact.sentence == changed and not f.supported for f in findings)


def _mutation_report(reference_of: dict[str, date | None]) -> tuple[int, list[str]]:
    total, missed = 0, []
    for case in CASES:
        for mutation in _mutations(case):
            total += 1
            if not _is_flagged(case, mutation, reference_of[case.name]):
                missed.append(f"{case.name} {mutation.kind}: {mutation.before!r} → {mutation.after!r}")
    return total, missed


def test_it_flags_every_injected_mutation_without_a_reference_date() -> None:
    total, missed = _mutation_report({c.name: None for c in CASES})
    assert total >= 200
    assert missed == []


def test_it_flags_every_injected_mutation_with_the_article_date_as_reference() -> None:
    total, missed = _mutation_report({c.name: c.reference for c in CASES})
    assert total >= 200
    assert missed == []


def test_it_generates_mutations_of_every_kind() -> None:
    kinds = {m.kind for case in CASES for m in _mutations(case)}
    assert kinds == {"digit", "unit", "date", "quote", "new sentence"}


# --- speed --------------------------------------------------------------------------------------
def test_it_checks_a_1500_character_article_against_30k_characters_of_sources_quickly() -> None:
    article = normalize_body("\n".join(c.article for c in CASES))[:1500]
    releases = "\n".join(c.release for c in CASES)
    digits = random.Random(time.time_ns())
    # Every source gets its own figures and dates, so nothing is served from a cache.
    sources = [re.sub(r"\d", lambda _: str(digits.randint(0, 9)), releases) for _ in range(17)]
    assert sum(map(len, sources)) >= 30_000
    assert len(article) >= 1400
    started = time.perf_counter()
    findings = check_article(body=article, sources=sources, reference=date(2026, 3, 6))
    elapsed = time.perf_counter() - started
    assert len(findings) >= 40
    assert elapsed < 0.2, f"check_article took {elapsed * 1000:.0f} ms"

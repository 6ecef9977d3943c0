"""Tables read as tables: units of header labels, label(value) cells, header years, ratios."""

from __future__ import annotations

import pytest

from tests.agents.verification.guard.helpers import unsupported

BIRTHS = "〈표〉 연도별 출생아 수 (명)\n구분 2022 2023\n서울 45000 39000\n부산 15000 13000"
EXPORTS = "수출입 실적 (억 달러)\n구분 2022 2023\n수출 6836 6322"
RAIN = "계절별 강수량(mm): 봄(250.1), 여름(600.2), 가을(300.3), 겨울(28.1)"


@pytest.mark.parametrize(
    ("article", "source"),
    [
        ("서울 출생아는 2023년 3만9000명이다.", BIRTHS),
        ("수출은 2023년 6322억 달러였다.", EXPORTS),
        ("겨울 강수량은 28.1mm였다.", RAIN),
        ("평균 경쟁률은 5.22대 1이었다.", "평균 경쟁률은 5.22:1이었다."),
    ],
)
def test_it_reads_a_cell_with_the_unit_its_table_gives_it(article: str, source: str) -> None:
    assert unsupported(article, source) == []


def test_it_still_flags_a_value_no_cell_holds() -> None:
    assert unsupported("서울 출생아는 2023년 3만8000명이다.", BIRTHS) == ["3만8000명"]
    assert unsupported("평균 경쟁률은 5.32대 1이었다.", "평균 경쟁률은 5.22:1이었다.") == ["5.32대 1"]


# Real-shaped tables, one per form pages carry them. The sentence that names a column (or a row)
# and gives it the figure of another cell of the table is caught; the true cell is confirmed.
VOICE_PHISHING = (  # a unit line, tab-separated rows, several units chosen by the row
    "보이스피싱 피해현황 (단위 : 억원, 명, %, %p)\n"
    "구 분\t’18년\t’19년\t’20년\t’21년\t’22년\t전년대비 증감(률)\n"
    "피해금액\t4,440\t6,720\t2,353\t1,682\t1,451\t(△13.7)\n"
    "환급률\t22.8\t28.5\t48.5\t35.9\t26.1\t△9.8"
)
BUDGET = (  # a unit line, then a line of column labels, then a cell a line ending " |"
    "(단위 : 억원)\n"
    "2025년 예산규모의 구분, 2026 예산액, 2025 예산액, 증감액, 증감율(%) 항목에 대한 내용입니다.\n"
    "| 구분 |\n2026 예산 |\n2025 예산 |\n증감액 |\n증감률 |\n"
    "| 총 계 |\n9,417 |\n8,912 |\n505 |\n5.67% |\n"
    "| 일반회계 |\n9,122 |\n8,462 |\n660 |\n7.80% |"
)
ADMISSIONS = (  # ratios, a cell a line, a group label spanning rows
    "구분 |\n전형명 |\n모집인원 |\n지원인원 |\n경쟁률 |\n"
    "가군 |\n일반전형 |\n611 |\n2,235 |\n3.66 : 1 |\n"
    "지역인재전형 |\n31 |\n97 |\n3.13 : 1 |"
)
STAFF = (  # an HWP release's table: a cell a line after "구분", units in the cells
    "일반직 4급이상 이공계 현황\n구분\n2011년\n2012년\n2013년\n"
    "인원\n2,043명\n2,052명\n2,139명\n비율\n31.5%\n31.0%\n31.7%"
)
EXPORTS_SERIES = "* 역대 수출액(억 달러) : (’20년) 512, (’21년) 644"
SPACED = "단위 : 톤/일\n연 별  배출량  처리량\n2019  232.5  231.0\n2020  203.8  203.1"
SHARES = (  # single spaces part words and cells alike; the header's words grouped by unit label
    "지자체유형별 현장공무원 비율\n소속기관 비율(%) 읍면동 비율(%)\n"
    "산청군 49 27.1\n5만 미만 군 평균 47.6 22.7\n3만~5만 군 평균 48.1 23.5"
)


@pytest.mark.parametrize(
    ("article", "source"),
    [
        ("’22년 환급률은 26.1%로 집계됐다.", VOICE_PHISHING),
        ("2022년 보이스피싱 환급률은 26.1%였다.", VOICE_PHISHING),
        ("2025 예산 총 계는 8912억 원으로 집계됐다.", BUDGET),
        ("일반회계 증감액은 660억 원이다.", BUDGET),
        ("가군 지역인재전형 경쟁률은 3.13대 1이었다.", ADMISSIONS),
        ("2012년 인원은 2,052명으로 집계됐다.", STAFF),
        ("’21년 수출액은 644억 달러였다.", EXPORTS_SERIES),
        ("2020년 배출량은 203.8톤이었다.", SPACED),
        ("산청군 읍면동 비율은 27.1%다.", SHARES),
        ("5만 미만 군 평균 읍면동 비율은 22.7%다.", SHARES),
    ],
)
def test_a_cell_read_with_its_header_is_confirmed(article: str, source: str) -> None:
    assert unsupported(article, source) == []


@pytest.mark.parametrize(
    ("article", "source", "wrong"),
    [
        ("’22년 환급률은 22.8%로 집계됐다.", VOICE_PHISHING, "22.8%"),  # the ’18년 cell
        ("2025 예산 일반회계는 660억 원이다.", BUDGET, "660억 원"),  # the 증감액 cell
        ("가군 지역인재전형 경쟁률은 3.66대 1이었다.", ADMISSIONS, "3.66대 1"),  # 일반전형's
        ("2011년 인원은 2,052명으로 집계됐다.", STAFF, "2,052명"),  # 2012년's
        ("’21년 수출액은 512억 달러였다.", EXPORTS_SERIES, "512억 달러"),  # ’20년's
        ("겨울 강수량은 250.1mm였다.", RAIN, "250.1mm"),  # 봄's
        ("부산 출생아는 2023년 1만5000명이다.", BIRTHS, "1만5000명"),  # 2022's
        ("2020년 배출량은 232.5톤이었다.", SPACED, "232.5톤"),  # 2019's
        ("산청군 소속기관 비율은 27.1%다.", SHARES, "27.1%"),  # 읍면동's
        ("3만~5만 군 평균 읍면동 비율은 22.7%다.", SHARES, "22.7%"),  # the other row's
    ],
)
def test_a_cell_given_to_another_column_or_row_is_flagged(article: str, source: str, wrong: str) -> None:
    assert unsupported(article, source) == [wrong]


def test_a_value_the_prose_states_too_is_confirmed_first() -> None:
    # The table has 22.8 under ’18년, but the release also says it of ’22년 in a sentence.
    source = VOICE_PHISHING + "\n’22년 환급률은 22.8%로 잠정 집계됐다."
    assert unsupported("’22년 환급률은 22.8%였다.", source) == []


def test_a_sentence_naming_no_header_of_the_table_is_left_to_binding() -> None:
    assert unsupported("환급률은 22.8%였다.", VOICE_PHISHING) == []
    assert unsupported("수출액은 512억 달러였다.", EXPORTS_SERIES) == []


def test_a_misplaced_cell_is_a_suspect_of_its_own_family() -> None:
    from agents.verification.guard import article_findings

    findings = article_findings(body="’22년 환급률은 22.8%로 집계됐다.", sources=[VOICE_PHISHING])
    number = next(f for f in findings if f.fact.text == "22.8%")
    assert (number.status, number.rule) == ("suspect", "bind:table-cell")
    assert "26.1" in number.reason


def test_a_sentence_comparing_with_a_base_period_keeps_the_base_cell() -> None:
    # The base year's cell stands beside the named year's: not a figure given to another column.
    compared = unsupported("서울 출생아는 2023년 3만9000명으로 전년(4만5000명)보다 줄었다.", BIRTHS)
    assert "4만5000명" not in compared
    assert unsupported("2023년 서울 출생아는 3만9000명, 4만5000명이던 수가 줄었다.", BIRTHS) == []

"""Page ranges of long PDFs: what a reporter may type, and what reaches the model."""

from __future__ import annotations

import pytest

from agents.sources.files import PAGE_BREAK, PageRange, page_range_in_text, parse_page_range, pick_pages


@pytest.mark.parametrize(
    ("typed", "expected"),
    [("3-10", PageRange(3, 10)), ("3~10쪽", PageRange(3, 10)), (" 7 ", PageRange(7, 7)), ("", None)],
)
def test_a_reporter_types_a_range_the_usual_ways(typed: str, expected: PageRange | None) -> None:
    assert parse_page_range(typed) == expected


@pytest.mark.parametrize("typed", ["10-3", "0-2", "셋째 쪽", "3-"])
def test_a_range_that_is_not_one_gets_a_korean_message(typed: str) -> None:
    with pytest.raises(ValueError, match="쪽 범위"):
        parse_page_range(typed)


def document(pages: int, chars: int = 100) -> str:
    return f"\n{PAGE_BREAK}\n".join(f"{n}쪽 " + "가" * chars for n in range(1, pages + 1))


def test_the_chosen_pages_reach_the_model_and_nothing_else() -> None:
    text, warnings = pick_pages(document(200), pages=PageRange(150, 152))

    assert text.startswith("150쪽") and "152쪽" in text and "153쪽" not in text and "149쪽" not in text
    assert PAGE_BREAK not in text
    assert warnings == []


def test_text_beyond_what_the_model_can_take_is_left_out_and_named() -> None:
    text, [warning] = pick_pages(document(30, chars=1000), pages=None, max_chars=10_000)

    assert "9쪽" in text and "10쪽" not in text
    assert "10~30쪽" in warning and "10,000자" in warning


def test_a_range_past_the_end_reads_the_file_and_says_so() -> None:
    text, [warning] = pick_pages(document(5), pages=PageRange(8, 9))

    assert "1쪽" in text and "5쪽" in text
    assert "5쪽뿐" in warning


@pytest.mark.parametrize(
    ("message", "pages"),
    [
        ("3~10쪽으로 기사 써줘", "3-10"),
        ("이 파일 3쪽부터 10쪽까지 보고 써줘", "3-10"),
        ("12-15 페이지만 참고해", "12-15"),
        ("만 19~39세 청년 지원 기사 써줘", ""),
        ("10월 3~5일 행사 기사", ""),
    ],
)
def test_a_chat_message_names_its_pages_and_ages_or_dates_are_not_pages(message: str, pages: str) -> None:
    assert page_range_in_text(message) == pages

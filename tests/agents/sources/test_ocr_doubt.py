"""A number OCR reads confidently is still doubted when a "digit" sits lower than the others (a
unit's descender, a comma's tail); a second opinion (the number's crop read again) settles a
doubt only by agreeing with every digit sure in one reading, or by differing in exactly the
doubtful glyph; anything else stays blanked."""

from __future__ import annotations

from agents.sources.files import ocr_recheck
from agents.sources.files.ocr_doubt import odd_shaped, odd_zero, settled, suspects
from agents.sources.files.ocr_words import Glyph, Line, Word, apply, settles

TOP, HEIGHT, WIDTH = 100, 30, 20


def glyphs(text: str, *, confidence: float = 99.0, low: str = "", lower: str = "") -> list[Glyph]:
    """Glyphs set side by side; the characters in `low` read at 90, those at the positions in
    `lower` (indices as characters) set 8 pixels lower, as a descender sits."""
    found, left = [], 0
    for index, char in enumerate(text):
        top, bottom, width = TOP, TOP + HEIGHT, WIDTH
        if char in ".,":
            width, top = 5, bottom - 6
        if str(index) in lower:
            top, bottom = top + 8, bottom + 8
        found.append(Glyph(char, (left, top, left + width, bottom), 90.0 if char in low else confidence))
        left += width + 3
    return found


def test_a_digit_reaching_below_the_others_is_doubtful_however_confident() -> None:
    assert odd_shaped(glyphs("929.99", lower="5")) == {5}
    assert suspects(glyphs("929.99", lower="5"), 98) == {5}


def test_digits_on_one_baseline_read_confidently_are_not_doubtful() -> None:
    assert suspects(glyphs("929.9"), 98) == set()


def test_a_leading_zero_print_would_not_write_is_doubtful_and_no_agreeing_opinion_settles_it() -> None:
    first = glyphs("(02322")  # "(OZ322": letters read as digits, as sure as digits

    assert suspects(first, 98) == {1, 2, 3, 4, 5}
    assert settled(first, {1}, glyphs("(02322"), 98) is None  # both readings make the same slip


def test_a_leading_zero_in_the_forms_print_writes_is_not_doubtful() -> None:
    for text in ("3만0637호", "044-202-1234", "09:30", "0.125", "2020.09.01", "1,029", "(02)"):
        assert odd_zero(glyphs(text)) == set(), text


def test_an_opinion_that_drops_the_doubtful_digit_settles_it() -> None:
    first = glyphs("929.99", lower="5")

    assert settled(first, {5}, glyphs("929.9g"), 98) == "929.9"


def test_an_opinion_that_reads_a_doubtful_digit_as_a_comma_settles_it() -> None:
    first = glyphs("11029", lower="1")

    assert settled(first, {1}, glyphs("1,029"), 98) == "1,029"


def test_an_opinion_that_agrees_settles_a_doubt_when_each_digit_is_sure_in_one_reading() -> None:
    first = glyphs("2,398", low="3")

    assert settled(first, {2}, glyphs("2,398", low=","), 98) == "2,398"
    assert settled(first, {2}, glyphs("2,398", low="3"), 98) is None  # both unsure of the 3


def test_an_opinion_that_reads_another_digit_leaves_the_number_blanked() -> None:
    first = glyphs("100", lower="2")

    assert settled(first, {2}, glyphs("109"), 98) is None


def test_a_differing_opinion_unsure_of_itself_settles_nothing() -> None:
    first = glyphs("2020-09-011", low="")

    assert settled(first, {10}, glyphs("2020-09-01", low="2"), 98) is None


def test_a_doubtful_period_before_three_digits_is_never_settled() -> None:
    """A thousands comma and a decimal point look alike at any scale ("2.398억" printed "2,398억")."""
    first = glyphs("2.398", low=".")

    assert settled(first, {1}, glyphs("2.398"), 98) is None


def with_tail(found: list[Glyph], index: int) -> list[Glyph]:
    """The separator at `index` drawn as a comma: its box reaching below the digits' baseline."""
    left, top, right, bottom = found[index].box
    found[index] = Glyph(found[index].char, (left, top, right, bottom + 6), found[index].confidence)
    return found


def test_an_opinion_reading_a_comma_and_its_tail_as_two_separators_reads_one_comma() -> None:
    first = glyphs("2,380", low=",")
    opinion = glyphs("2,.380")

    assert settled(first, {1}, opinion, 98) == "2,380"


def test_a_comma_drawn_with_a_tail_is_a_comma_though_the_opinion_reads_a_period() -> None:
    opinion = glyphs("2.398억")

    assert settled(with_tail(glyphs("2,398", low=","), 1), {1}, opinion, 98) == "2,398"
    assert settled(glyphs("2,398", low=","), {1}, opinion, 98) is None  # no tail: which is it?
    assert settled(with_tail(glyphs("2,3981", low=","), 1), {1}, glyphs("2.3981"), 98) is None


def test_numbers_the_opinion_read_past_the_unit_are_not_its() -> None:
    first = glyphs("1,172", low="7")

    assert settled(first, {3}, glyphs("1,172명(2.2%)"), 98) == "1,172"
    assert settled(first, {3}, glyphs("1,1722.2"), 98) is None  # no letter between: one number


def test_a_separator_both_readings_read_fairly_surely_is_settled_but_not_a_digit() -> None:
    assert settled(glyphs("4,332", low=","), {1}, glyphs("4,332", low=","), 98) == "4,332"
    unsure_digit = glyphs("0.3506", low="6")

    assert settled(unsure_digit, {5}, glyphs("0.3506", low="6"), 98) is None


def test_the_trusted_text_shows_the_settled_number_and_blanks_the_unsettled_one() -> None:
    wrong = Word("929.99g", (0, TOP, 140, TOP + HEIGHT), 99, glyphs("929.99", lower="5"))
    wrong.text = "929.99"
    other = glyphs("100", lower="2")
    for glyph in other:
        glyph.box = (glyph.box[0] + 400, glyph.box[1], glyph.box[2] + 400, glyph.box[3])
    blanked = Word("100", (400, TOP, 470, TOP + HEIGHT), 99, other)
    opinions = {(0, 0): glyphs("929.9g"), (0, 1): glyphs("109")}

    reading = apply("929.99 100", [Line([wrong, blanked])], min_confidence=98, opinions=opinions)

    assert reading.trusted_text == "929.9 □□□"
    assert reading.uncertain == ["100"]


def test_a_third_opinion_settles_what_the_second_does_not_and_agrees_with_nothing_wrong() -> None:
    first = Word("2,398", (0, TOP, 100, TOP + HEIGHT), 99, glyphs("2,398", low="3"))
    unsettling = {(0, 0): glyphs("도")}  # the second opinion read something else
    agreeing, other = [{(0, 0): glyphs("2,398")}], [{(0, 0): glyphs("2,598")}]

    def trusted(third: list[dict[tuple[int, int], list[Glyph]]] | None) -> str:
        lines = [Line([first])]
        return apply(
            "2,398", lines, min_confidence=98, opinions=unsettling, third_opinions=third
        ).trusted_text

    assert trusted(None) == "□,□□□"
    assert trusted(agreeing) == "2,398"
    assert trusted(other) == "□,□□□"
    assert settles([first], unsettling[(0, 0)], min_confidence=98, confirmed=None) is False
    assert settles([first], agreeing[0][(0, 0)], min_confidence=98, confirmed=None) is True


def test_the_crops_at_every_size_go_through_one_run() -> None:
    from PIL import Image

    page = Image.new("L", (200, 100), 255)
    group = [Word("12", (10, 10, 40, 30), 90, glyphs("12"))]
    runs: list[list[tuple[int, int]]] = []

    def read_all(crops: list[Image.Image]) -> str:
        runs.append([crop.size for crop in crops])
        return "<div class='ocr_page'></div>" * len(crops)

    found = ocr_recheck.opinions(page, [((0, 0), group)], read_all=read_all, heights=(32, 64))

    assert len(runs) == 1 and len(runs[0]) == 2 and runs[0][0][1] < runs[0][1][1]
    assert found == [{(0, 0): []}, {(0, 0): []}]


def test_a_digit_in_text_no_hocr_word_covers_is_not_shown_as_sure() -> None:
    sure = Word("12", (0, TOP, 43, TOP + HEIGHT), 99, glyphs("12"))

    assert apply("12 3901/", [Line([sure])], min_confidence=98).trusted_text == "12 □□□□/"


def test_the_crops_of_one_run_come_back_as_one_hocr_page_each() -> None:
    hocr = "<body><div class='ocr_page' id='page_1'>a</div>\n<div class='ocr_page' id='page_2'>b</div></body>"

    first, second = ocr_recheck.split_pages(hocr)

    assert "page_1" in first and "page_2" not in first
    assert "page_2" in second


def test_crops_that_could_not_be_read_in_time_settle_nothing() -> None:
    from PIL import Image

    page = Image.new("L", (200, 60), 255)
    group = [Word("12", (10, 10, 50, 40), 90, glyphs("12", low="12"))]

    assert ocr_recheck.opinions(page, [((0, 0), group)], read_all=lambda crops: "") == [{}]

"""Numbers OCR split are put back together only where the page shows one token; numbers with an
unsure digit are blanked; a thousands comma read as a period is put back only when it has a tail."""

from __future__ import annotations

from agents.sources.files.ocr_words import Glyph, Line, Word, apply, numbers_in, parse_hocr

DIGIT_HEIGHT = 30
LETTER_GAP = 3  # the page's own gap between two letters of a word


def word(text: str, x: int, *, confidence: float = 99.0, unsure: str = "", comma_tail: bool = False) -> Word:
    """A word set from `x` with 20-pixel letters `LETTER_GAP` apart; letters in `unsure` read at 80."""
    glyphs, left = [], x
    for char in text:
        top, bottom, width = 100, 100 + DIGIT_HEIGHT, 20
        if char in ".,":
            width, top = 5, bottom - 6
            bottom += 8 if comma_tail else 0
        glyphs.append(Glyph(char, (left, top, left + width, bottom), 80.0 if char in unsure else confidence))
        left += width + LETTER_GAP
    return Word(text, (x, 100, left - LETTER_GAP, 100 + DIGIT_HEIGHT), confidence, glyphs)


def after(previous: Word, text: str, gap: int, **options: object) -> Word:
    return word(text, previous.box[2] + gap, **options)  # type: ignore[arg-type]


def read(text: str, *words: Word, min_confidence: float = 97) -> tuple[str, str]:
    reading = apply(text, [Line(list(words))], min_confidence=min_confidence)
    return reading.text, reading.trusted_text


def test_a_number_split_by_a_gap_no_wider_than_its_letter_spacing_is_joined() -> None:
    five = word("5", 0)
    rest = after(five, "87억", gap=LETTER_GAP + 4)

    assert read("예산 5 87억 원", word("예산", -200), five, rest) == ("예산 587억 원", "예산 587억 원")


def test_a_decimal_point_and_each_lone_digit_are_joined_back() -> None:
    eighteen = word("18.", 0)
    five = after(eighteen, "5%", gap=LETTER_GAP + 2)
    one = word("1", 300)
    zero = after(one, "0", gap=LETTER_GAP + 5)
    last = after(zero, "5", gap=LETTER_GAP + 5)

    text, _ = read("18. 5% 1 0 5", eighteen, five, one, zero, last)

    assert text == "18.5% 105"


def test_two_numbers_a_real_space_apart_stay_two_numbers() -> None:
    year = word("2023", 0)
    next_year = after(year, "2024", gap=LETTER_GAP + 14)  # a word space: half the digit height

    assert read("2023 2024", year, next_year)[0] == "2023 2024"


def test_numbers_in_neighbouring_table_cells_are_never_joined() -> None:
    count = word("11", 0)
    amount = after(count, "2,398억", gap=200)

    assert read("11 2,398억", count, amount)[0] == "11 2,398억"


def test_a_number_with_one_unsure_digit_is_blanked_whole_in_the_trusted_text_only() -> None:
    text, trusted = read("예산 587억 원", word("예산", -200), word("587억", 0, unsure="8"))

    assert text == "예산 587억 원" and trusted == "예산 □□□억 원"


def test_a_joined_number_is_blanked_whole_when_any_piece_is_unsure() -> None:
    five = word("5", 0, unsure="5")
    rest = after(five, "87억", gap=LETTER_GAP)

    assert read("5 87억", five, rest) == ("587억", "□□□억")


def test_letters_read_with_low_confidence_do_not_blank_a_sure_number() -> None:
    assert read("2024년", word("2024년", 0, unsure="년"))[1] == "2024년"


def test_a_period_with_a_comma_s_tail_before_a_thousands_group_becomes_a_comma() -> None:
    assert read("2.398억", word("2.398억", 0, comma_tail=True))[0] == "2,398억"


def test_a_real_decimal_point_stays_even_before_three_digits() -> None:
    assert read("합계출산율 1.187명", word("합계출산율", -300), word("1.187명", 0))[0] == "합계출산율 1.187명"


def test_tesseract_s_hocr_gives_words_with_boxes_and_per_letter_confidences() -> None:
    hocr = (
        "<div class='ocr_page'><span class='ocr_line' title='bbox 0 0 400 40'>"
        "<span class='ocrx_word' title='bbox 10 5 60 35; x_wconf 91'>"
        "<span class='ocrx_cinfo' title='x_bboxes 10 5 30 35; x_conf 99.1'>5</span>"
        "<span class='ocrx_cinfo' title='x_bboxes 40 5 60 35; x_conf 62.5'>8</span></span>"
        "<span class='ocrx_word' title='bbox 90 5 130 35; x_wconf 95'>"
        "<span class='ocrx_cinfo' title='x_bboxes 90 5 130 35; x_conf 96'>&lt;</span></span>"
        "</span></div>"
    )

    (line,) = parse_hocr(hocr)

    assert [w.text for w in line.words] == ["58", "<"]
    assert line.words[0].box == (10, 5, 60, 35) and line.words[0].confidence == 91
    assert [(g.char, g.confidence) for g in line.words[0].glyphs] == [("5", 99.1), ("8", 62.5)]


def test_a_comma_whose_tail_was_read_as_a_dot_of_its_own_is_one_comma() -> None:
    assert read("26,.136호", word("26,.136호", 0))[0] == "26,136호"


def test_a_sure_number_the_second_reading_did_not_find_is_blanked() -> None:
    words = [word("증가율", -200), word("9.29%", 0)]
    reading = apply("증가율 9.29%", [Line(words)], min_confidence=97, confirmed={"9.2", "16.2"})

    assert (reading.text, reading.trusted_text, reading.uncertain) == (
        "증가율 9.29%",
        "증가율 □.□□%",
        ["9.29%"],
    )


def test_a_sure_number_both_readings_found_is_kept() -> None:
    split = [word("예산", -200), word("5", 0), after(word("5", 0), "87억", gap=LETTER_GAP)]
    reading = apply("예산 5 87억", [Line(split)], min_confidence=97, confirmed={"587"})

    assert reading.trusted_text == "예산 587억"


def test_the_numbers_of_a_reading_are_those_of_its_joined_text() -> None:
    five = word("5", 0)

    assert numbers_in("5 87억 2,398명", [Line([five, after(five, "87억", gap=LETTER_GAP)])]) == {
        "587",
        "2,398",
    }

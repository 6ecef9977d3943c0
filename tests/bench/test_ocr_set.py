"""The OCR set and the out-of-order PDFs hold together: pages print the truth they claim, kinds are
what they say, the scorer tells the outcomes apart, and every layout keeps every line."""

from __future__ import annotations

import io
from collections import Counter

import pymupdf
import pytest
from PIL import Image

from tests.fixtures import layout_pdfs, ocr_score, ocr_set


@pytest.fixture(scope="module")
def printed() -> list[ocr_set.Page]:
    return ocr_set.pages()


def test_the_set_has_at_least_30_pages_in_six_kinds_from_real_releases(printed: list[ocr_set.Page]) -> None:
    planned = ocr_set.plan(printed)
    kinds = Counter(kind for _, kind, _ in planned)

    assert len(planned) >= 30 and set(kinds) == set(ocr_set.KINDS) and min(kinds.values()) >= 5
    assert len({page.name for page, _, _ in planned}) == len(printed)  # every release is read
    assert any(page.held_out for page, _, _ in planned) and not all(page.held_out for page, _, _ in planned)


def test_every_figure_of_the_truth_is_printed_on_its_page_in_order(printed: list[ocr_set.Page]) -> None:
    for page in printed:
        with pymupdf.open(stream=page.document, filetype="pdf") as document:
            # Letter-spaced lines come out of MuPDF with spaces between letters: compare without them.
            words = "".join(document[0].get_text(sort=True).split())
        cursor = 0
        for line in page.lines:
            for figure in line.figures:
                position = words.find(figure.group(), cursor)
                assert position >= 0, (page.name, figure.group())
                cursor = position


def test_the_one_page_release_has_20_figures_and_comes_as_a_scan_and_a_12_megapixel_photo() -> None:
    scan, photo = ocr_set.one_page_samples()

    assert scan.page.figure_count == 20
    assert scan.file_name.endswith(".pdf") and photo.file_name.endswith(".jpg")
    with pymupdf.open(stream=scan.data, filetype="pdf") as document:
        assert not document[0].get_text().strip() and document[0].get_images()  # image only
    assert Image.open(io.BytesIO(photo.data)).size == (3024, 4032)


def test_each_kind_is_rendered_the_same_way_from_the_same_seed(printed: list[ocr_set.Page]) -> None:
    for kind in ocr_set.KINDS:
        first, again = (ocr_set.render(printed[1], kind, seed=3) for _ in range(2))

        assert first.data == again.data and first.kind == kind


@pytest.mark.parametrize(
    ("read", "expected"),
    [
        ("예산은 587억 원으로 18.5% 늘었고 11월 1,029명", {"exact": 4}),
        ("예산은 5 87억 원으로 18. 5% 늘었고 1 1월 1.029명", {"split": 3, "misread": 1}),
        ("예산은 □□□억 원으로 1□.5% 늘었고 월 1029명", {"blanked": 2, "missing": 1, "misread": 1}),
    ],
)
def test_the_scorer_tells_exact_split_blanked_misread_and_missing_apart(
    read: str, expected: dict[str, int]
) -> None:
    page = ocr_set.Page(
        "x",
        ocr_set.releases()[0],
        [ocr_set.Line("예산은 587억 원으로 18.5% 늘었고 11월 1,029명")],
        False,
        b"",
    )

    assert ocr_score.score(page, read) == Counter(expected)


def test_the_scorer_finds_lines_whatever_order_ocr_read_them_in() -> None:
    lines = [ocr_set.Line("지원 대상은 5만 명이다."), ocr_set.Line("예산은 2천억 원이다.")]
    page = ocr_set.Page("x", ocr_set.releases()[0], lines, False, b"")

    assert ocr_score.score(page, "예산은 2천억 원이다.\n지원 대상은 5만 명이다.") == Counter({"exact": 2})


def test_every_layout_prints_every_line_and_the_in_order_layouts_read_in_order() -> None:
    release = ocr_set.releases()[2]
    for layout in layout_pdfs.LAYOUTS:
        pdf = layout_pdfs.build(release, layout, seed=0)
        with pymupdf.open(stream=pdf.data, filetype="pdf") as document:
            text = document[0].get_text(sort=True)
        found, _ = layout_pdfs.units_in_order(pdf, text)
        assert found == len(pdf.units) or layout == "two-column-across", layout  # across: lines merge

    for layout in ("one-column", "two-column", "table-by-rows"):
        pdf = layout_pdfs.build(release, layout, seed=0)
        with pymupdf.open(stream=pdf.data, filetype="pdf") as document:
            assert layout_pdfs.units_in_order(pdf, document[0].get_text())[1], layout


def test_a_right_column_first_stream_is_out_of_order_in_the_stream() -> None:
    pdf = layout_pdfs.build(ocr_set.releases()[2], "two-column-right-first", seed=0)

    with pymupdf.open(stream=pdf.data, filetype="pdf") as document:
        assert not layout_pdfs.units_in_order(pdf, document[0].get_text())[1]

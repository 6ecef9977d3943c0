"""Real releases printed as PDFs whose text stream runs out of reading order (right column first,
line across both columns, tables column by column) read in reading order, and DOCX tables keep
their header before their rows."""

from __future__ import annotations

import random

import pymupdf
import pytest
from docx.document import Document as DocxDocument
from docx.enum.section import WD_SECTION
from docx.oxml import parse_xml
from docx.oxml.ns import nsdecls

from agents.sources.files import extract_text
from agents.sources.files.reading_order import page_text
from tests.fixtures import layout_pdfs, ocr_set
from tests.fixtures.documents import make_docx

# Three releases of three agencies long enough to fill a page (a few are little more than a table).
RELEASES = [release for release in ocr_set.releases() if len(release.body) > 800][:3]
HEADER = "구분 수치 구분 수치"  # the figures table's header row, cells joined by spaces


def extracted(pdf: layout_pdfs.LayoutPdf) -> str:
    return extract_text(data=pdf.data, file_name="release.pdf", mime_type="application/pdf", ocr=False).text


def stream_text(pdf: layout_pdfs.LayoutPdf) -> str:
    with pymupdf.open(stream=pdf.data, filetype="pdf") as document:
        return str(document[0].get_text())


@pytest.mark.parametrize("release", RELEASES, ids=lambda release: release.slug)
@pytest.mark.parametrize("layout", layout_pdfs.LAYOUTS)
def test_every_line_and_table_row_of_a_real_release_comes_out_in_reading_order(
    release: ocr_set.Release, layout: str
) -> None:
    pdf = layout_pdfs.build(release, layout, seed=0)

    assert layout_pdfs.units_in_order(pdf, extracted(pdf)) == (len(pdf.units), True)


@pytest.mark.parametrize("release", RELEASES, ids=lambda release: release.slug)
def test_a_two_column_page_reads_the_same_whatever_order_its_stream_runs_in(release: ocr_set.Release) -> None:
    in_order = layout_pdfs.build(release, "two-column", seed=0)
    right_first = layout_pdfs.build(release, "two-column-right-first", seed=0)
    across = layout_pdfs.build(release, "two-column-across", seed=0)

    assert not layout_pdfs.units_in_order(right_first, stream_text(right_first))[1]  # the stream is wrong
    # Words compared (a font subset may map a space to a no-break space, depending on write order).
    read = layout_pdfs.normalise
    assert read(extracted(right_first)) == read(extracted(in_order)) == read(extracted(across))


@pytest.mark.parametrize("release", RELEASES, ids=lambda release: release.slug)
@pytest.mark.parametrize("layout", ["table-by-columns", "unruled-table-by-columns"])
def test_a_table_written_column_by_column_gives_its_header_then_each_row(
    release: ocr_set.Release, layout: str
) -> None:
    pdf = layout_pdfs.build(release, layout, seed=0)
    header, *rows = pdf.units[pdf.units.index(HEADER) :]

    lines = [" ".join(line.replace("|", " ").split()) for line in extracted(pdf).splitlines()]

    assert rows and lines.index(header) < lines.index(rows[0]) and all(row in lines for row in rows)
    assert not layout_pdfs.units_in_order(pdf, stream_text(pdf))[1]


def test_a_ruled_table_keeps_its_cells_apart_with_bars() -> None:
    pdf = layout_pdfs.build(RELEASES[0], "table-by-columns", seed=0)

    text = extracted(pdf)

    assert "구분 | 수치 | 구분 | 수치" in text.splitlines()


def test_a_one_column_page_loses_no_word_of_what_the_stream_holds() -> None:
    for release in RELEASES:
        pdf = layout_pdfs.build(release, "one-column", seed=0)

        assert sorted(extracted(pdf).split()) == sorted(stream_text(pdf).split())


def test_a_page_with_a_line_right_of_the_middle_keeps_it_after_the_line_above() -> None:
    """Short lines on one side of the page (a date set right, a sign-off) are not a column."""
    document = pymupdf.open()
    page = document.new_page()
    page.insert_text((60, 80), "보건복지부 보도자료", fontname="korea", fontsize=11)
    page.insert_text((400, 100), "2024년 3월 5일(화)", fontname="korea", fontsize=11)
    page.insert_text((60, 120), "담당 부서: 인구정책과", fontname="korea", fontsize=11)
    page.insert_text((400, 140), "044-202-3000", fontname="korea", fontsize=11)

    assert page_text(page).splitlines() == [
        "보건복지부 보도자료",
        "2024년 3월 5일(화)",
        "담당 부서: 인구정책과",
        "044-202-3000",
    ]


def test_a_page_without_text_reads_as_empty() -> None:
    document = pymupdf.open()
    page = document.new_page()
    page.draw_rect(pymupdf.Rect(50, 50, 200, 200))

    assert page_text(page) == ""


# --- DOCX ---


def _release_docx(release: ocr_set.Release, table: list[list[str]], *, two_columns: bool) -> bytes:
    def build(document: DocxDocument) -> None:
        document.add_paragraph(release.title)
        if two_columns:  # the body set in two newspaper columns, as some agencies lay releases out
            section = document.add_section(WD_SECTION.CONTINUOUS)
            section._sectPr.append(parse_xml(f'<w:cols {nsdecls("w")} w:num="2" w:space="425"/>'))
        for paragraph in ocr_set._clean(release.body, release.title)[:6]:
            document.add_paragraph(paragraph)
        grid = document.add_table(rows=len(table), cols=len(table[0]))
        for row, values in zip(grid.rows, table, strict=True):
            for cell, value in zip(row.cells, values, strict=True):
                cell.text = value

    return make_docx(build)


@pytest.mark.parametrize("two_columns", [False, True], ids=["one-column", "two-column"])
@pytest.mark.parametrize("release", RELEASES, ids=lambda release: release.slug)
def test_a_real_release_as_docx_gives_its_paragraphs_then_its_table_header_first(
    release: ocr_set.Release, two_columns: bool
) -> None:
    table = ocr_set._table(release.body, random.Random(release.slug))
    paragraphs = ocr_set._clean(release.body, release.title)[:6]
    data = _release_docx(release, table, two_columns=two_columns)

    lines = extract_text(data=data, file_name="release.docx", mime_type="").text.splitlines()

    expected = [release.title, *paragraphs, *(" | ".join(row).rstrip() for row in table)]
    assert [line for line in lines if line.strip()] == expected

"""Which way of reading a text PDF keeps reading order when its content stream does not.

The figures are in docs/operations.md, "PDF reading order".

Every real release in the verification corpus is built as a PDF in eight layouts that print the
same page but write its text in another order (tests/fixtures/layout_pdfs.py): one column in order
and bottom-up, two columns left first, right first and line across both, a ruled table row by
row and column by column, and an unruled table (cells set by position only) column by column.
A page passes when every printed line and every table row (its cells in order) comes out, each
after the one before. Candidates, all from PyMuPDF itself:

- `get_text()`: the stream order (what the product did before; the baseline);
- `sort=True`: blocks and lines sorted top-left to bottom-right;
- blocks by column: the page cut into bands at full-width blocks, each band's blocks grouped into
  columns by overlapping x ranges, columns left to right, each top to bottom;
- lines by column: the same on printed lines cut where a gap wider than 1.5 font sizes opens
  (a gutter or a cell border), so lines written across both columns come apart;
- `find_tables` + lines by column: ruled tables read row by row with `page.find_tables()`, the
  rest of the page by lines by column;
- the same, but a band whose columns are narrow (an unruled table's cells, not columns of running
  text) read line by line: what `extract_text` does (agents/sources/files/reading_order.py);
- pymupdf4llm's Markdown, with and without its layout model, when it is installed (not a
  dependency: 2.x needs pymupdf 2 and onnxruntime; 0.3.4 runs on pymupdf 1.28 and was measured
  from a separate environment with the project's packages on its path).

Run: `.venv/bin/python bench/pdf_reading_order.py`
"""

from __future__ import annotations

import statistics
import sys
import time
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import pymupdf

from agents.sources.files import reading_order
from agents.sources.files.reading_order import Box
from tests.fixtures import layout_pdfs


def stream_order(document: pymupdf.Document) -> str:
    return document[0].get_text()


def sorted_text(document: pymupdf.Document) -> str:
    return document[0].get_text(sort=True)


def by_column(boxes: list[Box], page_width: float) -> str:
    """Bands between full-width boxes; in a band, columns (overlapping x ranges) left to right,
    whatever the band holds (the product reads a band of narrow columns line by line instead)."""
    middle = page_width / 2
    text: list[str] = []
    band: list[Box] = []
    for box in sorted(boxes, key=lambda box: box.y0):
        if box.x0 < middle - 5 and box.x1 > middle + 5:  # crosses the middle: full width
            text += _band(band)
            band = []
            text.append(box.text)
        else:
            band.append(box)
    return "\n".join(text + _band(band))


def _band(boxes: list[Box]) -> list[str]:
    return [
        box.text for column in reading_order._columns(boxes) for box in sorted(column, key=lambda b: b.y0)
    ]


def blocks_by_column(document: pymupdf.Document) -> str:
    page = document[0]
    blocks = [Box(*block[:5]) for block in page.get_text("blocks") if block[6] == 0]
    return by_column(blocks, page.rect.width)


def lines_by_column(document: pymupdf.Document) -> str:
    page = document[0]
    return by_column(reading_order._printed_pieces(page, outside=[]), page.rect.width)


def tables_and_lines(document: pymupdf.Document) -> str:
    page = document[0]
    tables = reading_order._ruled_tables(page)
    return by_column(reading_order._printed_pieces(page, outside=tables) + tables, page.rect.width)


def product(document: pymupdf.Document) -> str:
    return reading_order.page_text(document[0])


def methods() -> dict[str, Callable[[pymupdf.Document], str]]:
    found: dict[str, Callable[[pymupdf.Document], str]] = {
        "get_text()": stream_order,
        "get_text(sort=True)": sorted_text,
        "blocks by column": blocks_by_column,
        "lines by column": lines_by_column,
        "find_tables + lines by column": tables_and_lines,
        "find_tables + lines by column, narrow columns by line (product)": product,
    }
    try:
        import pymupdf4llm
    except ImportError:
        print("pymupdf4llm is not installed: its rows are left out")
        return found

    def markdown_without_layout(document: pymupdf.Document) -> str:
        return pymupdf4llm.to_markdown(document, show_progress=False)

    def markdown(layout: bool) -> Callable[[pymupdf.Document], str]:
        def read(document: pymupdf.Document) -> str:
            pymupdf4llm.use_layout(layout)
            return pymupdf4llm.to_markdown(document, show_progress=False)

        return read

    version = getattr(pymupdf4llm, "__version__", "?")
    if not hasattr(pymupdf4llm, "use_layout"):  # before 2.0 (the line for pymupdf < 2): no layout model
        found[f"pymupdf4llm {version}"] = lambda document: pymupdf4llm.to_markdown(
            document, show_progress=False
        )
        return found
    found[f"pymupdf4llm {version}"] = markdown(False)
    found[f"pymupdf4llm {version} + layout model"] = markdown(True)
    return found


def main() -> None:
    pdfs = layout_pdfs.layout_pdfs()
    candidates = methods()
    passed: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    seconds: dict[str, list[float]] = defaultdict(list)
    for pdf in pdfs:
        for name, read in candidates.items():
            with pymupdf.open(stream=pdf.data, filetype="pdf") as document:
                started = time.perf_counter()
                text = read(document)
                seconds[name].append(time.perf_counter() - started)
            passed[name][pdf.layout] += layout_pdfs.units_in_order(pdf, text)[1]
    pages = len(pdfs) // len(layout_pdfs.LAYOUTS)
    print(
        f"{pages} real releases x {len(layout_pdfs.LAYOUTS)} layouts; "
        "pages passing (all lines and rows in order):"
    )
    print("| method | " + " | ".join(layout_pdfs.LAYOUTS) + " | all | ms/page (median) |")
    print("|---" * (len(layout_pdfs.LAYOUTS) + 3) + "|")
    for name in candidates:
        cells = [f"{passed[name][layout]}/{pages}" for layout in layout_pdfs.LAYOUTS]
        total = sum(passed[name].values())
        median = statistics.median(seconds[name]) * 1000
        print(f"| {name} | " + " | ".join(cells) + f" | {total}/{len(pdfs)} | {median:.0f} |")


if __name__ == "__main__":
    main()

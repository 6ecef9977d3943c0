"""Which way of reading a text PDF keeps reading order when the content stream does not (README "PDF").

Every real release in the verification corpus is built as a PDF in seven layouts that print the
same page but write its text in another order (tests/fixtures/layout_pdfs.py): one column in order
and bottom-up, two columns left first, right first and line across both, and a ruled table row by
row and column by column. A page passes when every printed line and every table row (its cells
in order) comes out, each after the one before. Candidates, all from PyMuPDF itself:

- `get_text()`: the stream order (what the product does today);
- `sort=True`: blocks and lines sorted top-left to bottom-right;
- blocks by column: the page cut into bands at full-width blocks, each band's blocks grouped into
  columns by overlapping x ranges, columns left to right, each top to bottom;
- lines by column: the same on printed lines cut where a gap wider than 1.5 font sizes opens
  (a gutter or a cell border), so lines written across both columns come apart;
- `find_tables` + lines by column: ruled tables read row by row with `page.find_tables()`, the
  rest of the page by lines by column;
- pymupdf4llm's Markdown, with and without its layout model, when it is installed.

Run: `.venv/bin/python bench/pdf_reading_order.py`
"""

from __future__ import annotations

import statistics
import sys
import time
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import pymupdf

from tests.fixtures import layout_pdfs

Box = tuple[float, float, float, float, str]
GAP_IN_FONT_SIZES = 1.5


def stream_order(document: pymupdf.Document) -> str:
    return document[0].get_text()


def sorted_text(document: pymupdf.Document) -> str:
    return document[0].get_text(sort=True)


def by_column(boxes: list[Box], page_width: float) -> str:
    """Bands between full-width boxes; in a band, columns (overlapping x ranges) left to right."""
    middle = page_width / 2
    text: list[str] = []
    band: list[Box] = []
    for box in sorted(boxes, key=lambda box: box[1]):
        if box[0] < middle - 5 and box[2] > middle + 5:  # crosses the middle: full width
            text += _band(band)
            band = []
            text.append(box[4])
        else:
            band.append(box)
    return "\n".join(text + _band(band))


def _band(boxes: list[Box]) -> list[str]:
    columns: list[list[Any]] = []  # [x0, x1, boxes]
    for box in sorted(boxes, key=lambda box: box[0]):
        for column in columns:
            if box[0] < column[1] and box[2] > column[0]:
                column[0], column[1] = min(column[0], box[0]), max(column[1], box[2])
                column[2].append(box)
                break
        else:
            columns.append([box[0], box[2], [box]])
    ordered = []
    for _, _, members in sorted(columns, key=lambda column: column[0]):
        ordered += [box[4] for box in sorted(members, key=lambda box: box[1])]
    return ordered


def blocks_by_column(document: pymupdf.Document) -> str:
    page = document[0]
    blocks = [block[:5] for block in page.get_text("blocks") if block[6] == 0]
    return by_column(blocks, page.rect.width)


def printed_lines(page: pymupdf.Page, *, outside: list[pymupdf.Rect]) -> list[Box]:
    """Each line MuPDF found, cut where the gap between two characters exceeds 1.5 font sizes."""
    boxes = []
    for block in page.get_text("rawdict", sort=True)["blocks"]:
        for line in block.get("lines", []):
            chars = sorted(
                ((char, span["size"]) for span in line["spans"] for char in span["chars"]),
                key=lambda item: item[0]["bbox"][0],
            )
            pieces: list[list[dict[str, Any]]] = []
            for char, size in chars:
                if pieces and char["bbox"][0] - pieces[-1][-1]["bbox"][2] <= GAP_IN_FONT_SIZES * size:
                    pieces[-1].append(char)
                else:
                    pieces.append([char])
            for piece in pieces:
                rect = pymupdf.Rect(piece[0]["bbox"])
                for char in piece[1:]:
                    rect |= char["bbox"]
                if not any(rect.intersects(table) for table in outside):
                    boxes.append((rect.x0, rect.y0, rect.x1, rect.y1, "".join(char["c"] for char in piece)))
    return boxes


def lines_by_column(document: pymupdf.Document) -> str:
    page = document[0]
    return by_column(printed_lines(page, outside=[]), page.rect.width)


def tables_and_lines(document: pymupdf.Document) -> str:
    page = document[0]
    tables = page.find_tables().tables
    boxes: list[Box] = []
    for table in tables:
        rows = "\n".join(" ".join(cell or "" for cell in row) for row in table.extract())
        boxes.append((*table.bbox, rows))
    rects = [pymupdf.Rect(table.bbox) for table in tables]
    return by_column(printed_lines(page, outside=rects) + boxes, page.rect.width)


def methods() -> dict[str, Callable[[pymupdf.Document], str]]:
    found: dict[str, Callable[[pymupdf.Document], str]] = {
        "get_text()": stream_order,
        "get_text(sort=True)": sorted_text,
        "blocks by column": blocks_by_column,
        "lines by column": lines_by_column,
        "find_tables + lines by column": tables_and_lines,
    }
    try:
        import pymupdf4llm
    except ImportError:
        print("pymupdf4llm is not installed: its rows are left out")
        return found

    def markdown(layout: bool) -> Callable[[pymupdf.Document], str]:
        def read(document: pymupdf.Document) -> str:
            pymupdf4llm.use_layout(layout)
            return pymupdf4llm.to_markdown(document, show_progress=False)

        return read

    found["pymupdf4llm"] = markdown(False)
    found["pymupdf4llm + layout model"] = markdown(True)
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

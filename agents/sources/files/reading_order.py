"""A text PDF page in reading order, whatever order its content stream runs in.

Word processors and converters write a two-column page right column first or line by line across
both columns, and tables column by column; MuPDF's plain `get_text()` follows that stream. Chosen
by measurement on real releases built in eight stream orders (bench/pdf_reading_order.py,
docs/operations.md "PDF reading order"): ruled tables are read row by row with PyMuPDF's
`find_tables`, and the rest of the page as printed lines (cut where a gutter or a cell border
opens) set in bands between full-width lines, each band read column by column when it holds
columns of running text and line by line otherwise, so an unruled table keeps its rows.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import pymupdf

# Two characters further apart than this many font sizes sit in different columns or cells.
GAP_IN_FONT_SIZES = 1.5
# A band is read column by column only when each column is at least this share of the page's
# text width: columns of running text are; the cells of an unruled table are not.
TEXT_COLUMN_SHARE = 0.3
# A box that reaches this far past the middle of the page on both sides spans the columns.
_ACROSS_MIDDLE = 5.0


@dataclass(frozen=True)
class Box:
    """A run of text where it is printed: a piece of a line, or a whole table read row by row."""

    x0: float
    y0: float
    x1: float
    y1: float
    text: str


def page_text(page: pymupdf.Page) -> str:
    """The page's text in reading order: ruled tables row by row, columns one after the other."""
    tables = _ruled_tables(page)
    pieces = _printed_pieces(page, outside=tables)
    return "\n".join(_reading_order([*pieces, *tables], width=page.rect.width))


def _ruled_tables(page: pymupdf.Page) -> list[Box]:
    """Each ruled table as one box of its rows, header first, cells left to right."""
    if not page.get_cdrawings():  # no rules drawn: no ruled table, and find_tables costs most
        return []
    found = []
    for table in page.find_tables().tables:
        # None is the part of a merged cell already read (shown once, as the DOCX reader does).
        rows = [[" ".join(cell.split()) for cell in row if cell is not None] for row in table.extract()]
        text = "\n".join(" | ".join(row) for row in rows if any(row))
        if text.strip():
            x0, y0, x1, y1 = table.bbox
            found.append(Box(x0, y0, x1, y1, text))
    return found


def _printed_pieces(page: pymupdf.Page, *, outside: list[Box]) -> list[Box]:
    """Each printed line, cut where the gap between two words exceeds 1.5 font sizes.

    From MuPDF's word list (tuples built in C): per-character dictionaries cost seven times more
    on a 50-page release, for the same cuts."""
    lines: dict[tuple[int, int], list[tuple[float, float, float, float, str]]] = {}
    for x0, y0, x1, y1, word, block, line, _ in page.get_text("words", flags=_flags()):
        lines.setdefault((block, line), []).append((x0, y0, x1, y1, word))
    pieces = []
    for words in lines.values():
        for piece in _cut_at_gaps(sorted(words)):
            box = Box(
                min(w[0] for w in piece),
                min(w[1] for w in piece),
                max(w[2] for w in piece),
                max(w[3] for w in piece),
                " ".join(w[4] for w in piece),
            )
            if not any(_overlaps(box, table) for table in outside):
                pieces.append(box)
    return pieces


def _flags() -> int:
    """Text without images (their pixels would be copied out for nothing), ligatures kept."""
    import pymupdf

    return pymupdf.TEXT_PRESERVE_LIGATURES | pymupdf.TEXT_PRESERVE_WHITESPACE | pymupdf.TEXT_MEDIABOX_CLIP


Word = tuple[float, float, float, float, str]


def _cut_at_gaps(words: list[Word]) -> list[list[Word]]:
    pieces: list[list[Word]] = []
    for word in words:
        size = word[3] - word[1]  # the word's height stands for its font size
        if pieces and word[0] - pieces[-1][-1][2] <= GAP_IN_FONT_SIZES * size:
            pieces[-1].append(word)
        else:
            pieces.append([word])
    return pieces


def _overlaps(box: Box, other: Box) -> bool:
    return box.x0 < other.x1 and other.x0 < box.x1 and box.y0 < other.y1 and other.y0 < box.y1


def _reading_order(boxes: list[Box], *, width: float) -> list[str]:
    """Bands between boxes that span the middle of the page, each read in its own order."""
    middle = width / 2
    text_width = (
        max((box.x1 for box in boxes), default=0) - min((box.x0 for box in boxes), default=0)
    ) or width
    ordered: list[str] = []
    band: list[Box] = []
    for box in sorted(boxes, key=lambda box: (box.y0, box.x0)):
        if box.x0 < middle - _ACROSS_MIDDLE and box.x1 > middle + _ACROSS_MIDDLE:
            ordered += _band_text(band, text_width=text_width)
            ordered.append(box.text)
            band = []
        else:
            band.append(box)
    return ordered + _band_text(band, text_width=text_width)


def _band_text(band: list[Box], *, text_width: float) -> list[str]:
    columns = _columns(band)
    if len(columns) > 1 and all(_width(column) >= TEXT_COLUMN_SHARE * text_width for column in columns):
        return [box.text for column in columns for box in sorted(column, key=lambda box: box.y0)]
    return _rows(band)


def _columns(band: list[Box]) -> list[list[Box]]:
    """The band's boxes grouped by overlapping x ranges, left to right."""
    columns: list[list[Box]] = []
    for box in sorted(band, key=lambda box: box.x0):
        if columns and box.x0 < max(member.x1 for member in columns[-1]):
            columns[-1].append(box)
        else:
            columns.append([box])
    return columns


def _width(column: list[Box]) -> float:
    return max(box.x1 for box in column) - min(box.x0 for box in column)


def _rows(band: list[Box]) -> list[str]:
    """Boxes on one printed line (their middles within each other's height) joined left to right."""
    rows: list[list[Box]] = []
    for box in sorted(band, key=lambda box: (box.y0 + box.y1) / 2):
        middle = (box.y0 + box.y1) / 2
        if rows and rows[-1][0].y0 <= middle <= rows[-1][0].y1:
            rows[-1].append(box)
        else:
            rows.append([box])
    return [" ".join(box.text for box in sorted(row, key=lambda box: box.x0)) for row in rows]

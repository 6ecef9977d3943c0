"""DOCX text through python-docx (imported lazily), with tracked changes, tables, headers and
footers; a DTD anywhere in the package is refused before python-docx parses it."""

from __future__ import annotations

import io
import zipfile
from collections.abc import Callable
from typing import TYPE_CHECKING

from agents.sources.files.common import FileRejected
from agents.sources.files.messages import (
    MSG_DOCX_DOCTYPE,
    WARN_DOCX_SKIPPED_PARTS,
    WARN_DOCX_TRACKED_CHANGES,
)

if TYPE_CHECKING:
    from docx.document import Document as DocxDocument
    from docx.oxml.xmlchemy import BaseOxmlElement
    from docx.section import _Footer, _Header
    from docx.table import Table
    from docx.text.paragraph import Paragraph

# A DTD is never legitimate in OOXML; it is how billion-laughs payloads start. python-docx parses
# with huge_tree=True, so this scan is the guard. UTF-16 forms too, since lxml honours a UTF-16 BOM.
_DOCTYPE_MARKERS = tuple(
    marker.encode(codec)
    for marker in ("<!DOCTYPE", "<!ENTITY")
    for codec in ("ascii", "utf-16-le", "utf-16-be")
)
_SCAN_CHUNK = 1024 * 1024

_W_NS = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
_W_R = _W_NS + "r"
_W_P = _W_NS + "p"
_W_TBL = _W_NS + "tbl"
_W_REVISIONS = frozenset(_W_NS + tag for tag in ("ins", "del", "moveFrom", "moveTo"))
_W_REMOVED = frozenset(_W_NS + tag for tag in ("del", "moveFrom"))
# Inline wrappers whose runs belong to the paragraph text (insertions count as accepted).
_W_INLINE_WRAPPERS = frozenset(
    _W_NS + tag
    for tag in (
        "hyperlink",
        "ins",
        "moveTo",
        "smartTag",
        "customXml",
        "sdt",
        "sdtContent",
        "fldSimple",
        "dir",
        "bdo",
    )
)


def _extract_docx(data: bytes) -> tuple[str, int, list[str]]:
    _reject_doctype(data)
    import docx

    document = docx.Document(io.BytesIO(data))
    reader = _DocxReader()
    headers, footers = _header_footer_texts(document, reader)
    body = [reader.block(item) for item in document.iter_inner_content()]
    text = "\n".join([*headers, *body, *footers])
    return text, 0, _docx_warnings(document, reader)


def _reject_doctype(data: bytes) -> None:
    """Scan every part, streamed, for a DTD; the zip guard has already bounded the sizes."""
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        for info in archive.infolist():
            with archive.open(info) as member:
                if _stream_contains(member.read, _DOCTYPE_MARKERS):
                    raise FileRejected(MSG_DOCX_DOCTYPE, "corrupt")


def _stream_contains(read: Callable[[int], bytes], markers: tuple[bytes, ...]) -> bool:
    # Chunks overlap by one marker length, so a marker split across two reads is still found.
    overlap = max(len(marker) for marker in markers) - 1
    tail = b""
    while chunk := read(_SCAN_CHUNK):
        window = tail + chunk
        if any(marker in window for marker in markers):
            return True
        tail = window[-overlap:]
    return False


def _header_footer_texts(document: DocxDocument, reader: _DocxReader) -> tuple[list[str], list[str]]:
    headers: list[str] = []
    footers: list[str] = []
    odd_even = bool(document.settings.odd_and_even_pages_header_footer)
    for section in document.sections:
        first = bool(section.different_first_page_header_footer)
        headers += _parts_text(
            reader, section.header, section.first_page_header, first, section.even_page_header, odd_even
        )
        footers += _parts_text(
            reader, section.footer, section.first_page_footer, first, section.even_page_footer, odd_even
        )
    return _dedupe(headers), _dedupe(footers)


def _parts_text(
    reader: _DocxReader,
    default: _Header | _Footer,
    first: _Header | _Footer,
    first_on: bool,
    even: _Header | _Footer,
    even_on: bool,
) -> list[str]:
    # A linked part repeats the previous section's (already read) or is absent; reading it through
    # python-docx would also add an empty definition to the document.
    parts = [default, *([first] if first_on else []), *([even] if even_on else [])]
    texts = [
        "\n".join(reader.block(item) for item in part.iter_inner_content())
        for part in parts
        if not part.is_linked_to_previous
    ]
    return [text for text in texts if text.strip()]


def _dedupe(texts: list[str]) -> list[str]:
    return list(dict.fromkeys(texts))


def _docx_warnings(document: DocxDocument, reader: _DocxReader) -> list[str]:
    body = document.element.body
    warnings = []
    if reader.saw_revisions or body.xpath(".//w:ins | .//w:del | .//w:moveFrom | .//w:moveTo"):
        warnings.append(WARN_DOCX_TRACKED_CHANGES)
    # iter_inner_content() reads only w:p and w:tbl directly in the body: block content controls
    # and text boxes are not in the text, so the reporter is told.
    if body.xpath("./w:sdt | ./w:customXml | .//w:txbxContent"):
        warnings.append(WARN_DOCX_SKIPPED_PARTS)
    return warnings


class _DocxReader:
    """Renders python-docx blocks as plain text and remembers whether it met tracked changes."""

    def __init__(self) -> None:
        self.saw_revisions = False

    def block(self, item: Paragraph | Table) -> str:
        element = item._element  # the w:p or w:tbl behind a Paragraph or Table
        return self._table(element) if element.tag == _W_TBL else self._inline(element)

    def _inline(self, element: BaseOxmlElement) -> str:
        # Paragraph.text reads only direct w:r and w:hyperlink children, so runs inside w:ins
        # (tracked insertions) would vanish; walk the wrappers, skipping deletions.
        parts = []
        for child in element:
            if child.tag in _W_REVISIONS:
                self.saw_revisions = True
            if child.tag == _W_R:
                parts.append(str(getattr(child, "text", "") or ""))
            elif child.tag in _W_INLINE_WRAPPERS and child.tag not in _W_REMOVED:
                parts.append(self._inline(child))
        return "".join(parts)

    def _table(self, table: BaseOxmlElement) -> str:
        rows = (self._row(row) for row in table.iterchildren(_W_NS + "tr"))
        return "\n".join(row for row in rows if row.strip(" |"))

    def _row(self, row: BaseOxmlElement) -> str:
        # Reading w:tc directly shows a horizontally merged cell once (row.cells repeats it).
        return " | ".join(self._cell(cell) for cell in row.iterchildren(_W_NS + "tc"))

    def _cell(self, cell: BaseOxmlElement) -> str:
        parts = (
            self._table(child) if child.tag == _W_TBL else self._inline(child)
            for child in cell.iterchildren(_W_P, _W_TBL)
        )
        return " ".join(part.replace("\n", " / ") for part in parts if part.strip()).strip()

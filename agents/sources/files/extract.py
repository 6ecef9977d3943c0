"""`extract_text`: precheck, then the parser for the kind, then one normalised shape."""

from __future__ import annotations

import logging
import re
from collections.abc import Callable
from dataclasses import dataclass, field

from agents.sources.files import ocr as _ocr
from agents.sources.files.common import FileRejected, _printable
from agents.sources.files.detect import precheck
from agents.sources.files.docx import _extract_docx
from agents.sources.files.messages import (
    MSG_DOCX_CORRUPT,
    MSG_IMAGE_CORRUPT,
    MSG_NO_TEXT,
    MSG_PDF_CORRUPT,
    MSG_PDF_SCANNED_NO_OCR,
    MSG_UNREADABLE,
    WARN_OCR,
    WARN_OCR_UNCERTAIN,
)
from agents.sources.files.pages import PAGE_BREAK
from agents.sources.files.pdf import _extract_pdf
from agents.sources.files.text import _extract_txt

# The package's logger, so log lines keep the name they had before the package was split.
logger = logging.getLogger(__package__)

_BLANK_LINE_RUNS = re.compile(r"\n{3,}")
_CORRUPT_MESSAGES = {"pdf": MSG_PDF_CORRUPT, "docx": MSG_DOCX_CORRUPT, "image": MSG_IMAGE_CORRUPT}
NEEDS_OCR = "needs_ocr"  # the code of the rejection `extract_text(ocr=False)` raises for OCR work


@dataclass(frozen=True)
class Extracted:
    text: str
    kind: str  # "pdf" | "docx" | "txt" | "image"
    page_count: int  # PDF pages read; 0 for other kinds
    warnings: list[str]
    ocr: bool = False
    # What a fact check may trust: the text, with the digits of numbers OCR was unsure of blanked.
    trusted_text: str = ""
    uncertain: list[str] = field(default_factory=list)

    @property
    def source_text(self) -> str:
        return self.trusted_text if self.ocr else self.text


def extract_text(*, data: bytes, file_name: str, mime_type: str = "", ocr: bool = False) -> Extracted:
    """Precheck, then parse. Never raises anything but `FileRejected`, whatever the bytes.

    Images and scanned PDFs need OCR, which runs only in the `io` worker: with `ocr=False` they
    raise `FileRejected` with the code `NEEDS_OCR`, so the caller can hand the bytes over.
    """
    kind = ""
    try:
        kind = precheck(data=data, file_name=file_name, mime_type=mime_type)
        if kind == "image":
            return _with_ocr(kind, data, ocr=ocr)
        text, page_count, warnings = _EXTRACTORS[kind](data)
    except FileRejected as exc:
        if exc.code == "scanned" and kind == "pdf":
            return _with_ocr(kind, data, ocr=ocr)
        raise
    except Exception as exc:
        # Parsers fail in many ways on hostile bytes (RuntimeError from MuPDF, KeyError and
        # ValueError from python-docx, zlib errors, MemoryError); the reporter sees one answer.
        logger.warning("file extraction failed: %s (%s)", _printable(file_name), type(exc).__name__)
        raise FileRejected(_CORRUPT_MESSAGES.get(kind, MSG_UNREADABLE), "corrupt") from exc
    text = _normalise(text)
    if not text.strip():
        raise FileRejected(MSG_NO_TEXT, "empty")
    return Extracted(text=text, kind=kind, page_count=page_count, warnings=warnings)


def _with_ocr(kind: str, data: bytes, *, ocr: bool) -> Extracted:
    if not ocr:
        if kind == "pdf" and not _ocr.ocr_available():
            raise FileRejected(MSG_PDF_SCANNED_NO_OCR, "scanned")
        raise FileRejected(MSG_UNREADABLE, NEEDS_OCR)
    result = _ocr.ocr_image(data) if kind == "image" else _ocr.ocr_pdf(data)
    warnings = [WARN_OCR, *result.warnings]
    if result.uncertain:
        numbers = ", ".join(dict.fromkeys(result.uncertain))
        warnings.append(WARN_OCR_UNCERTAIN.format(numbers=numbers[:200]))
    return Extracted(
        text=_normalise(result.text),
        kind=kind,
        page_count=result.pages if kind == "pdf" else 0,
        warnings=warnings,
        ocr=True,
        trusted_text=_normalise(result.trusted_text),
        uncertain=result.uncertain,
    )


def _normalise(text: str) -> str:
    """One shape for every kind: \\n line ends, no NUL, no trailing spaces, at most one blank line."""
    text = text.replace("\x00", "").replace("\r\n", "\n").replace("\r", "\n")
    # A PDF's page break is a line of its own (see pages.py); rstrip() would erase it.
    text = "\n".join(line if line == PAGE_BREAK else line.rstrip() for line in text.split("\n"))
    return _BLANK_LINE_RUNS.sub("\n\n", text).strip("\n")


_EXTRACTORS: dict[str, Callable[[bytes], tuple[str, int, list[str]]]] = {
    "pdf": _extract_pdf,
    "docx": _extract_docx,
    "txt": _extract_txt,
}

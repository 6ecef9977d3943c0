"""`extract_text`: precheck, then the parser for the kind, then one normalised shape."""

from __future__ import annotations

import logging
import re
from collections.abc import Callable
from dataclasses import dataclass

from agents.sources.files.common import FileRejected, _printable
from agents.sources.files.detect import precheck
from agents.sources.files.docx import _extract_docx
from agents.sources.files.messages import MSG_DOCX_CORRUPT, MSG_NO_TEXT, MSG_PDF_CORRUPT, MSG_UNREADABLE
from agents.sources.files.pages import PAGE_BREAK
from agents.sources.files.pdf import _extract_pdf
from agents.sources.files.text import _extract_txt

# The package's logger, so log lines keep the name they had before the package was split.
logger = logging.getLogger(__package__)

_BLANK_LINE_RUNS = re.compile(r"\n{3,}")
_CORRUPT_MESSAGES = {"pdf": MSG_PDF_CORRUPT, "docx": MSG_DOCX_CORRUPT}


@dataclass(frozen=True)
class Extracted:
    text: str
    kind: str  # "pdf" | "docx" | "txt"
    page_count: int  # PDF pages read; 0 for other kinds
    warnings: list[str]


def extract_text(*, data: bytes, file_name: str, mime_type: str = "") -> Extracted:
    """Precheck, then parse. Never raises anything but `FileRejected`, whatever the bytes."""
    kind = ""
    try:
        kind = precheck(data=data, file_name=file_name, mime_type=mime_type)
        text, page_count, warnings = _EXTRACTORS[kind](data)
    except FileRejected:
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

"""PDF text through MuPDF; pymupdf is imported lazily (see the package docstring)."""

from __future__ import annotations

import logging
import threading

from agents.sources.files.common import FileRejected, _printable
from agents.sources.files.messages import (
    MSG_NO_TEXT,
    MSG_PDF_CORRUPT,
    MSG_PDF_ENCRYPTED,
    MSG_PDF_SCANNED,
    WARN_PDF_BLANK_PAGES,
    WARN_PDF_PAGES_SKIPPED,
    WARN_PDF_REPAIRED,
)
from agents.sources.files.pages import PAGE_BREAK
from agents.sources.files.reading_order import page_text

# The package's logger, so log lines keep the name they had before the package was split.
logger = logging.getLogger(__package__)

# --- Limits ---
# Pages read from one file; which of them reach the model is decided by text size when the draft
# is written (pages.pick_pages), so a long release is kept whole here.
MAX_PDF_PAGES = 400
MIN_CHARS_PER_PAGE = 30  # below this average a PDF is an image scan without a text layer
MIN_CHARS_TOTAL = 50
# MuPDF's global context is not thread-safe; the llm worker runs a thread pool and reads Telegram
# attachments in the writing loop, so one parse at a time per process.
_MUPDF_LOCK = threading.Lock()
# A text layer without a ToUnicode map comes out as Latin-1 or private-use soup; below this share of
# readable characters (Hangul, hanja, ASCII, common punctuation) the layer is garbage, read as a scan.
MIN_READABLE_SHARE = 0.5


def _extract_pdf(data: bytes) -> tuple[str, int, list[str]]:
    with _MUPDF_LOCK:
        return _extract_pdf_locked(data)


def _extract_pdf_locked(data: bytes) -> tuple[str, int, list[str]]:
    import pymupdf

    # MuPDF prints every complaint about a malformed object to stdout, which a Celery worker turns
    # into log lines by the hundred for one hostile file; collect them and log once instead.
    pymupdf.TOOLS.mupdf_display_errors(False)
    pymupdf.TOOLS.mupdf_display_warnings(False)
    pymupdf.no_recommend_layout()  # find_tables would print an advert for a package we do not use
    try:
        return _read_pdf(data)
    finally:
        if messages := pymupdf.TOOLS.mupdf_warnings(reset=True):
            logger.info("MuPDF messages: %s", _printable(messages[:2000]))


def _read_pdf(data: bytes) -> tuple[str, int, list[str]]:
    import pymupdf

    try:
        document = pymupdf.open(stream=data, filetype="pdf")
    except Exception as exc:  # FileDataError, EmptyFileError and friends
        raise FileRejected(MSG_PDF_CORRUPT, "corrupt") from exc
    with document:
        # needs_pass is set only for a user (open) password; owner-only files open and extract.
        if document.needs_pass:
            raise FileRejected(MSG_PDF_ENCRYPTED, "encrypted")
        total = document.page_count
        pages = [page_text(document[number]) for number in range(min(total, MAX_PDF_PAGES))]
        repaired = bool(document.is_repaired)
    _check_pdf_has_text(pages, repaired=repaired)
    text = f"\n{PAGE_BREAK}\n".join(page.strip("\n") for page in pages)
    return text, len(pages), _pdf_warnings(pages, total=total, repaired=repaired)


def _check_pdf_has_text(pages: list[str], *, repaired: bool) -> None:
    if not pages:
        raise FileRejected(MSG_PDF_CORRUPT, "corrupt") if repaired else FileRejected(MSG_NO_TEXT, "empty")
    chars = sum(_visible_chars(page) for page in pages)
    readable = sum(_readable_chars(page) for page in pages)
    garbage = readable < MIN_READABLE_SHARE * chars
    if chars < MIN_CHARS_TOTAL or chars / len(pages) < MIN_CHARS_PER_PAGE or garbage:
        # A repaired file without text is more likely broken than scanned.
        raise (
            FileRejected(MSG_PDF_CORRUPT, "corrupt") if repaired else FileRejected(MSG_PDF_SCANNED, "scanned")
        )


def _pdf_warnings(pages: list[str], *, total: int, repaired: bool) -> list[str]:
    warnings = []
    if total > len(pages):
        warnings.append(WARN_PDF_PAGES_SKIPPED.format(total=total, limit=len(pages)))
    if repaired:
        warnings.append(WARN_PDF_REPAIRED)
    blank = [str(number) for number, page in enumerate(pages, start=1) if _visible_chars(page) == 0]
    if blank:
        warnings.append(WARN_PDF_BLANK_PAGES.format(pages=", ".join(blank)))
    return warnings


def _visible_chars(text: str) -> int:
    return sum(1 for char in text if not char.isspace())


def _readable_chars(text: str) -> int:
    return sum(1 for char in text if not char.isspace() and _readable(char))


def _readable(char: str) -> bool:
    code = ord(char)
    return (
        0x21 <= code <= 0x7E  # ASCII
        or 0xAC00 <= code <= 0xD7A3  # Hangul syllables
        or 0x3130 <= code <= 0x318F  # Hangul jamo
        or 0x4E00 <= code <= 0x9FFF  # hanja
        or 0x2000 <= code <= 0x206F  # general punctuation
        or 0x3000 <= code <= 0x303F  # CJK punctuation
        or 0xFF01 <= code <= 0xFF5E  # full-width forms
        or char in "·※○●□■△▲▶◆◇☐☎①②③④⑤⑥⑦⑧⑨⑩"
    )

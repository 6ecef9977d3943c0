"""Text from a reporter's upload (PDF, DOCX, TXT) for the LLM; every failure is a `FileRejected`.

`precheck` and `precheck_metadata` parse nothing and may run anywhere (web process, webhook task).
`extract_text` parses and must run in a Celery prefork worker: MuPDF is C code that is not
thread-safe and can crash or stall on hostile input, so it belongs in a process that a hard
`time_limit` can kill. pymupdf and python-docx are imported lazily for the same reason: the web
process only prechecks and should not load MuPDF.

Layout: `detect` (kinds, magic bytes, prechecks, zip guard), `pdf`, `docx` and `text` (one parser
each), `reading_order` (a PDF page's lines, columns and table rows in reading order), `ocr`
(photos and scanned pages through Tesseract, only in the `io` worker), `extract` (`extract_text`),
`messages` (the Korean strings), `common` (`FileRejected`).
"""

from __future__ import annotations

from agents.sources.files.common import FileRejected
from agents.sources.files.detect import (
    MAX_FILE_BYTES,
    ZIP_MAX_ENTRIES,
    ZIP_MAX_RATIO,
    ZIP_MAX_TOTAL_BYTES,
    ZIP_RATIO_MIN_BYTES,
    detect_kind,
    precheck,
    precheck_metadata,
)
from agents.sources.files.extract import NEEDS_OCR, Extracted, extract_text
from agents.sources.files.messages import (
    MSG_DOCX_BOMB,
    MSG_DOCX_CORRUPT,
    MSG_DOCX_DOCTYPE,
    MSG_EMPTY_FILE,
    MSG_HWP,
    MSG_IMAGE,
    MSG_LEGACY_DOC,
    MSG_NO_TEXT,
    MSG_OCR_BUSY,
    MSG_OCR_TIMEOUT,
    MSG_OCR_UNAVAILABLE,
    MSG_OFFICE_ENCRYPTED,
    MSG_PDF_CORRUPT,
    MSG_PDF_ENCRYPTED,
    MSG_PDF_SCANNED,
    MSG_TOO_LARGE,
    MSG_TXT_BINARY,
    MSG_TXT_ENCODING,
    MSG_UNREADABLE,
    MSG_UNSUPPORTED,
    WARN_DOCX_SKIPPED_PARTS,
    WARN_DOCX_TRACKED_CHANGES,
    WARN_OCR,
    WARN_PDF_BLANK_PAGES,
    WARN_PDF_PAGES_SKIPPED,
    WARN_PDF_REPAIRED,
)
from agents.sources.files.ocr import (
    MAX_IMAGE_PIXELS,
    MAX_OCR_PAGES,
    OCR_PAGE_SECONDS,
    UNCERTAIN_MARK,
    ocr_available,
)
from agents.sources.files.pages import (
    MODEL_TEXT_CHARS,
    PAGE_BREAK,
    PageRange,
    page_range_in_text,
    parse_page_range,
    pick_pages,
)
from agents.sources.files.pdf import MAX_PDF_PAGES, MIN_CHARS_PER_PAGE, MIN_CHARS_TOTAL
from agents.sources.files.text import (
    TXT_MAX_BINARY_RATIO,
    TXT_MAX_NUL_RATIO,
    TXT_SAMPLE_CHARS,
    TXT_STRAY_NULS,
)

__all__ = [
    "MAX_FILE_BYTES",
    "MAX_IMAGE_PIXELS",
    "MAX_OCR_PAGES",
    "MAX_PDF_PAGES",
    "MIN_CHARS_PER_PAGE",
    "MIN_CHARS_TOTAL",
    "MODEL_TEXT_CHARS",
    "MSG_DOCX_BOMB",
    "MSG_DOCX_CORRUPT",
    "MSG_DOCX_DOCTYPE",
    "MSG_EMPTY_FILE",
    "MSG_HWP",
    "MSG_IMAGE",
    "MSG_LEGACY_DOC",
    "MSG_NO_TEXT",
    "MSG_OCR_BUSY",
    "MSG_OCR_TIMEOUT",
    "MSG_OCR_UNAVAILABLE",
    "MSG_OFFICE_ENCRYPTED",
    "MSG_PDF_CORRUPT",
    "MSG_PDF_ENCRYPTED",
    "MSG_PDF_SCANNED",
    "MSG_TOO_LARGE",
    "MSG_TXT_BINARY",
    "MSG_TXT_ENCODING",
    "MSG_UNREADABLE",
    "MSG_UNSUPPORTED",
    "NEEDS_OCR",
    "OCR_PAGE_SECONDS",
    "PAGE_BREAK",
    "TXT_MAX_BINARY_RATIO",
    "TXT_MAX_NUL_RATIO",
    "TXT_SAMPLE_CHARS",
    "TXT_STRAY_NULS",
    "UNCERTAIN_MARK",
    "WARN_DOCX_SKIPPED_PARTS",
    "WARN_DOCX_TRACKED_CHANGES",
    "WARN_OCR",
    "WARN_PDF_BLANK_PAGES",
    "WARN_PDF_PAGES_SKIPPED",
    "WARN_PDF_REPAIRED",
    "ZIP_MAX_ENTRIES",
    "ZIP_MAX_RATIO",
    "ZIP_MAX_TOTAL_BYTES",
    "ZIP_RATIO_MIN_BYTES",
    "Extracted",
    "FileRejected",
    "PageRange",
    "detect_kind",
    "extract_text",
    "ocr_available",
    "page_range_in_text",
    "parse_page_range",
    "pick_pages",
    "precheck",
    "precheck_metadata",
]

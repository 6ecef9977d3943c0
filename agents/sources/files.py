"""Text from a reporter's upload (PDF, DOCX, TXT) for the LLM; every failure is a `FileRejected`.

`precheck` and `precheck_metadata` parse nothing and may run anywhere (web process, webhook task).
`extract_text` parses and must run in a Celery prefork worker: MuPDF is C code that is not
thread-safe and can crash or stall on hostile input, so it belongs in a process that a hard
`time_limit` can kill. pymupdf and python-docx are imported lazily for the same reason: the web
process only prechecks and should not load MuPDF.
"""

from __future__ import annotations

import io
import logging
import math
import re
import unicodedata
import zipfile
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from docx.document import Document as DocxDocument
    from docx.oxml.xmlchemy import BaseOxmlElement
    from docx.section import _Footer, _Header
    from docx.table import Table
    from docx.text.paragraph import Paragraph

logger = logging.getLogger(__name__)

# --- Reporter-facing messages (Korean). Grouped here so wording is reviewed in one place. ---
MSG_EMPTY_FILE = "빈 파일입니다. 내용이 있는 파일을 다시 올려주세요."
MSG_TOO_LARGE = (
    "파일 용량이 3MB를 초과합니다(현재 {size}). 3MB 이하로 줄인 파일을 올리거나 본문을 붙여넣어 주세요."
)
MSG_UNSUPPORTED = "지원하지 않는 파일 형식입니다. (PDF, DOCX, TXT만 지원)"
MSG_IMAGE = MSG_UNSUPPORTED + " 이미지 속 글자는 읽을 수 없으니 본문을 붙여넣어 주세요."
MSG_LEGACY_DOC = MSG_UNSUPPORTED + " 예전 워드 형식(.doc)은 워드에서 DOCX나 PDF로 저장해 올려주세요."
MSG_HWP = "한글(HWP/HWPX) 파일은 읽을 수 없습니다. 한글에서 '다른 이름으로 저장'으로 PDF로 저장해 올려주세요."
MSG_OFFICE_ENCRYPTED = "비밀번호로 보호된 워드 문서입니다. 비밀번호를 해제한 파일을 올려주세요."
MSG_PDF_ENCRYPTED = "비밀번호로 보호된 PDF라 열 수 없습니다. 비밀번호를 해제한 파일을 올려주세요."
MSG_PDF_CORRUPT = "PDF 파일이 손상되었거나 올바른 PDF가 아닙니다. 원본을 다시 저장해 올려주세요."
MSG_PDF_SCANNED = (
    "스캔한 이미지로 된 PDF로 보여 글자를 읽을 수 없습니다(텍스트 정보 없음). "
    "글자를 선택할 수 있는 PDF를 올리거나 본문을 붙여넣어 주세요."
)
MSG_DOCX_CORRUPT = "DOCX 파일이 손상되어 읽을 수 없습니다. 워드에서 다시 저장하거나 PDF로 올려주세요."
MSG_DOCX_BOMB = (
    "DOCX 파일의 압축 구조가 비정상적입니다(풀면 지나치게 커지거나 항목이 너무 많음). "
    "워드에서 다시 저장하거나 PDF로 올려주세요."
)
MSG_DOCX_DOCTYPE = (
    "DOCX 파일 안에 허용되지 않는 XML 선언(DOCTYPE)이 있어 읽지 않았습니다. "
    "워드에서 다시 저장하거나 PDF로 올려주세요."
)
MSG_TXT_BINARY = "텍스트 파일이 아닌 것 같습니다(이진 데이터 포함). " + MSG_UNSUPPORTED
MSG_TXT_ENCODING = "텍스트 파일의 문자 인코딩을 알 수 없습니다. UTF-8로 저장해 올려주세요."
MSG_NO_TEXT = "파일에서 읽을 수 있는 글자가 없습니다. 내용을 확인해 다시 올려주세요."
MSG_UNREADABLE = "파일을 읽지 못했습니다. 손상되었을 수 있으니 다시 저장해 올리거나 본문을 붙여넣어 주세요."

WARN_PDF_PAGES_SKIPPED = (
    "전체 {total}쪽 중 앞의 {limit}쪽만 읽었습니다. 뒷부분이 필요하면 본문을 붙여넣어 주세요."
)
WARN_PDF_REPAIRED = "PDF 파일 일부가 손상되어 복구한 내용으로 읽었습니다. 빠진 내용이 없는지 확인해 주세요."
WARN_PDF_BLANK_PAGES = "글자가 없는 쪽({pages}쪽)은 읽지 못했습니다. 이미지로 된 쪽일 수 있습니다."
WARN_DOCX_TRACKED_CHANGES = (
    "문서에 변경 내용 추적(수정 표시)이 남아 있습니다. 삽입은 반영하고 삭제는 뺀 상태로 읽었으니 "
    "최종본이 맞는지 확인해 주세요."
)
WARN_DOCX_SKIPPED_PARTS = (
    "텍스트 상자나 콘텐츠 컨트롤 안의 글은 읽지 못했을 수 있습니다. "
    "빠진 내용이 있으면 본문을 붙여넣어 주세요."
)

# --- Limits ---
MAX_FILE_BYTES = 3 * 1024 * 1024
MAX_PDF_PAGES = 60
MIN_CHARS_PER_PAGE = 30  # below this average a PDF is an image scan without a text layer
MIN_CHARS_TOTAL = 50
ZIP_MAX_ENTRIES = 1000
ZIP_MAX_TOTAL_BYTES = 50 * 1024 * 1024
ZIP_MAX_RATIO = 100  # a blank python-docx file is ~22x; deflate tops out near 1000x
# Below this size a high ratio is harmless (the total cap bounds memory) and repetitive XML such as
# an empty table grid legitimately compresses beyond 100x, so the ratio is only judged above it.
ZIP_RATIO_MIN_BYTES = 1024 * 1024
TXT_MAX_NUL_RATIO = 0.01
TXT_STRAY_NULS = 8  # a few stray NULs (editor glitches) are removed, not fatal
TXT_MAX_BINARY_RATIO = 0.02
TXT_SAMPLE_CHARS = 100_000

_MIB = 1024 * 1024
_OLE2_MAGIC = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
_ZIP_MAGICS = (b"PK\x03\x04", b"PK\x05\x06", b"PK\x07\x08")
_IMAGE_MAGICS = (b"\x89PNG\r\n\x1a\n", b"\xff\xd8\xff", b"GIF87a", b"GIF89a", b"BM", b"II*\x00", b"MM\x00*")
_HWPX_MIMETYPE = b"application/hwp+zip"
# OLE2 directory entries store stream names as UTF-16LE; finding one names the format cheaply.
_OLE_ENCRYPTED_PACKAGE = "EncryptedPackage".encode("utf-16-le")
_OLE_HWP_STREAM = "HwpSummaryInformation".encode("utf-16-le")
_OLE_WORD_STREAM = "WordDocument".encode("utf-16-le")
# A DTD is never legitimate in OOXML; it is how billion-laughs payloads start. python-docx parses
# with huge_tree=True, so this scan is the guard. UTF-16 forms too, since lxml honours a UTF-16 BOM.
_DOCTYPE_MARKERS = tuple(
    marker.encode(codec)
    for marker in ("<!DOCTYPE", "<!ENTITY")
    for codec in ("ascii", "utf-16-le", "utf-16-be")
)
_SCAN_CHUNK = 1024 * 1024

_EXT_KINDS = {".pdf": "pdf", ".docx": "docx", ".txt": "txt"}
_MIME_KINDS = {
    "application/pdf": "pdf",
    "application/x-pdf": "pdf",
    "application/vnd.openxmlformats-officedocument.wordprocessingml.document": "docx",
    "text/plain": "txt",
}
_HWP_EXTS = frozenset({".hwp", ".hwpx", ".hwt", ".hwtx"})
_HWP_MIMES = frozenset(
    {
        "application/x-hwp",
        "application/haansofthwp",
        "application/vnd.hancom.hwp",
        "application/hwp+zip",
        "application/haansofthwpx",
        "application/vnd.hancom.hwpx",
    }
)
_LEGACY_OFFICE_EXTS = frozenset({".doc", ".dot", ".rtf", ".xls", ".ppt"})
_LEGACY_OFFICE_MIMES = frozenset({"application/msword", "application/rtf", "text/rtf"})
_IMAGE_EXTS = frozenset({".png", ".jpg", ".jpeg", ".gif", ".bmp", ".tif", ".tiff", ".webp", ".heic", ".heif"})

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
_BLANK_LINE_RUNS = re.compile(r"\n{3,}")
_CORRUPT_MESSAGES = {"pdf": MSG_PDF_CORRUPT, "docx": MSG_DOCX_CORRUPT}


class FileRejected(Exception):
    """An upload we cannot read; `user_message` is shown to the reporter as is."""

    def __init__(self, user_message: str, code: str) -> None:
        super().__init__(f"{code}: {user_message}")
        self.user_message = user_message
        self.code = code


@dataclass(frozen=True)
class Extracted:
    text: str
    kind: str  # "pdf" | "docx" | "txt"
    page_count: int  # PDF pages read; 0 for other kinds
    warnings: list[str]


# --- Public entry points ---


def detect_kind(*, data: bytes, file_name: str, mime_type: str = "") -> str:
    """Return "pdf", "docx" or "txt": magic bytes decide first, then the name and the MIME type."""
    by_magic = _kind_from_magic(data=data, file_name=file_name, mime_type=mime_type)
    if by_magic is not None:
        return by_magic
    return _kind_from_name(file_name=file_name, mime_type=mime_type)


def precheck(*, data: bytes, file_name: str, mime_type: str = "") -> str:
    """Cheap checks that parse nothing (safe in the web process); returns the kind."""
    _check_size(len(data))
    if not data:
        raise FileRejected(MSG_EMPTY_FILE, "empty")
    kind = detect_kind(data=data, file_name=file_name, mime_type=mime_type)
    if kind == "pdf" and b"%PDF-" not in data[:1024]:
        raise FileRejected(MSG_PDF_CORRUPT, "corrupt")
    if kind == "docx":
        _check_zip_directory(data)
    return kind


def precheck_metadata(*, file_name: str, mime_type: str, size: int) -> None:
    """Check what Telegram tells us before download. A size of 0 means Telegram did not say."""
    _check_size(size)
    _kind_from_name(file_name=file_name, mime_type=mime_type)


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
    text = "\n".join(line.rstrip() for line in text.split("\n"))
    return _BLANK_LINE_RUNS.sub("\n\n", text).strip("\n")


# --- Kind detection ---


def _kind_from_magic(*, data: bytes, file_name: str, mime_type: str) -> str | None:
    head = data[:1024]
    if data.startswith(_OLE2_MAGIC):
        _reject_ole2(data=data, file_name=file_name, mime_type=mime_type)
    if data.startswith(_ZIP_MAGICS):
        return _kind_from_zip(data=data, file_name=file_name, mime_type=mime_type)
    if data.startswith(b"HWP Document File"):  # HWP 3.x, before the OLE2 container
        raise FileRejected(MSG_HWP, "hwp")
    if data.startswith(_IMAGE_MAGICS) or _is_riff_webp(head) or _is_heif(head):
        raise FileRejected(MSG_IMAGE, "unsupported")
    if data.startswith(b"{\\rtf"):
        raise FileRejected(MSG_LEGACY_DOC, "unsupported")
    if b"%PDF-" in head:  # the PDF spec lets junk precede the header within 1 KB; MuPDF accepts it
        return "pdf"
    return None


def _reject_ole2(*, data: bytes, file_name: str, mime_type: str) -> None:
    """OLE2 is HWP, a legacy Office file or an encrypted DOCX (Word wraps those in OLE2)."""
    ext, mime = _ext(file_name), _mime(mime_type)
    if _OLE_ENCRYPTED_PACKAGE in data:
        raise FileRejected(MSG_OFFICE_ENCRYPTED, "encrypted")
    if _OLE_HWP_STREAM in data or ext in _HWP_EXTS or mime in _HWP_MIMES:
        raise FileRejected(MSG_HWP, "hwp")
    if _OLE_WORD_STREAM in data or ext in _LEGACY_OFFICE_EXTS or mime in _LEGACY_OFFICE_MIMES:
        raise FileRejected(MSG_LEGACY_DOC, "unsupported")
    # Any other OLE2 file a Korean newsroom receives is almost always a government HWP.
    raise FileRejected(MSG_HWP, "hwp")


def _kind_from_zip(*, data: bytes, file_name: str, mime_type: str) -> str:
    """Tell DOCX from HWPX and other zip formats by the directory alone."""
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            infos = {info.filename: info for info in archive.infolist()}
            hwpx_mimetype = _small_member(archive, infos.get("mimetype"))
    except Exception:
        # Not readable as a zip: trust the name (a broken .docx is then reported as corrupt).
        return _kind_from_name(file_name=file_name, mime_type=mime_type)
    if hwpx_mimetype.startswith(_HWPX_MIMETYPE) or "Contents/section0.xml" in infos:
        raise FileRejected(MSG_HWP, "hwp")
    if "[Content_Types].xml" in infos and any(name.startswith("word/") for name in infos):
        return "docx"
    kind = _kind_from_name(file_name=file_name, mime_type=mime_type)
    if kind != "docx":  # a zip (xlsx, odt, …) cannot be a PDF or a text file
        raise FileRejected(MSG_UNSUPPORTED, "unsupported")
    return kind


def _small_member(archive: zipfile.ZipFile, info: zipfile.ZipInfo | None) -> bytes:
    # The HWPX `mimetype` entry is ~20 bytes; anything larger is not worth reading here.
    if info is None or info.file_size > 256:
        return b""
    return archive.read(info)


def _kind_from_name(*, file_name: str, mime_type: str) -> str:
    """Kind from the extension, else the MIME type; raises for known-unsupported and unknown types."""
    ext, mime = _ext(file_name), _mime(mime_type)
    if ext in _HWP_EXTS or mime in _HWP_MIMES:
        raise FileRejected(MSG_HWP, "hwp")
    if ext in _EXT_KINDS:
        return _EXT_KINDS[ext]
    if ext in _LEGACY_OFFICE_EXTS or mime in _LEGACY_OFFICE_MIMES:
        raise FileRejected(MSG_LEGACY_DOC, "unsupported")
    if ext in _IMAGE_EXTS or mime.startswith("image/"):
        raise FileRejected(MSG_IMAGE, "unsupported")
    if mime in _MIME_KINDS:
        return _MIME_KINDS[mime]
    raise FileRejected(MSG_UNSUPPORTED, "unsupported")


def _ext(file_name: str) -> str:
    base = file_name.replace("\\", "/").rsplit("/", 1)[-1].strip().lower()
    return "." + base.rsplit(".", 1)[1] if "." in base else ""


def _mime(mime_type: str) -> str:
    return mime_type.split(";", 1)[0].strip().lower()


def _is_riff_webp(head: bytes) -> bool:
    return head.startswith(b"RIFF") and head[8:12] == b"WEBP"


def _is_heif(head: bytes) -> bool:
    return head[4:8] == b"ftyp" and head[8:12] in (b"heic", b"heix", b"mif1", b"avif")


# --- Cheap guards ---


def _check_size(size: int) -> None:
    if size > MAX_FILE_BYTES:
        raise FileRejected(MSG_TOO_LARGE.format(size=_format_size(size)), "too_large")


def _format_size(size: int) -> str:
    # Rounded up, so 3 MB + 1 byte reads "3.1MB" rather than a confusing "3.0MB".
    return f"{math.ceil(size * 10 / _MIB) / 10:.1f}MB"


def _check_zip_directory(data: bytes) -> None:
    """Zip-bomb guard from the central directory (declared sizes also bound what zipfile reads)."""
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            infos = archive.infolist()
    except Exception as exc:
        raise FileRejected(MSG_DOCX_CORRUPT, "corrupt") from exc
    if len(infos) > ZIP_MAX_ENTRIES or sum(info.file_size for info in infos) > ZIP_MAX_TOTAL_BYTES:
        raise FileRejected(MSG_DOCX_BOMB, "zip_bomb")
    if any(_ratio_too_high(info) for info in infos):
        raise FileRejected(MSG_DOCX_BOMB, "zip_bomb")
    if any(info.flag_bits & 0x1 for info in infos):  # encrypted entries: python-docx cannot read them
        raise FileRejected(MSG_DOCX_CORRUPT, "corrupt")


def _ratio_too_high(info: zipfile.ZipInfo) -> bool:
    if info.file_size <= ZIP_RATIO_MIN_BYTES:
        return False
    return info.file_size > ZIP_MAX_RATIO * max(info.compress_size, 1)


# --- PDF ---


def _extract_pdf(data: bytes) -> tuple[str, int, list[str]]:
    import pymupdf

    # MuPDF prints every complaint about a malformed object to stdout, which a Celery worker turns
    # into log lines by the hundred for one hostile file; collect them and log once instead.
    pymupdf.TOOLS.mupdf_display_errors(False)
    pymupdf.TOOLS.mupdf_display_warnings(False)
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
        pages = [document[number].get_text() for number in range(min(total, MAX_PDF_PAGES))]
        repaired = bool(document.is_repaired)
    _check_pdf_has_text(pages, repaired=repaired)
    return "\n\n".join(pages), len(pages), _pdf_warnings(pages, total=total, repaired=repaired)


def _check_pdf_has_text(pages: list[str], *, repaired: bool) -> None:
    if not pages:
        raise FileRejected(MSG_PDF_CORRUPT, "corrupt") if repaired else FileRejected(MSG_NO_TEXT, "empty")
    chars = sum(_visible_chars(page) for page in pages)
    if chars < MIN_CHARS_TOTAL or chars / len(pages) < MIN_CHARS_PER_PAGE:
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


# --- DOCX ---


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


# --- TXT ---


def _extract_txt(data: bytes) -> tuple[str, int, list[str]]:
    text = _decode_text(data)
    if _binary_ratio(text) > TXT_MAX_BINARY_RATIO:
        raise FileRejected(MSG_TXT_BINARY, "unsupported")
    return text, 0, []


def _decode_text(data: bytes) -> str:
    """UTF-8 (BOM or not), UTF-16 with a BOM, then CP949 (a superset of EUC-KR)."""
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        return _decode_or_reject(data, ("utf-16",))
    if data.count(0) > TXT_STRAY_NULS + TXT_MAX_NUL_RATIO * len(data):  # text in UTF-8/CP949 has no NULs
        raise FileRejected(MSG_TXT_BINARY, "unsupported")
    return _decode_or_reject(data, ("utf-8-sig", "cp949"))


def _decode_or_reject(data: bytes, codecs: tuple[str, ...]) -> str:
    for codec in codecs:
        try:
            return data.decode(codec)
        except UnicodeDecodeError:
            continue
    raise FileRejected(MSG_TXT_ENCODING, "unsupported")


def _binary_ratio(text: str) -> float:
    """Share of characters no text file contains: controls (bar whitespace), unassigned, surrogates."""
    # A sample is enough (binary data is binary throughout) and keeps a 3 MB file under 0.1 s.
    sample = text[:TXT_SAMPLE_CHARS]
    if not sample:
        return 0.0
    odd = sum(
        1
        for char in sample
        if char not in "\x00\t\n\r\x0c" and unicodedata.category(char) in ("Cc", "Cn", "Cs")
    )
    return odd / len(sample)


_EXTRACTORS: dict[str, Callable[[bytes], tuple[str, int, list[str]]]] = {
    "pdf": _extract_pdf,
    "docx": _extract_docx,
    "txt": _extract_txt,
}


def _printable(text: str) -> str:
    """Hostile files smuggle lone surrogates into names and parser messages; a log line must still
    encode as UTF-8 (a stream handler, or a test runner's report, would otherwise fail on it)."""
    return text.encode("utf-8", "backslashreplace").decode("utf-8")

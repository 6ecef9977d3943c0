"""Kind detection and the cheap checks that parse nothing (safe in the web process).

Magic bytes decide the kind first, then the name and the MIME type; HWP, legacy Office, images
and encrypted DOCX are refused with a message saying what to do. JPEG and PNG photos are the
"image" kind (read by OCR); other image formats are refused. A DOCX's zip directory is checked for
bombs before anything reads a member, an image's pixel count from its header.
"""

from __future__ import annotations

import io
import math
import zipfile

from agents.sources.files import ocr
from agents.sources.files.common import FileRejected
from agents.sources.files.messages import (
    MSG_DOCX_BOMB,
    MSG_DOCX_CORRUPT,
    MSG_EMPTY_FILE,
    MSG_HWP,
    MSG_IMAGE,
    MSG_LEGACY_DOC,
    MSG_OFFICE_ENCRYPTED,
    MSG_PDF_CORRUPT,
    MSG_TOO_LARGE,
    MSG_UNSUPPORTED,
)

# --- Limits ---
MAX_FILE_BYTES = 3 * 1024 * 1024
ZIP_MAX_ENTRIES = 1000
ZIP_MAX_TOTAL_BYTES = 50 * 1024 * 1024
ZIP_MAX_RATIO = 100  # a blank python-docx file is ~22x; deflate tops out near 1000x
# Below this size a high ratio is harmless (the total cap bounds memory) and repetitive XML such as
# an empty table grid legitimately compresses beyond 100x, so the ratio is only judged above it.
ZIP_RATIO_MIN_BYTES = 1024 * 1024

_MIB = 1024 * 1024
_OLE2_MAGIC = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
_ZIP_MAGICS = (b"PK\x03\x04", b"PK\x05\x06", b"PK\x07\x08")
_OCR_IMAGE_MAGICS = (b"\x89PNG\r\n\x1a\n", b"\xff\xd8\xff")
_IMAGE_MAGICS = (b"GIF87a", b"GIF89a", b"BM", b"II*\x00", b"MM\x00*")
_HWPX_MIMETYPE = b"application/hwp+zip"
# OLE2 directory entries store stream names as UTF-16LE; finding one names the format cheaply.
_OLE_ENCRYPTED_PACKAGE = "EncryptedPackage".encode("utf-16-le")
_OLE_HWP_STREAM = "HwpSummaryInformation".encode("utf-16-le")
_OLE_WORD_STREAM = "WordDocument".encode("utf-16-le")

_EXT_KINDS = {
    ".pdf": "pdf",
    ".docx": "docx",
    ".txt": "txt",
    ".jpg": "image",
    ".jpeg": "image",
    ".png": "image",
}
_MIME_KINDS = {
    "image/jpeg": "image",
    "image/jpg": "image",
    "image/png": "image",
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
_HEIC_EXTS = frozenset({".heic", ".heif"})
_HEIC_MIMES = frozenset({"image/heic", "image/heif", "image/heic-sequence", "image/heif-sequence"})
_HEIC_BRANDS = frozenset({b"heic", b"heix", b"hevc", b"hevx"})
_IMAGE_EXTS = frozenset({".png", ".jpg", ".jpeg", ".gif", ".bmp", ".tif", ".tiff", ".webp", ".heic", ".heif"})


# --- Public entry points ---


def detect_kind(*, data: bytes, file_name: str, mime_type: str = "") -> str:
    """Return "pdf", "docx", "txt" or "image": magic bytes decide first, then the name and the MIME type."""
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
    if kind == "image":
        ocr.require_ocr()
        ocr.image_inspect(data)
    return kind


def precheck_metadata(*, file_name: str, mime_type: str, size: int) -> None:
    """Check what Telegram tells us before download. A size of 0 means Telegram did not say."""
    _check_size(size)
    if _kind_from_name(file_name=file_name, mime_type=mime_type) == "image":
        ocr.require_ocr()


# --- Kind detection ---


def _kind_from_magic(*, data: bytes, file_name: str, mime_type: str) -> str | None:
    head = data[:1024]
    if data.startswith(_OLE2_MAGIC):
        _reject_ole2(data=data, file_name=file_name, mime_type=mime_type)
    if data.startswith(_ZIP_MAGICS):
        return _kind_from_zip(data=data, file_name=file_name, mime_type=mime_type)
    if data.startswith(_OCR_IMAGE_MAGICS) or _is_heic(head):
        return "image"
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
    if mime in _MIME_KINDS and _MIME_KINDS[mime] == "image":
        return "image"
    if ext in _LEGACY_OFFICE_EXTS or mime in _LEGACY_OFFICE_MIMES:
        raise FileRejected(MSG_LEGACY_DOC, "unsupported")
    if ext in _HEIC_EXTS or mime in _HEIC_MIMES:
        return "image"
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
    return bool(_ftyp_brands(head) & {b"mif1", b"msf1", b"avif"})


def _is_heic(head: bytes) -> bool:
    """An iPhone photo: HEIF with HEVC images (read by OCR like a JPEG). Some writers put the
    generic `mif1` first and `heic` only among the compatible brands, so all brands are read."""
    return bool(_ftyp_brands(head) & _HEIC_BRANDS)


def _ftyp_brands(head: bytes) -> set[bytes]:
    """The major and compatible brands of an ISO media file's leading `ftyp` box, else none."""
    if head[4:8] != b"ftyp":
        return set()
    end = min(int.from_bytes(head[:4], "big"), len(head))
    return {head[8:12]} | {head[i : i + 4] for i in range(16, end - 3, 4)}


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

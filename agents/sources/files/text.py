"""Plain text files: UTF-8, UTF-16 with a BOM or CP949, and binary data refused."""

from __future__ import annotations

import unicodedata

from agents.sources.files.common import FileRejected
from agents.sources.files.messages import MSG_TXT_BINARY, MSG_TXT_ENCODING

# --- Limits ---
TXT_MAX_NUL_RATIO = 0.01
TXT_STRAY_NULS = 8  # a few stray NULs (editor glitches) are removed, not fatal
TXT_MAX_BINARY_RATIO = 0.02
TXT_SAMPLE_CHARS = 100_000


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

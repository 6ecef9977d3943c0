"""Article text from a fetched page: v1's rules for Naver News, trafilatura for every other
outlet, decoded by content rather than by a lying charset header.

trafilatura and BeautifulSoup load on first use: the web process imports this package (through
the writing agent's tools) but never scrapes, and they cost ~30 MB and ~0.3 s to import.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from bs4 import Tag

NAVER_HOSTS = frozenset({"n.news.naver.com", "news.naver.com", "m.news.naver.com"})
NAVER_CONTAINERS = ("#dic_area", "#newsct_article", "#articleBodyContents")
# Caption, summary, byline and player boxes inside the Naver body container.
NAVER_NOISE = (
    "script, style, noscript, iframe, .media_end_summary, .byline, .byline_s, .byline_p, "
    ".end_photo_org, .img_desc, .vod_player_wrap, .reporter_area, .copyright"
)
NOISE_CLASS_PARTS = ("photo", "img", "vod")  # v1: skip paragraphs inside photo/video wrappers
MARKERS = frozenset("▶■◆●△▷▲►◇□★☆※➤")  # v1: lines starting with these are headings or links
BOLD_HEADING_MAX = 50  # v1: an all-bold paragraph shorter than this is a subheading
# 8-bit Western charsets decode any bytes, so a header naming them proves nothing for a Korean page.
UNTRUSTED_CHARSETS = frozenset(
    {"iso-8859-1", "latin-1", "latin1", "windows-1252", "cp1252", "us-ascii", "ascii"}
)
# WHATWG maps every EUC-KR label to windows-949 (a superset); Korean pages rely on it.
CHARSET_ALIASES = {"euc-kr": "cp949", "euckr": "cp949", "ks_c_5601-1987": "cp949", "ksc5601": "cp949"}

_META_CHARSET = re.compile(rb"""<meta[^>]+charset\s*=\s*["']?\s*([a-zA-Z0-9_\-:.]+)""", re.IGNORECASE)
_WHITESPACE = re.compile(r"\s+")


def naver_body(html: bytes | str, *, max_chars: int | None = None) -> str:
    """v1's Naver rules: paragraphs of the body container, captions/markers/bold headings skipped."""
    from bs4 import BeautifulSoup

    soup = BeautifulSoup(html, "lxml")
    container = next((found for sel in NAVER_CONTAINERS if (found := soup.select_one(sel))), None)
    if container is None:
        return ""
    _drop_noise(container)
    parts = _paragraphs(container) or _lines(container)
    return _accumulate(parts, max_chars)


def generic_body(
    html: bytes, *, url: str | None = None, charset: str | None = None, max_chars: int | None = None
) -> str:
    import trafilatura

    text = trafilatura.extract(
        _decode_for_trafilatura(html, charset),
        url=url,
        favor_precision=True,
        include_comments=False,
        include_tables=False,
        include_images=False,
    )
    text = (text or "").strip()
    return text[:max_chars] if max_chars else text


def _drop_noise(container: Tag) -> None:
    doomed = list(container.select(NAVER_NOISE))
    # v1 skipped paragraphs under any element whose class mentions photo/img/vod; here the search
    # stops at the container (v1's was unbounded) and applies to the line fallback too.
    doomed.extend(tag for tag in container.find_all(True) if _has_noise_class(tag))
    for tag in doomed:
        tag.decompose()


def _has_noise_class(tag: Tag) -> bool:
    classes = tag.get("class") or []
    return any(part in str(name).lower() for name in classes for part in NOISE_CLASS_PARTS)


def _paragraphs(container: Tag) -> list[str]:
    parts = []
    for paragraph in container.find_all("p"):
        text = _squash(paragraph.get_text(" ", strip=True))
        if text and not _is_marker_line(text) and not _is_bold_heading(paragraph, text):
            parts.append(text)
    return parts


def _lines(container: Tag) -> list[str]:
    """v1's fallback for bodies without <p> (most real Naver pages): one line per <br>/block."""
    bold = {_squash(tag.get_text(" ", strip=True)) for tag in container.find_all(["b", "strong"])}
    headings = {text for text in bold if text and len(text) < BOLD_HEADING_MAX}
    for br in container.find_all("br"):
        br.replace_with("\n")
    for block in container.find_all(
        ["p", "div", "li", "h1", "h2", "h3", "h4", "h5", "h6", "tr", "blockquote"]
    ):
        block.insert_before("\n")
        block.insert_after("\n")
    lines = (_squash(line) for line in container.get_text().split("\n"))
    return [line for line in lines if line and not _is_marker_line(line) and line not in headings]


def _is_marker_line(text: str) -> bool:
    return text[0] in MARKERS


def _is_bold_heading(paragraph: Tag, text: str) -> bool:
    if len(text) >= BOLD_HEADING_MAX:
        return False
    bold = paragraph.find(["b", "strong"])
    return bold is not None and _squash(bold.get_text(" ", strip=True)) == text


def _accumulate(parts: Sequence[str], max_chars: int | None) -> str:
    """v1's cap: take paragraphs until their total reaches max_chars, then cut hard."""
    if max_chars is None:
        return "\n".join(parts)
    kept: list[str] = []
    total = 0
    for part in parts:
        kept.append(part)
        total += len(part)
        if total >= max_chars:
            break
    return "\n".join(kept)[:max_chars]


def _squash(text: str) -> str:
    return _WHITESPACE.sub(" ", text).strip()


def _decode_for_trafilatura(body: bytes, header_charset: str | None) -> bytes | str:
    """Bytes for trafilatura's own detection, unless a trustworthy declaration decodes cleanly."""
    try:
        body.decode("utf-8")
        return body  # trafilatura's fast path
    except UnicodeDecodeError:
        pass
    meta = _META_CHARSET.search(body[:4096])
    declared = [meta.group(1).decode("ascii", "ignore") if meta else None, header_charset]
    for charset in declared:
        name = _charset_name(charset)
        if not name:
            continue
        try:
            return body.decode(name)
        except (LookupError, UnicodeDecodeError):
            continue
    return body  # no usable declaration: trafilatura guesses from the bytes


def _charset_name(charset: str | None) -> str:
    name = (charset or "").strip().lower()
    if not name or name in UNTRUSTED_CHARSETS:
        return ""
    return CHARSET_ALIASES.get(name, name)

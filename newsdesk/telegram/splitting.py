"""Plain text cut into Telegram-sized chunks, measured as Telegram measures them: the size of the
HTML-escaped text in UTF-16 code units."""

from __future__ import annotations

import html
import re

MAX_MESSAGE = 4096

# Separators from the most to the least natural place to cut. Each level only applies to a piece
# that is still too long after the previous one.
_SEPARATORS = (
    re.compile(r"\r?\n[ \t\r]*\n\s*"),  # paragraphs: one or more blank lines
    re.compile(r"\r?\n"),  # lines
    # sentence ends: . ! ? … (also when followed by a closing quote or bracket), then whitespace
    re.compile(r"(?:(?<=[.!?。！？…])|(?<=[.!?。！？…][\"'”’»)\]]))\s+"),
    re.compile(r"\s+"),  # words
)


def _escape(text: str) -> str:
    # Only & < > need escaping in Telegram HTML text; escaping quotes too would waste the budget.
    return html.escape(text, quote=False)


def _size(text: str) -> int:
    """Length of the escaped text in UTF-16 code units (Telegram's unit; >= len() in Python)."""
    escaped = _escape(text)
    return len(escaped) + sum(1 for char in escaped if ord(char) > 0xFFFF)


def split_text(text: str, limit: int = MAX_MESSAGE) -> list[str]:
    """Splits plain text into chunks whose *escaped* size is <= limit, in order.

    Cuts on blank lines first, then line breaks, sentence ends, spaces, and only then inside a
    word. Chunks are stripped of surrounding whitespace (Telegram strips it too) and never empty.
    Size is counted in UTF-16 code units, Telegram's unit, so it is never below `len()`.
    """
    if limit < 5:  # "&amp;" is 5 units: a smaller limit could not hold every character
        raise ValueError("limit must be at least 5")
    text = text.strip()
    if not text:
        return []
    chunks = _pack(text, limit, 0)
    return [chunk for chunk in (chunk.strip() for chunk in chunks) if chunk]


def _pack(text: str, limit: int, level: int) -> list[str]:
    if _size(text) <= limit:
        return [text]
    if level == len(_SEPARATORS):
        return _hard_cut(text, limit)
    # (piece, separator after it); escaped sizes add up, so sizes are computed once per piece.
    pieces: list[tuple[str, str]] = []
    start = 0
    for match in _SEPARATORS[level].finditer(text):
        pieces.append((text[start : match.start()], match.group()))
        start = match.end()
    pieces.append((text[start:], ""))

    chunks: list[str] = []
    current: list[str] = []
    current_size = 0
    pending_sep = ""  # separator between the current chunk and the next piece
    for piece, sep in pieces:
        piece_size = _size(piece)
        sep_size = _size(pending_sep) if current else 0
        if current and current_size + sep_size + piece_size <= limit:
            current.extend((pending_sep, piece))
            current_size += sep_size + piece_size
        else:
            if current:
                chunks.append("".join(current))
            if piece_size <= limit:
                current, current_size = [piece], piece_size
            else:
                parts = _pack(piece, limit, level + 1)
                chunks.extend(parts[:-1])
                current, current_size = [parts[-1]], _size(parts[-1])
        pending_sep = sep
    if current:
        chunks.append("".join(current))
    return chunks


def _hard_cut(text: str, limit: int) -> list[str]:
    chunks: list[str] = []
    start = size = 0
    for index, char in enumerate(text):
        char_size = _size(char)
        if size + char_size > limit:
            chunks.append(text[start:index])
            start, size = index, 0
        size += char_size
    chunks.append(text[start:])
    return chunks

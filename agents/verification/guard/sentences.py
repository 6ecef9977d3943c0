"""Korean article sentences, split so that the round trip split → join equals normalize_body.

The caller deletes flagged sentences and rebuilds the body, so the splitter must never lose or
change a character: it only ever cuts at a single space between two sentences.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Sentence:
    index: int  # 1-based position in the article; the LLM verifier refers to sentences by it
    text: str
    paragraph: int  # 0-based paragraph number


_SPACES = re.compile(r"\s+")
_FINAL = frozenset(".?!…")
# Marks that may follow the final punctuation and still belong to the sentence: 다.” 다.") 다.'
_TRAILERS = frozenset("”\"’'」』)]）")
_PAIRS = {"“": "”", "‘": "’", "「": "」", "『": "』", "(": ")", "[": "]", "（": "）"}
_CLOSERS = {closer: opener for opener, closer in _PAIRS.items()}
_TOGGLES = frozenset("\"'")  # straight quotes open and close with the same mark
_MARKS = re.compile(r"[“”‘’「」『』()\[\]（）\"']")
_OPENERS = "“\"‘'「『([（"
_LATIN = re.compile(r"[A-Za-z]{2}")
_INITIALS = re.compile(r"(?:[A-Za-z]\.)+")  # U.S. / U.N. / J. / e.g.
_DOTTED_NUMBER = re.compile(r"\d+\.")  # "1." list markers and "2026. 3. 5." dates end with a dot
_ABBREVIATIONS = frozenset(
    {"no", "dr", "mr", "mrs", "ms", "prof", "st", "jr", "sr", "inc", "co", "corp", "ltd", "vs", "etc", "gov"}
    | {"dept", "approx", "fig", "vol", "pp", "p", "jan", "feb", "mar", "apr", "jun", "jul", "aug", "sep"}
    | {"sept", "oct", "nov", "dec"}
)


def normalize_body(body: str) -> str:
    """Strip every line, collapse inner whitespace, drop empty lines, one blank line between paragraphs."""
    lines = (_SPACES.sub(" ", line).strip() for line in body.splitlines())
    return "\n\n".join(line for line in lines if line)


def split_sentences(body: str) -> list[Sentence]:
    sentences: list[Sentence] = []
    paragraphs = [p for p in normalize_body(body).split("\n\n") if p]
    for number, paragraph in enumerate(paragraphs):
        for text in _split_paragraph(paragraph):
            sentences.append(Sentence(index=len(sentences) + 1, text=text, paragraph=number))
    return sentences


def join_sentences(sentences: Sequence[Sentence]) -> str:
    """Sentences of one paragraph joined by a space, paragraphs by a blank line; empty texts are dropped."""
    paragraphs: dict[int, list[str]] = {}
    for sentence in sorted(sentences, key=lambda s: (s.paragraph, s.index)):
        if sentence.text.strip():
            paragraphs.setdefault(sentence.paragraph, []).append(sentence.text)
    return "\n\n".join(" ".join(texts) for texts in paragraphs.values())


def _split_paragraph(text: str) -> list[str]:
    quoted = _quoted_spans(text)
    pieces: list[str] = []
    start = 0
    for position, char in enumerate(text):
        if char != " " or any(a < position < b for a, b in quoted):
            continue
        if _ends_sentence(text[start:position]):
            pieces.append(text[start:position])
            start = position + 1
    pieces.append(text[start:])
    return pieces


def _quoted_spans(text: str) -> list[tuple[int, int]]:
    """(open, close) positions of balanced quotes and brackets; unmatched marks are ignored.

    Ignoring an unmatched mark matters: one stray quote must not glue a whole paragraph together.
    """
    spans: list[tuple[int, int]] = []
    stacks: dict[str, list[int]] = {opener: [] for opener in _PAIRS}
    pending: dict[str, int] = {}
    for match in _MARKS.finditer(text):
        mark, position = match.group(), match.start()
        if mark in _TOGGLES:
            if _is_apostrophe(text, position):
                continue
            if mark in pending:
                spans.append((pending.pop(mark), position))
            else:
                pending[mark] = position
        elif mark in _PAIRS:
            stacks[mark].append(position)
        elif stacks[_CLOSERS[mark]]:
            spans.append((stacks[_CLOSERS[mark]].pop(), position))
    return spans


def _is_apostrophe(text: str, position: int) -> bool:
    """An apostrophe between two Latin letters (Moody's, don't) is not a quote mark."""
    before, after = text[position - 1 : position], text[position + 1 : position + 2]
    return text[position] == "'" and _LATIN.fullmatch(before + after) is not None


def _ends_sentence(piece: str) -> bool:
    """True when the text before a space ends with sentence-final punctuation that really ends a sentence."""
    end = len(piece)
    while end > 0 and piece[end - 1] in _TRAILERS:
        end -= 1
    if end == 0 or piece[end - 1] not in _FINAL:
        return False
    if piece[end - 1] != ".":
        return True
    word = piece[:end].rsplit(" ", 1)[-1].lstrip(_OPENERS)
    if _INITIALS.fullmatch(word) or _DOTTED_NUMBER.fullmatch(word):
        return False
    return word[:-1].lower() not in _ABBREVIATIONS

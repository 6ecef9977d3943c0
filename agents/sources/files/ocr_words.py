"""What Tesseract's hOCR says about each word: its box, its characters' confidences — and what we do
with it: numbers that OCR split apart are put back together, and numbers it is unsure of are blanked.

Tesseract writes a space wherever the gap between two glyphs looks wide to it, and letter-spaced or
justified Korean pages (자간, 배분 정렬) widen the gaps inside numbers: "587억" comes back as
"5 87억", "18.5%" as "18. 5%". Whether such a gap is a real space is read from the page itself: a
gap between two pieces of a number no wider than the gaps between the letters of the same line,
plus a small margin (`JOIN_SLACK` of the digits' height), is inside one token; anything wider is a
space between two numbers and stays (bench/ocr_quality.py measures both ways of getting it wrong).

The □ policy works per digit: Tesseract's LSTM gives every character a confidence, and a number is
sure only if all of its digits and separators reach `min_confidence` and none of its digits is
odd-shaped (`ocr_doubt`). A word-level confidence mixes the Korean letters in, which is how right
digits were blanked and wrong ones kept before. A doubtful number is shown only if its crop's
second reading settles the doubt (`ocr_doubt.settled`); otherwise that number, not its whole
word, is blanked.
"""

from __future__ import annotations

import re
import statistics
from dataclasses import dataclass, field
from html.parser import HTMLParser

from agents.sources.files import ocr_doubt
from agents.sources.files.ocr_doubt import Glyph

UNCERTAIN_MARK = "□"
JOIN_SLACK = 0.25  # of the line's digit height, on top of the line's own letter gap (bench-chosen)
_BBOX = re.compile(r"bbox (-?\d+) (-?\d+) (-?\d+) (-?\d+)")
_X_BBOXES = re.compile(r"x_bboxes (-?\d+) (-?\d+) (-?\d+) (-?\d+)")
_X_CONF = re.compile(r"x_conf ([\d.]+)")
_NUMBER = re.compile(r"\d+(?:[.,]\d+)*")
_X_WCONF = re.compile(r"x_wconf ([\d.]+)")


@dataclass
class Word:
    text: str
    box: tuple[int, int, int, int]
    confidence: float
    glyphs: list[Glyph] = field(default_factory=list)


@dataclass
class Line:
    words: list[Word] = field(default_factory=list)


# --- hOCR ---


class _HocrParser(HTMLParser):
    """Lines, words and glyphs of Tesseract's hOCR (with `hocr_char_boxes=1`)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.lines: list[Line] = []
        self._stack: list[str] = []
        self._glyph: Glyph | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        kind, title = values.get("class") or "", values.get("title") or ""
        self._stack.append(kind)
        if kind in {"ocr_line", "ocr_caption", "ocr_header", "ocr_textfloat"}:
            self.lines.append(Line())
        elif kind == "ocrx_word" and self.lines:
            self.lines[-1].words.append(Word("", _box(_BBOX, title), _number(_X_WCONF, title)))
        elif kind == "ocrx_cinfo" and self.lines and self.lines[-1].words:
            self._glyph = Glyph("", _box(_X_BBOXES, title), _number(_X_CONF, title))

    def handle_endtag(self, tag: str) -> None:
        kind = self._stack.pop() if self._stack else ""
        if kind == "ocrx_cinfo" and self._glyph is not None:
            word = self.lines[-1].words[-1]
            word.glyphs.append(self._glyph)
            word.text += self._glyph.char
            self._glyph = None

    def handle_data(self, data: str) -> None:
        if self._glyph is not None:
            self._glyph.char += data


def parse_hocr(hocr: str) -> list[Line]:
    parser = _HocrParser()
    parser.feed(hocr)
    parser.close()
    return [line for line in parser.lines if line.words]


def _box(pattern: re.Pattern[str], title: str) -> tuple[int, int, int, int]:
    found = pattern.search(title)
    return (0, 0, 0, 0) if found is None else (int(found[1]), int(found[2]), int(found[3]), int(found[4]))


def _number(pattern: re.Pattern[str], title: str) -> float:
    found = pattern.search(title)
    return float(found[1]) if found else 0.0


# --- Numbers put back together ---


def joins(line: Line) -> list[bool]:
    """For each gap between neighbouring words of a line: is it inside one number?"""
    letter_gap = _letter_gap(line)
    height = _digit_height(line)
    flags = []
    for left, right in zip(line.words, line.words[1:], strict=False):
        ends_in_number = bool(re.search(r"\d[.,]?$", left.text))
        starts_number = bool(re.match(r"[.,]?\d", right.text))
        gap = right.box[0] - left.box[2]
        flags.append(ends_in_number and starts_number and gap <= letter_gap + JOIN_SLACK * height)
    return flags


def _letter_gap(line: Line) -> float:
    """The usual gap between two letters of one word on this line (its letter spacing)."""
    gaps = [
        right.box[0] - left.box[2]
        for word in line.words
        for left, right in zip(word.glyphs, word.glyphs[1:], strict=False)
    ]
    return max(statistics.median(gaps), 0) if gaps else 0.0


def _digit_height(line: Line) -> float:
    heights = [
        glyph.box[3] - glyph.box[1] for word in line.words for glyph in word.glyphs if glyph.char.isdigit()
    ]
    if heights:
        return statistics.median(heights)
    return statistics.median(word.box[3] - word.box[1] for word in line.words)


# --- The text with numbers joined and unsure ones blanked ---


@dataclass
class Reading:
    text: str  # OCR's text with split numbers joined
    trusted_text: str  # the same with the digits of unsure numbers blanked
    uncertain: list[str]  # the unsure numbers as read


def apply(
    text: str,
    lines: list[Line],
    *,
    min_confidence: float,
    confirmed: set[str] | None = None,
    opinions: dict[tuple[int, int], list[Glyph]] | None = None,
    third_opinions: list[dict[tuple[int, int], list[Glyph]]] | None = None,
) -> Reading:
    """Joins split numbers in `text` (Tesseract's own text, whose spacing is right for Korean) and
    blanks unsure ones. hOCR words appear in the text in the same order, so each is found after the
    previous one; a word that cannot be found (rare) is left as it is, its digits blanked. With
    `confirmed` (the numbers another reading of the page found), a number outside it is unsure
    however confident; `opinions` (a number's crop read again, keyed by `number_groups`) can settle
    a doubt (`ocr_doubt.settled`), and where it does not, `third_opinions` (the crop at other sizes).
    """
    out = _Rebuilt()
    cursor = 0
    for line_index, line in enumerate(lines):
        flags = [*joins(line), False]
        group: list[Word] = []
        first = 0
        for word_index, (word, joined_to_next) in enumerate(zip(line.words, flags, strict=True)):
            position = text.find(word.text, cursor)
            if position < 0:
                continue
            between = text[cursor:position]
            if group and not between.strip(" "):
                between = ""  # the split inside a number goes
            # Text between two found words is only spacing, unless a word could not be found: its
            # digits were never checked, so they are not shown as sure.
            out.add(between, blank_digits(between))
            out.add(repaired(word), repaired(word))
            cursor = position + len(word.text)
            if not group:
                first = word_index
            group.append(word)
            if not joined_to_next:
                key = (line_index, first)
                asked = [found.get(key) for found in [opinions or {}, *(third_opinions or [])]]
                _judge(group, out, min_confidence=min_confidence, confirmed=confirmed, opinions=asked)
                group = []
    out.add(text[cursor:], blank_digits(text[cursor:]))
    return Reading("".join(out.pieces), "".join(out.trusted), out.uncertain)


@dataclass
class _Rebuilt:
    """The text rebuilt as untouched stretches and words, and the same with unsure numbers blanked."""

    pieces: list[str] = field(default_factory=list)
    trusted: list[str] = field(default_factory=list)
    uncertain: list[str] = field(default_factory=list)

    def add(self, piece: str, trusted: str) -> None:
        self.pieces.append(piece)
        self.trusted.append(trusted)

    def group_slots(self, size: int) -> list[int]:
        """Where the last `size` words are: every other place from the end (each preceded by its
        "between" stretch, empty inside a joined number)."""
        return [len(self.trusted) - 1 - 2 * offset for offset in reversed(range(size))]


def number_groups(lines: list[Line]) -> list[tuple[int, int, list[Word]]]:
    """The words of each number as `apply` joins them, keyed by line and first word, with a digit."""
    groups = []
    for line_index, line in enumerate(lines):
        flags = [*joins(line), False]
        first = 0
        for word_index, joined_to_next in enumerate(flags):
            if not joined_to_next:
                words = line.words[first : word_index + 1]
                if any(char.isdigit() for word in words for char in word.text):
                    groups.append((line_index, first, words))
                first = word_index + 1
    return groups


def doubtful(group: list[Word], *, min_confidence: float, confirmed: set[str] | None) -> set[int] | None:
    """The doubtful glyphs of a group's numbers (`ocr_doubt.suspects`, and every glyph of a number
    the second reading did not find), or None when it is sure or has no number."""
    chars = [(glyph, char) for word in group for glyph, char in _repaired_glyphs(word)]
    glyphs = [glyph for glyph, _ in chars]
    if not ocr_doubt.numeric_indices(glyphs):
        return None
    found = ocr_doubt.suspects(glyphs, min_confidence)
    if confirmed is not None and not set(_NUMBER.findall("".join(map(repaired, group)))) <= confirmed:
        numbers = list(_NUMBER.finditer("".join(char for _, char in chars)))
        unconfirmed = [number for number in numbers if number.group() not in confirmed] or numbers
        found |= {index for number in unconfirmed for index in range(number.start(), number.end())}
    return found or None


def _judge(
    group: list[Word],
    out: _Rebuilt,
    *,
    min_confidence: float,
    confirmed: set[str] | None,
    opinions: list[list[Glyph] | None],
) -> None:
    """Leaves a sure group as it is, writes a settled one as the second opinion read it, and
    blanks the doubtful numbers of the rest (a sure number beside one in the same word stays)."""
    doubts = doubtful(group, min_confidence=min_confidence, confirmed=confirmed)
    if doubts is None:
        return
    slots = out.group_slots(len(group))
    glyphs = _group_glyphs(group)
    fixed = None
    for opinion in opinions:  # the second opinion first; a third only where it settles nothing
        fixed = fixed or (ocr_doubt.settled(glyphs, doubts, opinion, min_confidence) if opinion else None)
    if fixed is not None:
        for slot in slots:
            out.pieces[slot] = out.trusted[slot] = ""
        out.pieces[slots[-1]] = out.trusted[slots[-1]] = fixed
        return
    out.uncertain.append("".join(word.text for word in group))
    text = "".join(out.trusted[slot] for slot in slots)
    if len(text) != len(glyphs):  # the glyphs can't be placed in the text: all of it is blanked
        doubts = set(range(len(text)))
    kept = list(text)
    for number in _NUMBER.finditer(text):
        if doubts.intersection(range(number.start(), number.end())):
            kept[number.start() : number.end()] = blank_digits(number.group())
    for slot in slots:
        out.trusted[slot], kept = "".join(kept[: len(out.trusted[slot])]), kept[len(out.trusted[slot]) :]


def settles(
    group: list[Word], opinion: list[Glyph] | None, *, min_confidence: float, confirmed: set[str] | None
) -> bool:
    """Whether `opinion` settles the group's doubt (or there is none), as `apply` would judge it."""
    doubts = doubtful(group, min_confidence=min_confidence, confirmed=confirmed)
    if doubts is None:
        return True
    return (
        bool(opinion) and ocr_doubt.settled(_group_glyphs(group), doubts, opinion, min_confidence) is not None
    )


def _group_glyphs(group: list[Word]) -> list[Glyph]:
    return [
        Glyph(char, glyph.box, glyph.confidence) for word in group for glyph, char in _repaired_glyphs(word)
    ]


def _repaired_glyphs(word: Word) -> list[tuple[Glyph, str]]:
    """The word's glyphs with their characters as `repaired` reads them (the original ones when
    the repair changed the length)."""
    text = repaired(word)
    chars = list(text) if len(text) == len(word.glyphs) else [glyph.char for glyph in word.glyphs]
    return list(zip(word.glyphs, chars, strict=True))


def repaired(word: Word) -> str:
    """The word with a thousands comma that OCR read as a period, or as a comma and a period, put
    back ("2.398억", "26,.136호" → "2,398억", "26,136호").

    A period and a comma differ by the comma's tail below the line, so only a separator whose
    box reaches below the digits' baseline, or stands taller than a dot, is changed, and only where
    exactly three digits follow (a thousands group): "1.187명" printed with a real period stays.
    """
    glyphs = word.glyphs
    if len(glyphs) != len(word.text):
        return word.text
    chars = list(word.text)
    for index in range(1, len(glyphs) - 3):
        digits_after = "".join(glyph.char for glyph in glyphs[index + 1 : index + 5])
        is_group = chars[index] == "." and re.fullmatch(r"\d{3}\D?", digits_after)
        if (
            is_group
            and glyphs[index - 1].char.isdigit()
            and ocr_doubt.has_a_tail(glyphs[index], glyphs[index - 1])
        ):
            chars[index] = ","
    # A comma whose tail came out as a dot of its own ("26,.136"): no number has both in a row.
    return re.sub(r"(?<=\d)(?:,\.|\.,)(?=\d)", ",", "".join(chars))


def numbers_in(text: str, lines: list[Line]) -> set[str]:
    """The numbers of a reading, split ones joined as `apply` joins them."""
    return set(_NUMBER.findall(apply(text, lines, min_confidence=0).text))


def blank_digits(word: str) -> str:
    return "".join(UNCERTAIN_MARK if char.isdigit() else char for char in word)

"""Which numbers OCR may have wrong although it reads them confidently, and when a second opinion
(the number's box read again on its own, `ocr_recheck`) settles the doubt.

Tesseract's per-character confidence misses one kind of misread: a glyph next to a number that is
read as one more digit of it, at confidence 99 ("929.9g" → "929.99", "1,029" → "11029",
"2020-09-01[" → "2020-09-011"). Such a "digit" often gives itself away by where it sits: below the
baseline of the number's other digits (a "g"'s descender, a comma's tail), or with its top below
theirs (a letter's x-height). Position alone also flags right digits (the boxes of a tilted or
blurred photo jitter), and a low confidence flags many right ones, so a doubtful number is read
again from its own crop (`ocr_recheck`), and the doubt is settled only when the two readings agree
and each digit is sure in one of them, or when the second, sure of itself, differs from the first
by exactly one doubtful glyph (dropped, or read as a separator). Anything else stays blanked (□):
a blank is always safer than a wrong digit.
"""

from __future__ import annotations

import re
import statistics
from dataclasses import dataclass, replace


@dataclass
class Glyph:
    """One character of Tesseract's reading, with its box and confidence (0-100)."""

    char: str
    box: tuple[int, int, int, int]
    confidence: float


# Bench-chosen (bench/ocr_quality.py): of the median of the number's other digits.
BELOW_BASELINE = 0.2  # a digit reaching this share of their height below their baseline
LOWER_TOP = 0.15  # a digit whose top is this share of their height below theirs
OPINION_CONFIDENCE = 97  # a differing second opinion is sure of its digits at this and at the □ threshold
SEPARATOR_SLACK = 3  # a separator (printed small, read less surely) is sure 3 points below a digit
SEPARATOR_BOTH = 90  # ... or when both readings agree on it at this (bench-chosen)
NUMBER = re.compile(r"\d+(?:[.,]\d+)*")
# A comma's tail reaches this far below the digits' baseline, or its box is this tall (of the digit height).
COMMA_BELOW, COMMA_HEIGHT = 0.07, 0.3
# A whole number with a leading zero and two or more digits after it ("02322"): the bench's news and
# releases print none, but after a Korean unit ("3만0637호") or with a dash, colon or slash (a phone
# or code "044-202", a time), which are left alone. It is what letters read as digits look like
# ("OZ322" read "02322", at 99-100), and both readings of the page make that slip alike.
ODD_ZERO = re.compile(r"(?<![\d.,:/\-만억조])0\d{2,}(?:[.,]\d+)*(?![\d:/-])")


def numeric_indices(glyphs: list[Glyph]) -> list[int]:
    """Digits, and separators with a digit on both sides."""
    return [
        index
        for index, glyph in enumerate(glyphs)
        if glyph.char.isdigit()
        or (
            glyph.char in ".,"
            and 0 < index < len(glyphs) - 1
            and glyphs[index - 1].char.isdigit()
            and glyphs[index + 1].char.isdigit()
        )
    ]


def suspects(glyphs: list[Glyph], min_confidence: float, *, touching: bool = False) -> set[int]:
    """Indices of the glyphs that make a number doubtful: a digit or separator read below
    `min_confidence`, or an odd-shaped digit; with `touching`, also a digit next to a glyph read
    below it (where the number ends is then unsure: "2020-09-01[" read as "2020-09-011")."""
    numeric = numeric_indices(glyphs)
    found = {index for index in numeric if glyphs[index].confidence < min_confidence}
    for index in numeric if touching else []:
        for neighbour in (index - 1, index + 1):
            if (
                0 <= neighbour < len(glyphs)
                and neighbour not in numeric
                and glyphs[neighbour].confidence < min_confidence
            ):
                found.add(index)
    return found | odd_shaped(glyphs) | odd_zero(glyphs)


def odd_zero(glyphs: list[Glyph]) -> set[int]:
    """The digits of a number print would not write: a leading zero before two or more digits."""
    numbers = ODD_ZERO.finditer(_text(glyphs))
    return {index for found in numbers for index in range(found.start(), found.end())}


def odd_shaped(glyphs: list[Glyph]) -> set[int]:
    """Digits that sit lower than the other digits of their number: reaching below their baseline
    (a descender, a comma's tail) or starting below their tops (a shorter glyph: a letter's
    x-height, a comma). A box's width says nothing here: Tesseract's glyph boxes for right digits
    were as often wide as those of merged glyphs (bench)."""
    digits = [index for index, glyph in enumerate(glyphs) if glyph.char.isdigit()]
    odd = set()
    for index in digits:
        others = [glyphs[other].box for other in digits if other != index]
        if len(others) < 2:  # a median of fewer says nothing
            continue
        height = max(statistics.median(box[3] - box[1] for box in others), 1)
        box = glyphs[index].box
        below = (box[3] - statistics.median(box[3] for box in others)) / height
        lower_top = (box[1] - statistics.median(box[1] for box in others)) / height
        if below > BELOW_BASELINE or lower_top > LOWER_TOP:
            odd.add(index)
    return odd


def settled(
    glyphs: list[Glyph], doubtful: set[int], opinion: list[Glyph] | None, min_confidence: float
) -> str | None:
    """The group's text as the second opinion settles it, or None if the doubt stays.

    Two ways to settle. The opinion reads the same numbers, and every digit and separator of
    them is read at `min_confidence` by at least one of the two readings (one is sure, the other
    agrees), with no odd-shaped digit in the opinion. Or the opinion,
    sure of every digit and of the glyphs touching them, differs by exactly one doubtful glyph: a
    doubtful digit dropped ("2020-09-011" → "2020-09-01") or read as a separator ("11029" →
    "1,029"). Any other difference is two readings that disagree, and the number stays blanked.
    """
    if not opinion or any(len(glyph.char) != 1 for glyph in [*glyphs, *opinion]):
        return None
    text = "".join(glyph.char for glyph in glyphs)
    if any(_group_separator(text, index) for index in doubtful):
        return None  # "2.398" or "2,398": a period and a comma look alike at any scale
    first = [(found.start(), found.group()) for found in NUMBER.finditer(text)]
    opinion = _tidied(opinion, glyphs, [number for _, number in first])
    second = NUMBER.findall("".join(glyph.char for glyph in opinion))
    if len(first) != len(second):
        return None
    if [number for _, number in first] == second:
        # Letters read as digits are read so by both readings alike ("OZ322" as "02322", at 99-100).
        return text if _agree_surely(glyphs, opinion, min_confidence) and not odd_zero(glyphs) else None
    if suspects(opinion, max(min_confidence, OPINION_CONFIDENCE), touching=True):
        return None
    for (start, number), other in zip(first, second, strict=True):
        if other != number and not _one_doubtful_edit(number, other, start, doubtful):
            return None
    numbers = iter(second)
    return NUMBER.sub(lambda _: next(numbers), text)


def _agree_surely(glyphs: list[Glyph], opinion: list[Glyph], min_confidence: float) -> bool:
    """Each digit and separator is sure in one reading or the other, and the opinion has no
    odd-shaped digit. (Asking more of the agreeing opinion, its touching glyphs sure too, blanked
    right figures on the bench and caught no wrong one.)"""
    ours, theirs = numeric_indices(glyphs), numeric_indices(opinion)
    if len(ours) != len(theirs) or odd_shaped(opinion):
        return False
    return all(
        _sure_in_either(glyphs[one], opinion[other], min_confidence)
        for one, other in zip(ours, theirs, strict=True)
    )


def _sure_in_either(ours: Glyph, theirs: Glyph, min_confidence: float) -> bool:
    """One reading is sure of the glyph; or, for a separator (printed small, read less surely),
    both read it fairly surely. Digits get no such slack: two readings both fairly sure of a "%"
    read as "06" were both wrong (bench)."""
    if ours.char not in ".,":
        return max(ours.confidence, theirs.confidence) >= min_confidence
    if max(ours.confidence, theirs.confidence) >= min_confidence - SEPARATOR_SLACK:
        return True
    return min(ours.confidence, theirs.confidence) >= SEPARATOR_BOTH


def _one_doubtful_edit(number: str, other: str, start: int, doubtful: set[int]) -> bool:
    """`other` is `number` with one doubtful digit dropped or turned into a separator."""
    for offset, char in enumerate(number):
        if start + offset not in doubtful or not char.isdigit():
            continue
        rest = number[offset + 1 :]
        if other in (number[:offset] + rest, number[:offset] + "," + rest, number[:offset] + "." + rest):
            return True
    return False


def _group_separator(text: str, index: int) -> bool:
    """A period before exactly three digits: a decimal point, or a thousands comma read as one."""
    return re.match(r"\.\d{3}(?!\d)", text[index:]) is not None


def has_a_tail(separator: Glyph, digit: Glyph) -> bool:
    """A separator drawn as a comma: its box reaches below the digit's baseline or stands taller
    than a dot."""
    height = max(digit.box[3] - digit.box[1], 1)
    below = (separator.box[3] - digit.box[3]) / height
    tall = (separator.box[3] - separator.box[1]) / height
    return below >= COMMA_BELOW or tall >= COMMA_HEIGHT


def _tidied(opinion: list[Glyph], glyphs: list[Glyph], ours: list[str]) -> list[Glyph]:
    """The opinion read as the page's reading is: a comma whose tail came out as a dot of its own
    (",." between digits) is one comma; a thousands comma it reads as a period where the page's
    reading saw a comma drawn with a tail is that comma (the shape decides, not the reading); and
    numbers it read past the page's own (the crop reached the rest of the line) are not its."""
    chars = [glyph.char for glyph in opinion]
    tidy: list[Glyph] = []
    for index, glyph in enumerate(opinion):
        pair = "".join(chars[index - 1 : index + 1]) if index else ""
        if pair in (",.", ".,") and index > 1 and chars[index - 2].isdigit() and _digit_at(chars, index + 1):
            tidy[-1] = (
                tidy[-1] if tidy[-1].char == "," else replace(tidy[-1], char=",", confidence=glyph.confidence)
            )
            continue
        tidy.append(glyph)
    tidy = _commas_by_shape(tidy, glyphs)
    return _cut_after(tidy, len(ours)) if NUMBER.findall(_text(tidy))[: len(ours)] == ours else tidy


def _commas_by_shape(opinion: list[Glyph], glyphs: list[Glyph]) -> list[Glyph]:
    """Where the page's reading has a comma with a comma's tail before exactly three digits and
    the opinion, otherwise the same number, reads a period there, the opinion's period is that
    comma. A real decimal point has no tail, and the page's reading of it is left to doubt."""
    ours, theirs = _text(glyphs), _text(opinion)
    if "." not in theirs or ours.replace(",", ".") not in theirs.replace(",", "."):
        return opinion
    offset = theirs.replace(",", ".").index(ours.replace(",", "."))
    fixed = list(opinion)
    for index, glyph in enumerate(glyphs):
        other = opinion[offset + index]
        if (
            glyph.char == ","
            and other.char == "."
            and index > 0
            and glyphs[index - 1].char.isdigit()
            and re.match(r",\d{3}(?!\d)", ours[index:])
            and has_a_tail(glyph, glyphs[index - 1])
        ):
            fixed[offset + index] = replace(other, char=",")
    return fixed


def _cut_after(opinion: list[Glyph], count: int) -> list[Glyph]:
    """The opinion up to the glyph after its `count`-th number, if that glyph is no digit or
    separator (a unit, a bracket: where the number plainly ended)."""
    ends = [found.end() for found in NUMBER.finditer(_text(opinion))]
    if count == 0 or len(ends) <= count:
        return opinion
    end = ends[count - 1]
    if end < len(opinion) and opinion[end].char not in ".,":
        return opinion[: end + 1]
    return opinion


def _digit_at(chars: list[str], index: int) -> bool:
    return index < len(chars) and chars[index].isdigit()


def _text(glyphs: list[Glyph]) -> str:
    return "".join(glyph.char for glyph in glyphs)

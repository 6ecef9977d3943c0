"""A second opinion on the numbers a page's reading doubts (`ocr_words.doubtful`): each one's box
cut from the prepared page with a margin, enlarged, and read again on its own as one line of text
(Tesseract's `--psm 7`). Read alone and larger, the glyph glued to a number ("2020-09-01[",
"929.9g", "1,029") is read as what it is more often than on the whole page; `ocr_doubt.settled`
decides whether the opinion settles the doubt, and a number it does not settle stays blanked.

All of a page's crops are read in one Tesseract run (a list of images, one hOCR page each), so the
model is loaded once per page, not once per number.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING

from agents.sources.files import ocr_words

if TYPE_CHECKING:
    from PIL.Image import Image

CROP_HEIGHT = 48  # pixels: a crop's box is enlarged to at least this height (bench-chosen)
# Third opinions where the second does not settle a doubt: the same crop at other sizes (bench-chosen).
THIRD_HEIGHTS: tuple[int, ...] = (32, 64, 80)
MARGIN = 1 / 3  # of the box's height, around it: a glyph glued to the number is read whole
BORDER = 16  # pixels of white around each crop, as Tesseract wants a line to stand clear
MAX_OPINIONS = 80  # crops per page; doubtful numbers past this stay blanked (a page of junk)
OPINION_CONFIG = "--psm 7"  # one line of text

Key = tuple[int, int]  # line index and first word index (`ocr_words.number_groups`)


def doubtful_groups(
    lines: list[ocr_words.Line], *, min_confidence: float, confirmed: set[str] | None
) -> list[tuple[Key, list[ocr_words.Word]]]:
    """The number groups a page's reading doubts at `min_confidence`, at most `MAX_OPINIONS`."""
    found = [
        ((line, first), words)
        for line, first, words in ocr_words.number_groups(lines)
        if ocr_words.doubtful(words, min_confidence=min_confidence, confirmed=confirmed) is not None
    ]
    return found[:MAX_OPINIONS]


def crop(image: Image, words: list[ocr_words.Word], *, height: int = CROP_HEIGHT) -> Image:
    """The words' box with a margin, enlarged to `height`, on a white border."""
    from PIL import Image as PILImage
    from PIL import ImageOps

    left, top = min(word.box[0] for word in words), min(word.box[1] for word in words)
    right, bottom = max(word.box[2] for word in words), max(word.box[3] for word in words)
    box_height = max(bottom - top, 1)
    margin = max(4, int(box_height * MARGIN))
    cut = image.crop((left - margin, top - margin, right + margin, bottom + margin))
    scale = max(1.0, height / box_height)
    cut = cut.resize((round(cut.width * scale), round(cut.height * scale)), PILImage.Resampling.LANCZOS)
    return ImageOps.expand(cut, border=BORDER, fill=255)


def opinions(
    image: Image,
    groups: list[tuple[Key, list[ocr_words.Word]]],
    *,
    read_all: Callable[[list[Image]], str],
    heights: tuple[int, ...] = (CROP_HEIGHT,),
) -> list[dict[Key, list[ocr_words.Glyph]]]:
    """Each group's opinions, one per crop height in `heights`: the glyphs of its crop's reading
    (`read_all` reads a list of images in one run and returns its hOCR, a page per image). All
    heights go through one run, so a third opinion costs its crops' reading, not a model load."""
    if not groups:
        return [{} for _ in heights]
    crops = [crop(image, words, height=height) for height in heights for _, words in groups]
    pages = split_pages(read_all(crops))
    if len(pages) != len(crops):  # a page lost: the pairing can't be trusted, nothing is settled
        return [{} for _ in heights]
    return [
        {
            key: [
                glyph for line in ocr_words.parse_hocr(page) for word in line.words for glyph in word.glyphs
            ]
            for (key, _), page in zip(groups, pages[start : start + len(groups)], strict=True)
        }
        for start in range(0, len(crops), len(groups))
    ]


_PAGE = re.compile(r"<div class=['\"]ocr_page['\"]")


def split_pages(hocr: str) -> list[str]:
    """A multi-image hOCR document's pages, in order."""
    starts = [found.start() for found in _PAGE.finditer(hocr)]
    return [hocr[start:end] for start, end in zip(starts, [*starts[1:], len(hocr)], strict=False)]

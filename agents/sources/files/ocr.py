"""Text from page images (photos, scans, image-only PDF pages) through Tesseract.

Why pytesseract rather than tesserocr (both measured, docs/operations.md, "OCR"): pytesseract runs the
Debian `tesseract` binary as a child process per page. That costs ~0.15 s per page of model
loading, but it buys what a worker needs from hostile input: a per-page time limit that kills
the child, a crash or an out-of-memory kill that takes down only the child, and memory returned
to the system after every page (the worker's own RSS does not grow). tesserocr links a second
copy of libtesseract into the worker process, where none of that holds.

Memory is bounded by what reaches Tesseract: one page at a time, rendered at most at
`OCR_MAX_DPI` and downscaled to `OCR_MAX_PIXELS`, with `OMP_THREAD_LIMIT=1`. Limits that can be
checked without decoding (pixel count from the image header, page count) are checked before
any work starts. Pillow and pymupdf are imported lazily, as in the rest of the package.

Numbers are what a reporter must not get wrong, so a number Tesseract doubts (a digit read below
`LOW_CONFIDENCE`, a "digit" set lower than the others: `ocr_doubt`) is read again from its own
crop (`ocr_recheck`); unless that second opinion (or a third, the crop at other sizes) settles
the doubt, it is listed as uncertain and blanked out of `trusted_text`: the writer still sees it,
but the fact guard and the verifier cannot use it as evidence.
"""

from __future__ import annotations

import contextlib
import functools
import io
import logging
import os
import re
import shutil
import subprocess
import tempfile
import time
import warnings
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from agents.sources.files import ocr_prep, ocr_recheck, ocr_words
from agents.sources.files.common import FileRejected
from agents.sources.files.messages import (
    MSG_IMAGE_CORRUPT,
    MSG_IMAGE_FAR_TOO_LARGE,
    MSG_IMAGE_TOO_LARGE,
    MSG_OCR_EMPTY,
    MSG_OCR_FAILED,
    MSG_OCR_UNAVAILABLE,
    WARN_OCR_PAGES_FAILED,
    WARN_OCR_PAGES_SKIPPED,
)
from agents.sources.files.pages import PAGE_BREAK
from agents.sources.files.pdf import _MUPDF_LOCK

if TYPE_CHECKING:
    from PIL.Image import Image

logger = logging.getLogger(__package__)

# --- Limits ---
MAX_IMAGE_PIXELS = 40_000_000  # refused from the header alone (a 12 MP phone photo is far below)
OCR_MAX_PIXELS = 12_000_000  # larger images are downscaled before Tesseract sees them
OCR_MAX_DPI = 200  # scanned PDF pages are rendered at most at this (read better than 300: bench/ocr.py)
MAX_OCR_PAGES = 10
OCR_PAGE_SECONDS = 19  # a page that takes longer is killed and reported (a 12 MP photo takes ~5 s)
# The run over a page's crops (`ocr_recheck`; 80 crops took 1.3-2.9 s of CPU on the bench): past
# this it is killed and the doubtful numbers stay blanked. Ten pages of 19 + 4 s (230 s) stay within
# the task's soft time limit (240 s).
OPINION_SECONDS = 4
LOW_CONFIDENCE = 98  # per-digit Tesseract confidence (0-100) below which a number is doubtful (bench-chosen)
OCR_LANG = "kor"  # the Korean model reads Latin letters and digits too
OCR_CONFIG = "--psm 6"  # one uniform block: best on press-release pages and tables (bench/ocr.py)
TESSERACT_CMD = os.environ.get("NEWSDESK_TESSERACT_CMD", "tesseract")
UNCERTAIN_MARK = ocr_words.UNCERTAIN_MARK
# Photos and screenshots are read twice (the second time at 0.8 scale) and a sure number must be
# among the second reading's numbers too: on the bench's phone photos that caught confident misreads
# (a digit dropped from "2021년") the per-digit confidences did not. Scanned PDFs are read once: the
# second reading was measured on photos only, and it is a second Tesseract run (bench/ocr.py).
SECOND_READING_IMAGES = True
# Every number the reading doubts is read again from its own crop (`ocr_recheck`), one more
# Tesseract run per page, and a doubt that second opinion settles is not blanked (`ocr_doubt`).
SECOND_OPINIONS = True
MIN_LETTERS = 20  # fewer letters and digits than this on all pages is "no text found"

_IMAGE_FORMATS = frozenset({"JPEG", "PNG", "HEIF"})


@dataclass
class OcrResult:
    text: str
    trusted_text: str
    pages: int
    uncertain: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)


# --- Availability ---


@functools.cache
def ocr_available() -> bool:
    """Tesseract and its Korean model are installed (asked once per process)."""
    if shutil.which(TESSERACT_CMD) is None:
        return False
    try:
        listed = subprocess.run(  # noqa: S603 (our configured binary, fixed arguments)
            [TESSERACT_CMD, "--list-langs"], capture_output=True, text=True, timeout=10, check=False
        )
    except (OSError, subprocess.SubprocessError):
        return False
    return OCR_LANG in listed.stdout.split()


def require_ocr() -> None:
    if not ocr_available():
        raise FileRejected(MSG_OCR_UNAVAILABLE, "ocr_unavailable")


# --- Cheap checks (header only; safe in the web process) ---


def image_inspect(data: bytes) -> tuple[int, int]:
    """Format and pixel count from the header, without decoding the pixels."""
    from PIL import Image, UnidentifiedImageError

    _register_heif()
    try:
        with _bombs_refused(), Image.open(io.BytesIO(data)) as image:
            size, image_format = image.size, image.format
    except (UnidentifiedImageError, OSError, ValueError) as exc:
        raise FileRejected(MSG_IMAGE_CORRUPT, "corrupt") from exc
    if image_format not in _IMAGE_FORMATS:
        raise FileRejected(MSG_IMAGE_CORRUPT, "corrupt")
    if size[0] * size[1] > MAX_IMAGE_PIXELS:
        raise _too_large(size[0] * size[1])
    return size


@functools.cache
def _register_heif() -> None:
    """iPhone photos (HEIC): pi-heif is libheif with its HEVC decoder only (LGPL, no encoder)."""
    import pi_heif

    pi_heif.register_heif_opener()


@contextlib.contextmanager
def _bombs_refused() -> Iterator[None]:
    """Pillow's decompression-bomb error and warning (past ~89 and ~179 megapixels) are the same
    answer as our own limit: too many pixels, not a damaged file."""
    from PIL import Image

    with warnings.catch_warnings():
        warnings.simplefilter("error", Image.DecompressionBombWarning)
        try:
            yield
        except (Image.DecompressionBombError, Image.DecompressionBombWarning) as exc:
            pixels = re.search(r"\((\d+) pixels\)", str(exc))
            raise _too_large(int(pixels[1]) if pixels else None) from exc


def _too_large(pixels: int | None) -> FileRejected:
    if pixels is None:
        return FileRejected(MSG_IMAGE_FAR_TOO_LARGE, "too_large")
    return FileRejected(MSG_IMAGE_TOO_LARGE.format(megapixels=f"{pixels / 1_000_000:.0f}"), "too_large")


# --- Work (worker only) ---


@dataclass
class Reading:
    """What Tesseract made of a file's pages, before the reporter's result is drawn from it."""

    pages: list[Page]
    failed: list[int]  # page numbers that could not be read in time
    total: int  # pages in the file


def ocr_image(data: bytes) -> OcrResult:
    return result_of(read_image(data), min_confidence=LOW_CONFIDENCE)


def ocr_pdf(data: bytes) -> OcrResult:
    return result_of(read_pdf(data), min_confidence=LOW_CONFIDENCE)


def read_image(data: bytes) -> Reading:
    from PIL import ImageOps

    require_ocr()
    image_inspect(data)
    image = _decode(data)
    image = ImageOps.exif_transpose(image)  # phone photos are stored sideways with a rotation tag
    page = _recognise(_fit(image.convert("L")), second_reading=SECOND_READING_IMAGES)
    return Reading([page], failed=[], total=1)


def read_pdf(data: bytes) -> Reading:
    """OCR of a PDF's pages, one page rendered and read at a time.

    MuPDF is touched only under the package's lock (its context is not thread-safe); Tesseract
    reads each rendered page outside it.
    """
    import pymupdf

    require_ocr()
    pages: list[Page] = []
    failed: list[int] = []
    with _MUPDF_LOCK:
        document = pymupdf.open(stream=data, filetype="pdf")
    try:
        total = document.page_count
        for number in range(min(total, MAX_OCR_PAGES)):
            with _MUPDF_LOCK:
                image = _render(document[number])
            try:
                pages.append(_recognise(image))
            except FileRejected:
                failed.append(number + 1)
    finally:
        with _MUPDF_LOCK:
            document.close()
    return Reading(pages, failed, total)


def _decode(data: bytes) -> Image:
    from PIL import Image

    _register_heif()
    try:
        with _bombs_refused():
            image = Image.open(io.BytesIO(data))
            image.load()
    except (OSError, ValueError) as exc:
        raise FileRejected(MSG_IMAGE_CORRUPT, "corrupt") from exc
    return image


def _fit(image: Image) -> Image:
    pixels = image.width * image.height
    if pixels <= OCR_MAX_PIXELS:
        return image
    scale = (OCR_MAX_PIXELS / pixels) ** 0.5
    return image.resize((int(image.width * scale), int(image.height * scale)))


def _render(page: Any) -> Image:
    """A page as a grayscale image at the highest DPI (≤ OCR_MAX_DPI) within OCR_MAX_PIXELS."""
    import pymupdf
    from PIL import Image

    area_inches = (page.rect.width / 72) * (page.rect.height / 72)
    dpi = min(OCR_MAX_DPI, int((OCR_MAX_PIXELS / max(area_inches, 1e-6)) ** 0.5))
    pixmap = page.get_pixmap(dpi=max(dpi, 1), colorspace=pymupdf.csGRAY, alpha=False)
    return Image.frombytes("L", (pixmap.width, pixmap.height), pixmap.samples)


@dataclass
class Page:
    text: str  # Tesseract's own text output: its word spacing is right, hOCR's is not for Korean
    lines: list[ocr_words.Line]  # words with their boxes and per-character confidences (hOCR)
    # The numbers a second reading of the page found (another scale): a figure neither reading
    # doubts but only one of them saw is a confident misread as often as not, so it is blanked.
    confirmed: set[str] | None = None
    # A second opinion on each doubtful number: its crop read again on its own (`ocr_recheck`),
    # keyed by line and first word (`ocr_words.number_groups`).
    opinions: dict[tuple[int, int], list[ocr_words.Glyph]] | None = None
    # The same crops at other sizes (`ocr_recheck.THIRD_HEIGHTS`), asked where the second does not settle.
    third_opinions: list[dict[tuple[int, int], list[ocr_words.Glyph]]] | None = None


def _recognise(image: Image, *, second_reading: bool = False) -> Page:
    """Tesseract's text and hOCR (boxes, per-character confidences) of the prepared page, and the
    numbers of a second, cheaper reading of it (`ocr_prep.second_view`)."""
    prepared = ocr_prep.prepare(image, max_pixels=OCR_MAX_PIXELS)
    text, hocr = _tesseract(prepared)
    page = Page(text, ocr_words.parse_hocr(hocr))
    if second_reading:
        second_text, second_hocr = _tesseract(ocr_prep.second_view(prepared))
        page.confirmed = ocr_words.numbers_in(second_text, ocr_words.parse_hocr(second_hocr))
    if SECOND_OPINIONS:
        _ask_opinions(page, prepared)
    return page


def _ask_opinions(page: Page, prepared: Image) -> None:
    """The doubtful numbers' crops read again (`ocr_recheck`); those the second opinion does not
    settle, read once more at other sizes as third opinions, in what is left of the same time limit
    (few numbers are left by then: one more Tesseract start, a few small crops)."""
    started = time.monotonic()
    doubtful = ocr_recheck.doubtful_groups(
        page.lines, min_confidence=LOW_CONFIDENCE, confirmed=page.confirmed
    )
    page.opinions = ocr_recheck.opinions(prepared, doubtful, read_all=_tesseract_crops)[0]
    left = [
        (key, words)
        for key, words in doubtful
        if not ocr_words.settles(
            words, page.opinions.get(key), min_confidence=LOW_CONFIDENCE, confirmed=page.confirmed
        )
    ]
    seconds = OPINION_SECONDS - (time.monotonic() - started)
    if left and ocr_recheck.THIRD_HEIGHTS and seconds >= 1:
        read_all = functools.partial(_tesseract_crops, seconds=seconds)
        page.third_opinions = ocr_recheck.opinions(
            prepared, left, read_all=read_all, heights=ocr_recheck.THIRD_HEIGHTS
        )


def _pytesseract() -> Any:
    """pytesseract, set up for every run: the page's and the crops' alike."""
    from pytesseract import pytesseract

    os.environ["OMP_THREAD_LIMIT"] = "1"  # Tesseract's OpenMP threads multiply its memory
    pytesseract.tesseract_cmd = TESSERACT_CMD
    return pytesseract


def _tesseract(prepared: Image) -> tuple[str, str]:
    """One Tesseract run writing both its text and its hOCR."""
    pytesseract = _pytesseract()
    config = f"{OCR_CONFIG} -c tessedit_create_txt=1 -c hocr_char_boxes=1"
    try:
        with pytesseract.save(prepared) as (base, input_name):
            pytesseract.run_tesseract(input_name, base, "hocr", OCR_LANG, config, 0, OCR_PAGE_SECONDS)
            return _read_output(base, "txt"), _read_output(base, "hocr")
    except RuntimeError as exc:  # pytesseract raises RuntimeError on its timeout
        logger.warning("OCR page timed out: %s", exc)
        raise FileRejected(MSG_OCR_FAILED, "ocr_timeout") from exc
    except (pytesseract.TesseractError, OSError) as exc:
        logger.warning("OCR failed: %s", exc)
        raise FileRejected(MSG_OCR_FAILED, "ocr_failed") from exc


def _tesseract_crops(images: list[Image], *, seconds: float | None = None) -> str:
    """One Tesseract run over a list of crops (`ocr_recheck`): its hOCR, a page per crop."""
    pytesseract = _pytesseract()
    config = f"{ocr_recheck.OPINION_CONFIG} -c hocr_char_boxes=1"
    with tempfile.TemporaryDirectory(prefix="ocr-crops-") as folder:
        names = []
        for number, image in enumerate(images):
            names.append(os.path.join(folder, f"{number}.png"))
            image.save(names[-1])
        listing, base = os.path.join(folder, "crops.txt"), os.path.join(folder, "out")
        with open(listing, "w", encoding="utf-8") as output:
            output.write("\n".join(names) + "\n")
        try:
            pytesseract.run_tesseract(listing, base, "hocr", OCR_LANG, config, 0, seconds or OPINION_SECONDS)
        except (RuntimeError, pytesseract.TesseractError, OSError) as exc:
            # The second opinions only ever un-blank numbers: without them the page stands as read.
            logger.warning("OCR second opinions failed: %s", exc)
            return ""
        return _read_output(base, "hocr")


def _read_output(base: str, extension: str) -> str:
    path = f"{base}.{extension}"
    try:
        with open(path, encoding="utf-8", errors="replace") as output:
            return output.read()
    finally:
        if os.path.exists(path):
            os.remove(path)


def result_of(reading: Reading, *, min_confidence: float) -> OcrResult:
    """The reporter's result from the pages read: split numbers joined, unsure ones blanked."""
    texts, trusted, uncertain = [], [], []
    failed, total = reading.failed, reading.total
    for page in reading.pages:
        read = ocr_words.apply(
            page.text,
            page.lines,
            min_confidence=min_confidence,
            confirmed=getattr(page, "confirmed", None),
            opinions=getattr(page, "opinions", None),
            third_opinions=getattr(page, "third_opinions", None),
        )
        texts.append(read.text.strip())
        trusted.append(read.trusted_text.strip())
        uncertain += read.uncertain
    if sum(_letters(text) for text in texts) < MIN_LETTERS:  # rules and specks read as a few jamo
        raise FileRejected(MSG_OCR_FAILED if failed else MSG_OCR_EMPTY, "empty")
    warnings = []
    if total > MAX_OCR_PAGES:
        warnings.append(WARN_OCR_PAGES_SKIPPED.format(total=total, limit=MAX_OCR_PAGES))
    if failed:
        warnings.append(WARN_OCR_PAGES_FAILED.format(pages=", ".join(map(str, failed))))
    # Pages are separated as a text PDF's are, so a page range picks from a scan the same way.
    page_break = f"\n{PAGE_BREAK}\n"
    return OcrResult(
        page_break.join(texts), page_break.join(trusted), len(reading.pages), uncertain, warnings
    )


def _letters(text: str) -> int:
    return sum(1 for char in text if char.isalnum() and not 0x3130 <= ord(char) <= 0x318F)

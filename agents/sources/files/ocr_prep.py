"""A page image made into what Tesseract reads best: even light, level lines, letters big enough.

Each step answers one way a reporter's picture differs from a clean 300-dpi scan (bench/ocr_quality.py
measures each kind of page with and without them, docs/ocr.md):

- uneven light (a desk lamp on one side, a vignette, grey paper): the page is divided by its own
  background, estimated where no letter is (a maximum over a window wider than a stroke), so
  Tesseract's single global threshold finds ink everywhere instead of losing the dark corner;
- a tilted page (a phone held at an angle, a sheet fed askew): the angle whose horizontal projection
  has the sharpest rows (text lines and the gaps between them) is the page's, and it is turned level;
- small letters (a 1280-pixel photo, a 96-dpi screenshot): a page whose long side is under
  `UPSCALE_BELOW` is doubled, which brings body text to the ~20-30 pixel height the Korean model
  reads best. Only small pages and only by two: scaling a 200-dpi page by 1.3 measurably lost
  thousands commas (bench/ocr_quality.py; the same page read 100% of its numbers unscaled).

Pillow only: OpenCV's headless wheel (~50 MB with numpy) would add adaptive thresholds and
perspective correction, and the measured gain left after these steps did not pay for it.
"""

from __future__ import annotations

import itertools
import statistics
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from PIL.Image import Image

UPSCALE_BELOW = 1800  # pixels on the long side (an A4 page under ~150 dpi) are doubled
SKEW_LIMIT = 4.0  # degrees either way; a photo tilted more is retaken, not guessed at
TEXT_HEIGHT = 29  # pixels: a body line of a 200-dpi scan, what the Korean model reads best (bench)
SHRINK_ABOVE = 1.2  # a page whose lines are taller than this times TEXT_HEIGHT is scaled down
STRIPS, MIN_RUN, MIN_LINES = 8, 8, 20  # text_height's strips, shortest line run, fewest lines to trust
SECOND_SCALE = 0.8  # the second reading's scale of the prepared page
BACKGROUND_WINDOW = 1 / 40  # of the long side: wider than any letter's stroke, narrower than light changes


def prepare(image: Image, *, max_pixels: int) -> Image:
    """A greyscale page, flattened, levelled, its rules whited out and scaled (never past `max_pixels`)."""
    flat = flatten_light(image)
    levelled = level(flat)
    # Level already (scans): rules are found on the page as it came, as measured. Turned (photos):
    # a tilted rule is no long run along a pixel row until the page is level, so they are found after.
    image = flatten_light(remove_rules(image)) if levelled is flat else remove_rules(levelled)
    image = shrink_large_text(image)
    return upscale(image, max_pixels=max_pixels)


def flatten_light(image: Image) -> Image:
    """The page divided by its background: paper becomes white wherever the light fell."""
    from PIL import Image as PILImage
    from PIL import ImageFilter, ImageMath

    factor = max(1, max(image.size) // 400)  # the background is smooth: estimate it on a small copy
    small = image.reduce(factor)
    window = max(3, round(max(small.size) * BACKGROUND_WINDOW)) | 1
    background = small.filter(ImageFilter.MaxFilter(window)).filter(ImageFilter.GaussianBlur(window))
    background = background.resize(image.size, PILImage.Resampling.BILINEAR)
    flat = ImageMath.lambda_eval(
        lambda names: (
            names["convert"](names["page"], "F") * 255.0 / (names["convert"](names["light"], "F") + 1.0)
        ),
        page=image,
        light=background,
    )
    return flat.convert("L")  # values above white are clipped to 255


def skew_angle(image: Image) -> float:
    """The rotation (degrees) that makes the page's text lines horizontal."""
    from PIL import Image as PILImage

    small = image.copy()
    small.thumbnail((900, 900))
    ink = small.point(lambda value: 255 if value < 160 else 0)  # ink bright, so rotation fills with paper

    def sharpness(angle: float) -> float:
        turned = ink.rotate(angle, resample=PILImage.Resampling.NEAREST)
        rows = turned.resize((1, turned.height), PILImage.Resampling.BOX).tobytes()
        return sum((a - b) ** 2 for a, b in itertools.pairwise(rows))

    best = max((step / 2 for step in range(int(-SKEW_LIMIT * 2), int(SKEW_LIMIT * 2) + 1)), key=sharpness)
    return max((best + step / 10 for step in range(-5, 6)), key=sharpness)


def level(image: Image) -> Image:
    from PIL import Image as PILImage

    angle = skew_angle(image)
    if abs(angle) < 0.15:  # Tesseract takes small skews in its stride; a rotation blurs a little
        return image
    return image.rotate(angle, resample=PILImage.Resampling.BICUBIC, expand=True, fillcolor=255)


def remove_rules(image: Image) -> Image:
    """Whites out table rules: Tesseract drops whole tables whose cells are boxed in by lines.

    A pixel run darker than the page for `k` pixels in a row (≈ 5 mm; no glyph stroke is that long)
    is a rule. Found without a per-pixel Python loop: the ink mask is box-averaged over windows of
    `k` pixels along one axis, and a window that is entirely ink marks a rule (bench/ocr.py: table
    numbers read 62% → 99% with it).
    """
    from PIL import Image as PILImage
    from PIL import ImageChops, ImageFilter

    k = max(24, image.width // 40)
    width, height = image.size
    ink = image.point(lambda value: 255 if value < 140 else 0)
    masks = []
    for size in ((max(width // k, 1), height), (width, max(height // k, 1))):
        windows = ink.resize(size, PILImage.Resampling.BOX).point(lambda value: 255 if value > 245 else 0)
        masks.append(windows.resize((width, height), PILImage.Resampling.NEAREST))
    rules = ImageChops.lighter(masks[0], masks[1]).filter(ImageFilter.MaxFilter(5))
    return ImageChops.lighter(image, rules)


def text_height(image: Image) -> float:
    """The usual height (pixels) of a text line: the median run of inked rows in narrow strips.

    Strips (an eighth of the width each) rather than the whole width, so a page left a little
    out of square by perspective still shows its lines apart; runs shorter than `MIN_RUN` are
    specks, rules' remains and punctuation rows, not lines.
    """
    from PIL import Image as PILImage

    width, height = image.size
    ink = image.point(lambda value: 255 if value < 150 else 0)
    runs: list[int] = []
    for strip in range(STRIPS):
        column = ink.crop((width * strip // STRIPS, 0, width * (strip + 1) // STRIPS, height))
        rows = column.resize((1, height), PILImage.Resampling.BOX).tobytes()
        run = 0
        for value in (*rows, 0):
            if value > 6:  # more than ~2.5% of the strip's row is ink
                run += 1
                continue
            if run >= MIN_RUN:
                runs.append(run)
            run = 0
    return float(statistics.median(runs)) if len(runs) >= MIN_LINES else 0.0


def shrink_large_text(image: Image) -> Image:
    """A page whose text lines are much taller than a 200-dpi scan's is scaled down to that height.

    A 12-megapixel phone photo of an A4 page carries ~300 dpi: the Korean model misreads more
    there (split digits, "%" and brackets read as digits) than at the 200 dpi it reads best.
    """
    from PIL import Image as PILImage

    measured = text_height(image)
    if measured <= TEXT_HEIGHT * SHRINK_ABOVE:
        return image
    scale = TEXT_HEIGHT / measured
    size = (round(image.width * scale), round(image.height * scale))
    return image.resize(size, PILImage.Resampling.LANCZOS)


def second_view(image: Image) -> Image:
    """The prepared page at another scale, for a second reading whose mistakes are not the first's."""
    from PIL import Image as PILImage

    size = (round(image.width * SECOND_SCALE), round(image.height * SECOND_SCALE))
    return image.resize(size, PILImage.Resampling.LANCZOS)


def upscale(image: Image, *, max_pixels: int) -> Image:
    from PIL import Image as PILImage

    if max(image.size) >= UPSCALE_BELOW or 4 * image.width * image.height > max_pixels:
        return image
    return image.resize((image.width * 2, image.height * 2), PILImage.Resampling.LANCZOS)

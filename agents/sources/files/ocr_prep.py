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
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from PIL.Image import Image

UPSCALE_BELOW = 1800  # pixels on the long side (an A4 page under ~150 dpi) are doubled
SKEW_LIMIT = 4.0  # degrees either way; a photo tilted more is retaken, not guessed at
BACKGROUND_WINDOW = 1 / 40  # of the long side: wider than any letter's stroke, narrower than light changes


def prepare(image: Image, *, max_pixels: int) -> Image:
    """A greyscale page, flattened, levelled and scaled (never past `max_pixels`)."""
    image = flatten_light(image)
    image = level(image)
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


def upscale(image: Image, *, max_pixels: int) -> Image:
    from PIL import Image as PILImage

    if max(image.size) >= UPSCALE_BELOW or 4 * image.width * image.height > max_pixels:
        return image
    return image.resize((image.width * 2, image.height * 2), PILImage.Resampling.LANCZOS)

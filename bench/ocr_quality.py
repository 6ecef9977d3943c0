"""How many printed figures OCR returns right, per kind of page a reporter sends (README "OCR").

The set (tests/fixtures/ocr_set.py) prints real Korean releases and turns each page into a flatbed
scan (150/200/300 dpi), a phone photo, a fax or a screenshot, seeded, so every run reads the same
pages. Each page goes through the product's OCR entry points (`ocr_pdf` for the PDFs, `ocr_image` for
the pictures), and every printed figure is classified in two views:

- read: OCR's own text — the figure exact, or not;
- shown: the trusted text the model gets — exact, blanked (□), split by a space, misread, missing.
  "sure but wrong" is a split or misread figure shown without □: the one the model would believe.

Then the one-page release with 20 figures as a 200-dpi scan, as a 12-megapixel phone photo, and as
that photo in HEIC when pillow-heif is installed. Pages of releases held out from tuning are
counted apart as well. Run: `.venv/bin/python bench/ocr_quality.py [--kinds photo,fax] [--per-kind N]`.
"""

from __future__ import annotations

import argparse
import io
import statistics
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from agents.sources.files import ocr
from agents.sources.files.common import FileRejected
from tests.fixtures import ocr_score, ocr_set

WRONG = ("split", "misread")


def read(sample: ocr_set.Sample) -> tuple[str, str, float]:
    """OCR's text and the trusted text of one sample, and the seconds it took."""
    started = time.monotonic()
    try:
        is_pdf = sample.file_name.endswith(".pdf")
        result = ocr.ocr_pdf(sample.data) if is_pdf else ocr.ocr_image(sample.data)
    except FileRejected as exc:
        print(f"  {sample.page.name} ({sample.kind}): refused: {exc.code}")
        return "", "", time.monotonic() - started
    return result.text, result.trusted_text, time.monotonic() - started


def tally(sample: ocr_set.Sample) -> tuple[Counter[str], Counter[str], float]:
    text, trusted, seconds = read(sample)
    return ocr_score.score(sample.page, text), ocr_score.score(sample.page, trusted), seconds


def row(label: str, pages: int, raw: Counter[str], shown: Counter[str], seconds: list[float]) -> str:
    total = sum(shown.values())
    sure_wrong = sum(shown[outcome] for outcome in WRONG)
    cells = [
        label,
        str(pages),
        str(total),
        f"{raw['exact'] / max(total, 1):.1%}",
        f"{shown['exact'] / max(total, 1):.1%}",
        str(shown["blanked"]),
        str(shown["split"]),
        str(shown["misread"]),
        str(shown["missing"]),
        str(sure_wrong),
        f"{statistics.median(seconds):.1f}" if seconds else "-",
    ]
    return "| " + " | ".join(cells) + " |"


HEADER = (
    "| kind | pages | figures | read exactly | shown exactly | blanked □ | split | misread | missing "
    "| sure but wrong | s/page |\n|---|---|---|---|---|---|---|---|---|---|---|"
)


def bench_set(kinds: tuple[str, ...], per_kind: int) -> None:
    raw_by: dict[str, Counter[str]] = defaultdict(Counter)
    shown_by: dict[str, Counter[str]] = defaultdict(Counter)
    seconds_by: dict[str, list[float]] = defaultdict(list)
    pages_by: Counter[str] = Counter()
    for sample in ocr_set.ocr_set(kinds=kinds, per_kind=per_kind):
        raw, shown, seconds = tally(sample)
        groups = [sample.kind, "all"] + (["held out"] if sample.page.held_out else [])
        for group in groups:
            raw_by[group] += raw
            shown_by[group] += shown
            seconds_by[group].append(seconds)
            pages_by[group] += 1
    print(HEADER)
    for group in [*kinds, "all", "held out"]:
        if pages_by[group]:
            print(row(group, pages_by[group], raw_by[group], shown_by[group], seconds_by[group]))


def bench_one_page() -> None:
    scan, photo = ocr_set.one_page_samples()
    samples = [("200-dpi scan (PDF)", scan), ("phone photo (JPEG)", photo)]
    heic = as_heic(photo)
    if heic is None:
        print("HEIC: pillow-heif is not installed; the HEIC row is left out")
    else:
        samples.append(("phone photo (HEIC)", heic))
    print("\none-page release, 20 figures:")
    print(HEADER.replace("| kind |", "| as |"))
    for label, sample in samples:
        raw, shown, seconds = tally(sample)
        print(row(label, 1, raw, shown, [seconds]))


def as_heic(sample: ocr_set.Sample) -> ocr_set.Sample | None:
    try:
        import pillow_heif
    except ImportError:
        return None
    from PIL import Image

    pillow_heif.register_heif_opener()
    buffer = io.BytesIO()
    Image.open(io.BytesIO(sample.data)).save(buffer, "HEIF", quality=80)
    return ocr_set.Sample(sample.page, "photo-heic", buffer.getvalue(), "photo.heic", sample.detail)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--kinds", default=",".join(ocr_set.KINDS))
    parser.add_argument("--per-kind", type=int, default=ocr_set.PAGES_PER_KIND)
    arguments = parser.parse_args()
    if not ocr.ocr_available():
        print("Tesseract with Korean data is not installed: apt-get install tesseract-ocr tesseract-ocr-kor")
        return
    print(
        f"OCR: lang {ocr.OCR_LANG}, {ocr.OCR_CONFIG}, scans rendered at <= {ocr.OCR_MAX_DPI} dpi, "
        f"□ below confidence {ocr.LOW_CONFIDENCE}"
    )
    bench_set(tuple(arguments.kinds.split(",")), arguments.per_kind)
    bench_one_page()


if __name__ == "__main__":
    main()

"""OCR time per page and peak memory for a 10-page scanned press release (docs/performance.md).

Renders ten printed Korean press-release pages (prose with amounts, dates and a boxed table) as a
scanned PDF (JPEG page images, no text layer), reads it with the worker's OCR path, and prints the
median time per page, the share of numbers read exactly, and the peak RSS of this process and of
the Tesseract child processes. Each page is also read with the second reading on (a second Tesseract
run whose numbers a sure number must be among, as photos are read: docs/ocr.md), so its cost is a
ratio from the same run; and without the second opinions (each doubtful number's crop read again,
one more Tesseract run per page: docs/ocr.md), on these pages and on a 12 MP phone photo of the
one-page release, read three times each way.
Run: `.venv/bin/python bench/ocr.py`.
"""

from __future__ import annotations

import functools
import os
import resource
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from agents.sources.files import ocr
from tests.fixtures.ocr_set import one_page_samples
from tests.fixtures.scans import number_accuracy, press_page, scanned_pdf

PAGES = 10


def main() -> None:
    if not ocr.ocr_available():
        print("Tesseract with Korean data is not installed: apt-get install tesseract-ocr tesseract-ocr-kor")
        return
    import pymupdf

    pages = [press_page(seed) for seed in range(PAGES)]
    data = scanned_pdf(pages)
    baseline_rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    times, second, without, texts = [], [], [], []
    with pymupdf.open(stream=data, filetype="pdf") as document:
        for page in document:
            started = time.monotonic()
            image = ocr._render(page)
            texts.append(ocr._recognise(image).text)
            times.append(time.monotonic() - started)
            second.append(_with_second_reading(image))
            without.append(_without_opinions(functools.partial(ocr._recognise, image)))
    accuracy = number_accuracy("\n".join(p.text for p in pages), "\n".join(texts))
    started = time.monotonic()
    result = ocr.ocr_pdf(data)
    whole = time.monotonic() - started
    child_rss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    self_rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"scan: {PAGES} pages, {len(data) / 1_048_576:.2f} MB, rendered at {ocr.OCR_MAX_DPI} dpi")
    median = statistics.median(times)
    print(f"OCR time per page: median {median:.2f} s (min {min(times):.2f}, max {max(times):.2f})")
    print(f"the same pages with the second reading: median {statistics.median(second):.2f} s")
    print(f"the same pages without the second opinions: median {statistics.median(without):.2f} s")
    print(f"whole 10-page scan through ocr_pdf: {whole:.1f} s, {result.pages} pages")
    print(f"numbers read exactly: {accuracy:.1%}; numbers marked uncertain: {len(result.uncertain)}")
    print(f"peak RSS: worker process {self_rss:.0f} MB (before OCR {baseline_rss:.0f} MB)")
    # A child's maximum includes the moment after fork and before exec, when it is a copy of us.
    print(f"peak RSS: tesseract child at most {child_rss:.0f} MB")
    print(f"OMP_THREAD_LIMIT={os.environ.get('OMP_THREAD_LIMIT')}")
    _photo_times()  # last: decoding a 12 MP photo would raise the peak RSS measured above


def _with_second_reading(image: object) -> float:
    """Seconds for the page read with the second reading on."""
    started = time.monotonic()
    ocr._recognise(image, second_reading=True)  # type: ignore[arg-type]
    return time.monotonic() - started


def _without_opinions(read: Callable[[], object]) -> float:
    """Seconds for `read` with the second opinions off (the path before them)."""
    started = time.monotonic()
    ocr.SECOND_OPINIONS = False
    try:
        read()
    finally:
        ocr.SECOND_OPINIONS = True
    return time.monotonic() - started


def _photo_times() -> None:
    """The one-page release as a 12 MP phone photo through `read_image`, with and without opinions."""
    _, photo = one_page_samples()
    read = lambda: ocr.read_image(photo.data)  # noqa: E731
    with_opinions, without = [], []
    for _ in range(3):
        started = time.monotonic()
        read()
        with_opinions.append(time.monotonic() - started)
        without.append(_without_opinions(read))
    print(
        f"12 MP phone photo (two readings): median {statistics.median(with_opinions):.2f} s, "
        f"without the second opinions {statistics.median(without):.2f} s"
    )


if __name__ == "__main__":
    main()

"""How many printed figures OCR returns right, per kind of page a reporter sends (docs/ocr.md).

The set (tests/fixtures/ocr_set.py) prints real Korean releases and turns each page into a flatbed
scan (150/200/300 dpi), a phone photo, a fax or a screenshot, seeded, so every run reads the same
pages. Each page goes through the product's OCR entry points (`read_pdf` for the PDFs,
`read_image` for the pictures) twice in the same run:

- before: the page as it came (no light flattening, levelling or upscaling), numbers as Tesseract
  spaced them, and a number blanked when its whole word's confidence is under 60 (the former policy);
- after: the product as it is now (`ocr.result_of`).

Every printed figure is classified in two views:

- read: OCR's text (after joining split numbers) — the figure exact, or not;
- shown: the trusted text the model gets — exact, blanked (□), split by a space, misread, missing.
  "sure but wrong" is a split or misread figure shown without □: the one the model would believe.

Then the □ policy's calibration on the "after" readings (kept-right and kept share for each per-digit
confidence threshold), and the one-page release with 20 figures as a 200-dpi scan, a 12-megapixel
phone photo and that photo in HEIC. Pages of releases held out from tuning are counted apart.
Time per page is bench/ocr.py's (timed alone); this one counts figures, so any load only slows it.
Run: `.venv/bin/python bench/ocr_quality.py [--kinds photo,fax] [--per-kind N] [--no-baseline]`.
"""

from __future__ import annotations

import argparse
import io
import pickle
import sys
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from agents.sources.files import ocr, ocr_prep, ocr_words
from agents.sources.files.common import FileRejected
from tests.fixtures import ocr_score, ocr_set

WRONG = ("split", "misread")
FORMER_LOW_CONFIDENCE = 60  # the former policy: a number's whole word under this was blanked
THRESHOLDS = (0, 60, 80, 90, 93, 95, 96, 97, 98, 99)
HEADER = (
    "| kind | pages | figures | read exactly | shown exactly | blanked □ | split | misread | missing "
    "| sure but wrong |\n|---|---|---|---|---|---|---|---|---|---|"
)


@dataclass
class Tally:
    pages: int = 0
    raw: Counter[str] = field(default_factory=Counter)
    shown: Counter[str] = field(default_factory=Counter)

    def add(self, raw: Counter[str], shown: Counter[str]) -> None:
        self.pages += 1
        self.raw += raw
        self.shown += shown

    def row(self, label: str) -> str:
        total = sum(self.shown.values())
        cells = [
            label,
            str(self.pages),
            str(total),
            f"{self.raw['exact'] / max(total, 1):.1%}",
            f"{self.shown['exact'] / max(total, 1):.1%}",
            *(str(self.shown[outcome]) for outcome in ("blanked", "split", "misread", "missing")),
            str(sum(self.shown[outcome] for outcome in WRONG)),
        ]
        return "| " + " | ".join(cells) + " |"


# --- Reading a sample, before and after ---


@contextmanager
def unprepared() -> Iterator[None]:
    """The former path: Tesseract gets the page as it came."""
    original = ocr_prep.prepare
    ocr_prep.prepare = lambda image, *, max_pixels: ocr_prep.remove_rules(image)
    try:
        yield
    finally:
        ocr_prep.prepare = original


def read(sample: ocr_set.Sample) -> ocr.Reading | None:
    try:
        is_pdf = sample.file_name.endswith(".pdf")
        return ocr.read_pdf(sample.data) if is_pdf else ocr.read_image(sample.data)
    except FileRejected as exc:
        print(f"  {sample.page.name} ({sample.kind}): refused: {exc.code}", flush=True)
        return None


def texts_after(reading: ocr.Reading | None, threshold: float) -> tuple[str, str]:
    if reading is None:
        return "", ""
    try:
        result = ocr.result_of(reading, min_confidence=threshold)
    except FileRejected:
        return "", ""
    return result.text, result.trusted_text


def texts_before(reading: ocr.Reading | None) -> tuple[str, str]:
    """The former policy: Tesseract's spacing kept, a numeric word under 60 overall blanked."""
    if reading is None:
        return "", ""
    texts, trusted = [], []
    for page in reading.pages:
        text, cursor = page.text, 0
        for word in (word for line in page.lines for word in line.words):
            position = text.find(word.text, cursor)
            if position < 0:
                continue
            cursor = position + len(word.text)
            if word.confidence < FORMER_LOW_CONFIDENCE and any(char.isdigit() for char in word.text):
                text = text[:position] + ocr_words.blank_digits(word.text) + text[cursor:]
        texts.append(page.text)
        trusted.append(text)
    return "\n".join(texts), "\n".join(trusted)


def scored(page: ocr_set.Page, texts: tuple[str, str]) -> tuple[Counter[str], Counter[str]]:
    return ocr_score.score(page, texts[0]), ocr_score.score(page, texts[1])


# --- The set ---


@dataclass
class Run:
    """Everything read in one run, kept so the □ threshold can be swept without reading again."""

    samples: list[ocr_set.Sample] = field(default_factory=list)
    after: list[ocr.Reading | None] = field(default_factory=list)
    before: list[ocr.Reading | None] = field(default_factory=list)


def read_all(samples: list[ocr_set.Sample], *, baseline: bool, keep: Path | None = None) -> Run:
    """Reads every sample; with `keep`, Tesseract's readings are kept in (or taken from) that file,
    so a change to what is drawn from them (joining, the □ policy) is measured without reading again."""
    if keep is not None and keep.exists():
        after, before = pickle.loads(keep.read_bytes())  # noqa: S301 (a file this bench wrote)
        return Run(samples, after, before)
    run = Run(samples)
    for sample in samples:
        run.after.append(read(sample))
        if baseline:
            with unprepared():
                run.before.append(read(sample))
        print(f"  read {sample.page.name} ({sample.kind}, {sample.detail})", file=sys.stderr, flush=True)
    if keep is not None:
        keep.write_bytes(pickle.dumps((run.after, run.before)))
    return run


def groups_of(sample: ocr_set.Sample) -> list[str]:
    return [sample.kind, "all"] + (["held out"] if sample.page.held_out else [])


def table(run: Run, order: list[str], *, threshold: float) -> None:
    views: list[tuple[str, list[ocr.Reading | None], Callable[..., tuple[str, str]]]] = [
        ("after", run.after, lambda reading: texts_after(reading, threshold))
    ]
    if run.before:
        views.insert(0, ("before", run.before, texts_before))
    for name, readings, texts in views:
        tallies: dict[str, Tally] = defaultdict(Tally)
        for sample, reading in zip(run.samples, readings, strict=True):
            raw, shown = scored(sample.page, texts(reading))
            for group in groups_of(sample):
                tallies[group].add(raw, shown)
        print(f"\n{name}:")
        print(HEADER)
        for group in order:
            if tallies[group].pages:
                print(tallies[group].row(group))


def calibration(run: Run) -> None:
    """For each per-digit threshold: of the figures shown without □, the share right (kept-right),
    and of the figures OCR found at all, the share shown without □ (kept)."""
    print("\n□ policy (after), per-digit confidence threshold:")
    print("| threshold | kept-right | kept | sure but wrong |\n|---|---|---|---|")
    for threshold in THRESHOLDS:
        shown: Counter[str] = Counter()
        for sample, reading in zip(run.samples, run.after, strict=True):
            shown += ocr_score.score(sample.page, texts_after(reading, threshold)[1])
        kept = shown["exact"] + shown["split"] + shown["misread"]
        found = kept + shown["blanked"]
        mark = " (product)" if threshold == ocr.LOW_CONFIDENCE else ""
        print(
            f"| {threshold}{mark} | {shown['exact'] / max(kept, 1):.2%} | {kept / max(found, 1):.2%} "
            f"| {shown['split'] + shown['misread']} |"
        )


# --- The one-page release ---


def one_page_samples() -> list[tuple[str, ocr_set.Sample]]:
    scan, photo = ocr_set.one_page_samples()
    samples = [("200-dpi scan (PDF)", scan), ("phone photo (JPEG)", photo)]
    heic = as_heic(photo)
    if heic is None:
        print("HEIC: pillow-heif (a development dependency, the encoder) is not installed; no HEIC row")
    else:
        samples.append(("phone photo (HEIC)", heic))
    return samples


def as_heic(sample: ocr_set.Sample) -> ocr_set.Sample | None:
    try:
        import pillow_heif
    except ImportError:
        return None
    from PIL import Image

    buffer = io.BytesIO()
    pillow_heif.from_pillow(Image.open(io.BytesIO(sample.data))).save(buffer, quality=80)
    return ocr_set.Sample(sample.page, "photo-heic", buffer.getvalue(), "photo.heic", sample.detail)


def bench_one_page(*, baseline: bool, keep: Path | None) -> None:
    labelled = one_page_samples()
    run = read_all([sample for _, sample in labelled], baseline=baseline, keep=keep)
    print("\none-page release, 20 figures (shown exactly = figures that reach the model):")
    for name, readings, texts in [
        ("before", run.before, texts_before),
        ("after", run.after, lambda reading: texts_after(reading, ocr.LOW_CONFIDENCE)),
    ]:
        if not readings:
            continue
        print(f"\n{name}:")
        print(HEADER.replace("| kind |", "| as |"))
        for (label, sample), reading in zip(labelled, readings, strict=True):
            tally = Tally()
            tally.add(*scored(sample.page, texts(reading)))
            print(tally.row(label))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--kinds", default=",".join(ocr_set.KINDS))
    parser.add_argument("--per-kind", type=int, default=ocr_set.PAGES_PER_KIND)
    parser.add_argument("--no-baseline", action="store_true", help="read only the way the product does now")
    parser.add_argument("--keep", type=Path, help="Tesseract's readings kept in (or taken from) this file")
    parser.add_argument("--page-seconds", type=int, default=300, help="Tesseract's time limit per page here")
    arguments = parser.parse_args()
    if not ocr.ocr_available():
        print("Tesseract with Korean data is not installed: apt-get install tesseract-ocr tesseract-ocr-kor")
        return
    ocr.OCR_PAGE_SECONDS = arguments.page_seconds  # a loaded bench machine must not turn slow into lost
    ocr.OPINION_SECONDS = arguments.page_seconds
    print(
        f"OCR: lang {ocr.OCR_LANG}, {ocr.OCR_CONFIG}, scans rendered at <= {ocr.OCR_MAX_DPI} dpi, "
        f"□ below per-digit confidence {ocr.LOW_CONFIDENCE} (before: word confidence {FORMER_LOW_CONFIDENCE})"
    )
    kinds = tuple(arguments.kinds.split(","))
    samples = list(ocr_set.ocr_set(kinds=kinds, per_kind=arguments.per_kind))
    keep = arguments.keep
    run = read_all(samples, baseline=not arguments.no_baseline, keep=keep)
    table(run, [*kinds, "all", "held out"], threshold=ocr.LOW_CONFIDENCE)
    calibration(run)
    bench_one_page(baseline=not arguments.no_baseline, keep=keep and keep.with_suffix(".one-page"))


if __name__ == "__main__":
    main()

"""Time and memory of `extract_text` on a ~3 MB, 50-page Korean PDF (targets: <= 1 s, <= 200 MB).

Each run is a fresh interpreter, like a Celery prefork child meeting its first upload, so import
cost is not hidden by a warm process; the wall time reported is the `extract_text` call alone.

    uv run python bench/extract_pdf.py
"""

from __future__ import annotations

import json
import math
import random
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

import pymupdf

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from agents.sources.files import MAX_FILE_BYTES

ROOT = Path(__file__).resolve().parent.parent
RUNS = 7
PAGES = 50
TARGET_BYTES = int(2.9 * 1024 * 1024)
SENTENCES = [
    "서울시는 15일 청년 주거 지원 예산을 2천억 원으로 늘린다고 밝혔다.",
    "신청은 다음 달 1일부터 서울주거포털에서 받는다.",
    "지원 대상은 만 19세에서 39세 사이의 무주택 청년 5만 명이다.",
    "시는 월세 20만 원을 최대 12개월까지 지원할 계획이다.",
    "주택정책과장은 “청년의 주거비 부담을 덜겠다”고 말했다.",
]
# The child reports its own figures: the first extract_text call (cold: it also imports pymupdf, as a
# fresh worker child does), a second call (warm), and the process's peak RSS (VmHWM).
CHILD = """
import json, resource, sys, time
from agents.sources.files import extract_text


def timed():
    started = time.perf_counter()
    result = extract_text(data=data, file_name="bench.pdf", mime_type="application/pdf")
    return time.perf_counter() - started, result


def peak_kb():
    try:
        with open("/proc/self/status") as status:
            return next(int(line.split()[1]) for line in status if line.startswith("VmHWM:"))
    except OSError:
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


data = open(sys.argv[1], "rb").read()
baseline_kb = peak_kb()
cold, result = timed()
warm, _ = timed()
figures = {"seconds": cold, "warm": warm, "peak_kb": peak_kb(), "baseline_kb": baseline_kb}
print(json.dumps(figures | {"pages": result.page_count, "chars": len(result.text)}))
"""


def page_text(number: int) -> str:
    lines = [f"보도자료 {number}쪽"]
    lines += [SENTENCES[(number + line) % len(SENTENCES)] for line in range(40)]
    return "\n".join(lines)


def build_pdf(noise_side: int) -> bytes:
    """50 text pages, each with a square of random pixels that does not compress (to reach ~3 MB)."""
    rng = random.Random(50)
    document = pymupdf.open()
    for number in range(1, PAGES + 1):
        page = document.new_page()
        page.insert_text((40, 40), page_text(number), fontname="korea", fontsize=9)
        if noise_side:
            samples = rng.randbytes(noise_side * noise_side * 3)
            pixmap = pymupdf.Pixmap(pymupdf.csRGB, noise_side, noise_side, samples, False)
            page.insert_image(pymupdf.Rect(400, 600, 560, 760), pixmap=pixmap)
    return document.tobytes(garbage=3, deflate=True)


def sized_pdf() -> bytes:
    """Pick the noise size from a text-only build so the file lands near, and never over, the target."""
    text_only = len(build_pdf(0))
    side = math.isqrt(max(TARGET_BYTES - text_only, 0) // (PAGES * 3))
    data = build_pdf(side)
    while len(data) > min(TARGET_BYTES, MAX_FILE_BYTES):
        side -= 2
        data = build_pdf(side)
    return data


def run_child(path: Path) -> dict[str, float]:
    completed = subprocess.run(
        [sys.executable, "-c", CHILD, str(path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    return json.loads(completed.stdout.strip().splitlines()[-1])


def main() -> None:
    data = sized_pdf()
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "bench.pdf"
        path.write_bytes(data)
        results = [run_child(path) for _ in range(RUNS)]
    for number, result in enumerate(results, start=1):
        print(
            f"run {number}: cold {result['seconds']:.3f} s, warm {result['warm']:.3f} s, "
            f"peak RSS {result['peak_kb'] / 1024:.0f} MB (before: {result['baseline_kb'] / 1024:.0f} MB), "
            f"{result['pages']} pages, {result['chars']} chars"
        )
    seconds = [result["seconds"] for result in results]
    warm = statistics.median(result["warm"] for result in results)
    peak_mb = max(result["peak_kb"] for result in results) / 1024
    size_mb = len(data) / 1024 / 1024
    print(
        f"extract_pdf: {PAGES} pages, {size_mb:.1f} MB, median {statistics.median(seconds):.2f} s "
        f"(min {min(seconds):.2f} .. max {max(seconds):.2f}), peak RSS {peak_mb:.0f} MB; "
        f"warm median {warm:.3f} s"
    )


if __name__ == "__main__":
    main()

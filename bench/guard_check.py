"""How fast the code guard checks an article, and what kiwipiepy would cost and give instead.

1. Speed: a 1,500-character article against 17 sources of ~1,900 characters each (30k characters,
   every source with its own digits so nothing comes from a cache), median of N runs and mean of
   those after the first (garbage collection shows in the mean, not the median); the baseline
   in the same run is the plain lookup the guard used before context binding (every number of the
   article looked up in one bag of source values).
2. kiwipiepy (if installed: `uv run --with kiwipiepy python bench/guard_check.py`): the time and
   memory to import it and load its model, its speed on the verification set's articles, and
   how often its sentence split and its numerals agree with the guard's own reader.

    uv run python bench/guard_check.py [--runs 15] [--cpu] [--no-kiwi]
"""

from __future__ import annotations

import argparse
import random
import re
import resource
import statistics
import subprocess
import sys
import time
from datetime import date
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from agents.verification.guard import article_findings, normalize_body, split_sentences
from agents.verification.guard.hangul import find_hangul
from agents.verification.guard.numbers import find_numbers
from bench.verify_eval import load_cases


def _workload(seed: int) -> tuple[str, list[str]]:
    cases = load_cases()
    article = normalize_body("\n".join(c.body for c in cases))[:1500]
    releases = "\n".join(c.release for c in cases)[:1900]
    digits = random.Random(seed)
    sources = [re.sub(r"\d", lambda _: str(digits.randint(0, 9)), releases) for _ in range(17)]
    return article, sources


def _bag_lookup(article: str, sources: list[str]) -> int:
    """The old guard's way: any source number with the same value and unit supports the figure."""
    bag = {n.key for source in sources for n in find_numbers(source, lenient=True)}
    return sum(1 for n in find_numbers(article) if n.key not in bag)


def speed(runs: int, *, cpu: bool = False) -> None:
    # CPU time is steadier than wall time on a loaded machine.
    clock = time.process_time if cpu else time.perf_counter
    guard, baseline = [], []
    for seed in range(runs):
        article, sources = _workload(seed)
        started = clock()
        article_findings(body=article, sources=sources, reference=date(2026, 3, 6))
        guard.append(clock() - started)
        started = clock()
        _bag_lookup(article, sources)
        baseline.append(clock() - started)
    print(f"timer: {'CPU (process_time)' if cpu else 'wall (perf_counter)'}")
    # The mean as well: a full garbage collection walks every source index the guard keeps cached
    # and lands in a few runs only, which the median leaves out. Without the first run, which also
    # compiles patterns and fills caches.
    print("| measure | median | mean after the first | baseline (value bag) |")
    print("| --- | --- | --- | --- |")
    print(
        f"| article_findings, 1,500-char article vs 30k chars of sources | "
        f"{statistics.median(guard) * 1000:.0f} ms | {statistics.mean(guard[1:] or guard) * 1000:.0f} ms | "
        f"{statistics.median(baseline) * 1000:.0f} ms |"
    )


_KIWI_LOAD = """
import resource, time
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
started = time.perf_counter()
from kiwipiepy import Kiwi
Kiwi().tokenize("서울시는 5일 밝혔다.")
print(time.perf_counter() - started, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before)
"""


def kiwi() -> None:
    try:
        from kiwipiepy import Kiwi
    except ImportError:
        print("\nkiwipiepy is not installed: run `uv run --with kiwipiepy python bench/guard_check.py`")
        return
    loaded = subprocess.run([sys.executable, "-c", _KIWI_LOAD], capture_output=True, text=True, check=True)
    seconds, kilobytes = loaded.stdout.split()
    analyser = Kiwi()
    bodies = [c.body for c in load_cases()]
    started = time.perf_counter()
    kiwi_sentences = [[s.text for s in analyser.split_into_sents(body)] for body in bodies]
    kiwi_time = time.perf_counter() - started
    started = time.perf_counter()
    own_sentences = [[s.text for s in split_sentences(body)] for body in bodies]
    own_time = time.perf_counter() - started
    same_split = sum(1 for a, b in zip(kiwi_sentences, own_sentences, strict=True) if a == b)
    numerals = _numeral_agreement(analyser, bodies)
    print("\n| kiwipiepy | figure | guard's own rules |")
    print("| --- | --- | --- |")
    print(f"| import + model load | {float(seconds):.2f} s, +{int(kilobytes) // 1024} MB RSS | 0 |")
    print(f"| split {len(bodies)} articles | {kiwi_time * 1000:.0f} ms | {own_time * 1000:.1f} ms |")
    print(f"| same sentence split as the guard | {same_split}/{len(bodies)} articles | |")
    print(f"| Hangul numerals with a counter found (NR/MM + NNB) | {numerals} | |")


def _numeral_agreement(analyser: object, bodies: list[str]) -> str:
    """Of the guard's Hangul numerals, how many kiwipiepy tags as a numeral followed by a noun."""
    found = total = 0
    for body in bodies:
        tokens = analyser.tokenize(body)  # type: ignore[attr-defined]
        starts = {t.start for t in tokens if t.tag in ("NR", "MM")}
        for hit in find_hangul(body):
            total += 1
            found += hit.start in starts
    return f"{found}/{total}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--cpu", action="store_true", help="time CPU instead of wall clock")
    parser.add_argument("--no-kiwi", action="store_true", help="skip the kiwipiepy comparison")
    args = parser.parse_args()
    print(f"python maxrss at start: {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024} MB")
    speed(args.runs, cpu=args.cpu)
    if not args.no_kiwi:
        kiwi()


if __name__ == "__main__":
    main()

"""The code guard on property cases generated from real public Korean texts with figures.

The texts (bench/data/corpus/texts.jsonl: government and public-body releases and news articles,
each with its public address) are split once and for all into a tuning part and a frozen part by a
hash of their address (`bench.truth.corpus.is_frozen`); every figure is printed for both parts, and
a rule tuned on the tuning part is judged by the frozen part. Cases are generated from each text,
deterministically (`bench.truth`):

- faithful rewrites of each factual sentence in every format papers use (separators, 만/억/조,
  퍼센트, Hangul numerals, rounding with 약/여/가량, spacing, date forms, the announcement day,
  brackets dropped): the article is the text with that sentence rewritten, and a flag the rewrite
  adds is a false flag;
- single injected errors (digit, unit, swapped figures, before/after, total/part, direction word,
  subjects exchanged, date, Hangul numeral, added figure): caught when the error adds a flag;
- missing facts: the text as its own article, rewritten, and framed by release boilerplate should
  list nothing; the text minus one factual sentence (the lead in particular) should list it; no
  listed fact should be boilerplate or a fragment (`bench.truth.missing` holds the judges). A
  removed lead that the rest of the text states again (`bench.truth.missing.restated`) is still
  carried by it: such leads are counted apart from the lead recall, and the figure over every lead
  is printed too.

Rule families are derived from the reason each finding gives (`bench.truth.guard`). The headline
figures of the hand-built verification set (bench/verify_eval.py, bench/missing_facts_eval.py)
follow, for comparison.

    uv run python bench/truth_eval.py [--sample N] [--cases] [--no-verify]

--sample N takes N texts from each part (a fixed choice); --cases prints the missed errors, the
false flags and the judged listings of the tuning part only (the frozen part is judged, never read).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.truth import corpus, report, run


def _verify_headline() -> list[str]:
    from bench import missing_facts_eval, verify_eval

    checked = verify_eval.evaluate()
    faithful = checked.faithful
    caught, total = sum(checked.caught.values()), sum(checked.mutated.values())
    listed = missing_facts_eval.evaluate()
    return [
        "",
        "### The hand-built verification set (bench/data/verify), for comparison",
        "",
        "| measure | figure |",
        "| --- | --- |",
        f"| faithful articles: false-flagged facts | {faithful.flags}/{faithful.checked} |",
        f"| mutations caught | {caught}/{total} ({checked.catch_rate():.1%}) |",
        f"| missing facts: dropped key facts named | {listed.named}/{listed.dropped} ({listed.recall:.1%}) |",
        f"| missing facts: false listings on intact articles | {listed.false} |",
    ]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sample", type=int, default=0, help="texts per part (default: all)")
    parser.add_argument(
        "--cases",
        action="store_true",
        help="print the tuning part's missed errors, false flags, judged listings",
    )
    parser.add_argument("--no-verify", action="store_true", help="skip the verification set's headline")
    args = parser.parse_args()
    started = time.monotonic()
    texts = corpus.load()
    if args.sample:
        texts = corpus.sample(texts, args.sample)
    parts = run.evaluate(texts)
    print(report.render(parts, texts))
    if not args.no_verify:
        print("\n".join(_verify_headline()))
    if args.cases:  # only the tuning part's: a rule fitted to a frozen case would void the frozen figures
        print("\n### cases (tuning)\n")
        print("\n".join(parts["tuning"].examples))
    print(f"\n({time.monotonic() - started:.0f} s)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

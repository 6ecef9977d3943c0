"""How well code finds the key facts an article leaves out of its press release.

For every case of the Korean verification set (bench/data/verify/<NN>-<slug>/: a real public press
release, a faithful article written from it, and key_facts.json, the must-carry facts a person
listed for the release), each hand-listed key fact the faithful article carries is deliberately
dropped: the article sentence that carries it is removed, and the missing-facts list of the
shortened article must name it. Printed:

- recall: dropped key facts named / dropped key facts (target ≥ 90%);
- false listings: on the intact articles, listed facts that match a hand-listed key fact the
  article carries (target 0), and the median number listed per intact article.

A listed fact names a hand-listed one when they share a figure with its unit, or most of the
hand-listed source text's character bigrams.

    uv run python bench/missing_facts_eval.py [--cases]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from agents import keyfacts, provenance
from agents.guard import join_sentences, split_sentences

DATA = Path(__file__).resolve().parent / "data" / "verify"
SAME = 0.5


def _names(listed: keyfacts.KeyFact, gold: dict[str, str]) -> bool:
    if keyfacts.unit_figures(listed.source_text) & keyfacts.unit_figures(gold["source_text"]):
        return True
    mine = provenance.bigrams(gold["source_text"])
    theirs = provenance.bigrams(listed.source_text)
    return bool(mine) and len(mine & theirs) / min(len(mine), len(theirs) or 1) >= SAME


def _carrier(gold: dict[str, str], sentences: list[str]) -> int | None:
    """The article sentence that carries a hand-listed fact: shared unit figures, else wording."""
    wanted = keyfacts.unit_figures(gold["source_text"])
    if wanted:
        scored = [(len(wanted & keyfacts.unit_figures(s)), i) for i, s in enumerate(sentences)]
        best = max(scored, default=(0, 0))
        if best[0]:
            return best[1]
    scored2 = [(provenance.overlap(gold["source_text"], s), i) for i, s in enumerate(sentences)]
    best2 = max(scored2, default=(0.0, 0))
    return best2[1] if best2[0] >= SAME else None


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--cases", action="store_true", help="print missed and falsely listed facts")
    args = parser.parse_args()
    dropped = named = false = 0
    listed_counts: list[int] = []
    for case in sorted(p for p in DATA.iterdir() if (p / "key_facts.json").exists()):
        release = (case / "release.txt").read_text(encoding="utf-8")
        article = json.loads((case / "article.json").read_text(encoding="utf-8"))
        gold = json.loads((case / "key_facts.json").read_text(encoding="utf-8"))
        sentences = split_sentences(article["body"])
        texts = [s.text for s in sentences]
        intact = keyfacts.missing_facts(release=release, headline="", body=article["body"])
        listed_counts.append(len(intact))
        for fact in gold:
            at = _carrier(fact, texts)
            if at is None:
                continue
            wrong = [f for f in intact if _names(f, fact)]
            false += len(wrong)
            if args.cases and wrong:
                print(f"  false {case.name}: {fact['fact']} <- {wrong[0].source_text[:60]}")
            body = join_sentences([s for s in sentences if s.index != at + 1])
            found = keyfacts.missing_facts(release=release, headline="", body=body)
            dropped += 1
            hit = any(_names(f, fact) for f in found)
            named += hit
            if args.cases and not hit:
                print(f"  missed {case.name}: {fact['fact']} (dropped: {texts[at][:50]})")
    print(f"recall of dropped key facts: {named}/{dropped} ({named / dropped:.1%})")
    print(f"false listings on intact articles: {false}")
    median = statistics.median(listed_counts)
    print(f"facts listed per intact article: median {median}, max {max(listed_counts)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

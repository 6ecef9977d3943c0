"""How well code finds the key facts an article leaves out of its press release.

For every case of the Korean verification set (bench/data/verify/<NN>-<slug>/: a real public press
release, a faithful article written from it, and key_facts.json, the must-carry facts a person
listed for the release), each hand-listed key fact the faithful article carries is deliberately
dropped: the article sentence that carries it is removed, and the missing-facts list of the
shortened article must name it. Printed:

- recall: dropped key facts named / dropped key facts (target ≥ 90%);
- false listings: on the intact articles, listed facts that match a hand-listed key fact the
  article carries (target 0), and the median number listed per intact article.

A listed fact names a hand-listed one when they share a figure with its unit (two that both hold
figures and share none are different facts), when it holds most of the hand-listed source text's
character bigrams, or when it is (most of it) a part of that text and at least MIN_PART bigrams
long.

    uv run python bench/missing_facts_eval.py [--cases]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from agents.facts import keyfacts, provenance
from agents.verification.guard import join_sentences, split_sentences
from bench.verify_eval import HELD_OUT_FROM, is_held_out

DATA = Path(__file__).resolve().parent / "data" / "verify"
SAME = 0.5
MIN_PART = 8  # bigrams a listed text needs to name a hand-listed fact it is part of


def _names(listed: keyfacts.KeyFact, gold: dict[str, str]) -> bool:
    figures, gold_figures = (
        keyfacts.unit_figures(listed.source_text),
        keyfacts.unit_figures(gold["source_text"]),
    )
    if figures and gold_figures:
        # Figures name the fact: "고등학생 … 이전 학년도 대비 0.1%p" is not "학업 중단율은 1.0%로
        # 이전 학년도(1.0%)와 동일", however many words around the two figures agree.
        return bool(figures & gold_figures)
    mine = provenance.bigrams(gold["source_text"])
    theirs = provenance.bigrams(listed.source_text)
    shared = len(mine & theirs)
    # A listed text holds the hand-listed fact, or is itself a part of it; a fragment of a few
    # letters ("20쪽") is part of everything and names nothing.
    return bool(mine) and (
        shared / len(mine) >= SAME or (len(theirs) >= MIN_PART and shared / len(theirs) >= SAME)
    )


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


@dataclass
class Result:
    dropped: int = 0
    named: int = 0
    false: int = 0
    listed: list[int] = field(default_factory=list)
    lines: list[str] = field(default_factory=list)  # missed and falsely listed facts

    @property
    def recall(self) -> float:
        return self.named / self.dropped if self.dropped else 0.0


def evaluate(*, held_out: bool | None = None) -> Result:
    """Every case, or only the held-out ones (True) or only the set the guard was tuned on (False)."""
    result = Result()
    cases = sorted(p for p in DATA.iterdir() if (p / "key_facts.json").exists())
    if held_out is not None:
        cases = [p for p in cases if is_held_out(p.name) == held_out]
    for case in cases:
        release = (case / "release.txt").read_text(encoding="utf-8")
        article = json.loads((case / "article.json").read_text(encoding="utf-8"))
        gold = json.loads((case / "key_facts.json").read_text(encoding="utf-8"))
        _case(case.name, release, article["body"], gold, result)
    return result


def _case(name: str, release: str, article: str, gold: list[dict[str, str]], result: Result) -> None:
    sentences = split_sentences(article)
    texts = [s.text for s in sentences]
    intact = keyfacts.missing_facts(release=release, headline="", body=article)
    result.listed.append(len(intact))
    for fact in gold:
        at = _carrier(fact, texts)
        if at is None:
            continue
        wrong = [f for f in intact if _names(f, fact)]
        result.false += len(wrong)
        if wrong:
            result.lines.append(f"  false {name}: {fact['fact']} <- {wrong[0].source_text[:60]}")
        body = join_sentences([s for s in sentences if s.index != at + 1])
        found = keyfacts.missing_facts(release=release, headline="", body=body)
        result.dropped += 1
        hit = any(_names(f, fact) for f in found)
        result.named += hit
        if not hit:
            result.lines.append(f"  missed {name}: {fact['fact']} (dropped: {texts[at][:50]})")


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--cases", action="store_true", help="print missed and falsely listed facts")
    args = parser.parse_args()
    result = evaluate()
    _print(result, cases=args.cases)
    print(f"\nheld out (cases from {HELD_OUT_FROM:02d} on, added after the guard was tuned):")
    _print(evaluate(held_out=True), cases=args.cases)
    return 0


def _print(result: Result, *, cases: bool) -> None:
    if cases:
        print("\n".join(result.lines))
    print(f"recall of dropped key facts: {result.named}/{result.dropped} ({result.recall:.1%})")
    print(f"false listings on intact articles: {result.false}")
    median = statistics.median(result.listed)
    print(f"facts listed per intact article: median {median}, max {max(result.listed)}")


if __name__ == "__main__":
    raise SystemExit(main())

"""Precision of the house-style lint on real Korean news, against hand labels.

    python bench/lint_eval.py            # hits, labels and precision per rule
    python bench/lint_eval.py --unlabelled   # only the hits that have no hand label yet

The sample: the published articles of the verification set (bench/data/verify/*/news/*.json) and
news excerpts in bench/data/lint/articles.json (outlet, URL and title cited there). The lint runs
as a draft's lint does: the seeded rules from a freshly migrated database plus the built-in
fallback guide's forbidden expressions. Each hit was read in context and labelled in
bench/data/lint/labels.json: `true` when a desk editor would ask for the change (the rule's
fault, in the reporter's own words), `false` when it is not a fault there (a name, a quotation,
a term of art). A hit without a label is printed and not counted.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

DATA = Path(__file__).parent / "data"
LABELS = DATA / "lint" / "labels.json"


def sample() -> list[tuple[str, str]]:
    texts = [
        (f"{path.parent.parent.name}/{path.stem}", json.loads(path.read_text())["body"])
        for path in sorted((DATA / "verify").glob("*/news/*.json"))
    ]
    articles = json.loads((DATA / "lint" / "articles.json").read_text())["articles"]
    return texts + [(article["id"], article["text"]) for article in articles]


@dataclass
class Evaluation:
    texts: int = 0
    characters: int = 0
    counts: Counter[tuple[str, bool]] = field(default_factory=Counter)  # (rule, correct) -> hits
    unlabelled: int = 0
    lines: list[tuple[bool, str]] = field(default_factory=list)  # (labelled, line) per hit, in order

    @property
    def hits(self) -> int:
        return sum(self.counts.values())

    @property
    def correct(self) -> int:
        return sum(n for (_, ok), n in self.counts.items() if ok)


def evaluate() -> Evaluation:
    """Lints the sample with the rules in the database (the seeded ones) and reads each hit's label."""
    from styles.selectors import lint_body

    labels = {(x["article"], x["start"], x["text"]): x for x in json.loads(LABELS.read_text())["labels"]}
    texts = sample()
    result = Evaluation(texts=len(texts), characters=sum(len(body) for _, body in texts))
    for name, body in texts:
        for hit in lint_body(body=body, department=""):
            label = labels.get((name, hit.start, hit.text))
            context = body[max(0, hit.start - 20) : hit.end + 20].replace("\n", " ")
            if label is None:
                result.unlabelled += 1
                result.lines.append(
                    (False, f"UNLABELLED {name} @{hit.start} [{hit.rule}] {hit.text!r} … {context}")
                )
                continue
            result.counts[(hit.rule, label["correct"])] += 1
            mark = "ok " if label["correct"] else "FP "
            result.lines.append((True, f"{mark} {name} @{hit.start} [{hit.rule}] {hit.text!r} … {context}"))
    return result


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--unlabelled", action="store_true")
    args = parser.parse_args()
    import _django

    _django.setup()
    result = evaluate()
    for labelled, line in result.lines:
        if not (labelled and args.unlabelled):
            print(line)
    if args.unlabelled:
        return
    counts = result.counts
    print(
        f"\nsample: {result.texts} articles, {result.characters:,} characters; "
        f"unlabelled hits: {result.unlabelled}"
    )
    rules = sorted({rule for rule, _ in counts})
    for rule in rules:
        good, bad = counts[(rule, True)], counts[(rule, False)]
        print(f"  {rule:<16} hits {good + bad:>3}  correct {good:>3}  precision {good / (good + bad):.2f}")
    good, total = result.correct, result.hits
    print(
        f"  {'all':<16} hits {total:>3}  correct {good:>3}  precision {good / total:.2f}"
        if total
        else "no hits"
    )


if __name__ == "__main__":
    main()

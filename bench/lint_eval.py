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
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import _django

_django.setup()

from styles.selectors import lint_body  # noqa: E402

DATA = Path(__file__).parent / "data"
LABELS = DATA / "lint" / "labels.json"


def sample() -> list[tuple[str, str]]:
    texts = [
        (f"{path.parent.parent.name}/{path.stem}", json.loads(path.read_text())["body"])
        for path in sorted((DATA / "verify").glob("*/news/*.json"))
    ]
    articles = json.loads((DATA / "lint" / "articles.json").read_text())["articles"]
    return texts + [(article["id"], article["text"]) for article in articles]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--unlabelled", action="store_true")
    args = parser.parse_args()
    labels = {(x["article"], x["start"], x["text"]): x for x in json.loads(LABELS.read_text())["labels"]}
    texts = sample()
    counts: Counter[tuple[str, bool]] = Counter()
    unlabelled = 0
    for name, body in texts:
        for hit in lint_body(body=body, department=""):
            label = labels.get((name, hit.start, hit.text))
            context = body[max(0, hit.start - 20) : hit.end + 20].replace("\n", " ")
            if label is None:
                unlabelled += 1
                print(f"UNLABELLED {name} @{hit.start} [{hit.rule}] {hit.text!r} … {context}")
                continue
            counts[(hit.rule, label["correct"])] += 1
            if not args.unlabelled:
                mark = "ok " if label["correct"] else "FP "
                print(f"{mark} {name} @{hit.start} [{hit.rule}] {hit.text!r} … {context}")
    if args.unlabelled:
        return
    characters = sum(len(body) for _, body in texts)
    print(f"\nsample: {len(texts)} articles, {characters:,} characters; unlabelled hits: {unlabelled}")
    rules = sorted({rule for rule, _ in counts})
    for rule in rules:
        good, bad = counts[(rule, True)], counts[(rule, False)]
        print(f"  {rule:<16} hits {good + bad:>3}  correct {good:>3}  precision {good / (good + bad):.2f}")
    good = sum(n for (_, ok), n in counts.items() if ok)
    total = sum(counts.values())
    print(
        f"  {'all':<16} hits {total:>3}  correct {good:>3}  precision {good / total:.2f}"
        if total
        else "no hits"
    )


if __name__ == "__main__":
    main()

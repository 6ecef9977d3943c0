"""One event, one item: pairwise precision, recall and F1 of the grouping on a labelled day, and
the model input it saves per /check.

    python bench/cluster_eval.py            # the figures
    python bench/cluster_eval.py --groups   # also every group as formed, with its labels

The day (bench/data/cluster/day.json) holds real headlines and leads of published Korean articles
(their addresses are in the file) and synthetic results shaped like the fake Naver API's items;
`event` is the hand label. A pair of results counts as positive when both carry the same event.
Tokens: the `filter_news` and `submit_analysis` user messages of one /check built from every
result versus from one result per group, counted with the estimator the fake Anthropic server
uses for its usage figures (tests/fakes/anthropic.py).
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass
from datetime import datetime
from itertools import combinations
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from agents.monitoring import material
from agents.monitoring.clustering import Result, group_results
from agents.monitoring.material import Candidate
from tests.fakes.anthropic import tokens

DAY = Path(__file__).parent / "data" / "cluster" / "day.json"


def candidates(items: list[dict]) -> list[Candidate]:
    return [
        Candidate(
            title=item["title"],
            publisher=item["publisher"],
            description=item["lead"],
            link=f"https://n.news.naver.com/mnews/article/001/{n:010d}",
            originallink=item["source"] if item["source"].startswith("http") else "",
            pub_date=datetime.fromisoformat(item["pub_date"]),
            body=item["lead"],
            scraped=True,
        )
        for n, item in enumerate(items)
    ]


def read(candidate: Candidate) -> Result:
    return Result(title=candidate.title, lead=candidate.description, published=candidate.pub_date)


def pairwise(labels: list[str], groups: list[list[int]]) -> tuple[int, int, int]:
    predicted = {frozenset(p) for g in groups for p in combinations(g, 2)}
    actual = {frozenset((i, j)) for i, j in combinations(range(len(labels)), 2) if labels[i] == labels[j]}
    return len(predicted & actual), len(predicted - actual), len(actual - predicted)


def model_input(listed: list[Candidate]) -> int:
    filter_message = material.filter_user(listed)
    analysis_message = material.analysis_user(candidates=listed, history=[], keywords=["서울시", "통계청"])
    return tokens(filter_message) + tokens(analysis_message)


@dataclass(frozen=True)
class Figures:
    """Pairwise figures of one part of the labelled day."""

    results: int
    events: int
    hit: int  # same-event pairs grouped together
    false: int  # pairs grouped together that are different events
    missed: int  # same-event pairs left apart

    @property
    def precision(self) -> float:
        return self.hit / (self.hit + self.false) if self.hit + self.false else 1.0

    @property
    def recall(self) -> float:
        return self.hit / (self.hit + self.missed) if self.hit + self.missed else 1.0

    @property
    def f1(self) -> float:
        p, r = self.precision, self.recall
        return 2 * p * r / (p + r) if p + r else 0.0


@dataclass(frozen=True)
class Evaluation:
    parts: dict[str, Figures]  # real, synthetic, all
    groups: list[list[int]]  # indices into the day's items
    items: int  # one per group
    tokens_before: int  # model input per /check from every result
    tokens_after: int  # from one result per group


def evaluate() -> tuple[Evaluation, list[dict]]:
    items = json.loads(DAY.read_text())["items"]
    listed = candidates(items)
    index = {id(c): n for n, c in enumerate(listed)}
    groups = [[index[id(c)] for c in g.members] for g in group_results(listed, read=read)]
    labels = [item["event"] for item in items]
    parts = {}
    for origin in ("real", "synthetic", "all"):
        keep = [i for i, item in enumerate(items) if origin == "all" or item["origin"].startswith(origin)]
        sub_groups = [[i for i in g if i in keep] for g in groups]
        local = {i: n for n, i in enumerate(keep)}
        hit, false, missed = pairwise([labels[i] for i in keep], [[local[i] for i in g] for g in sub_groups])
        parts[origin] = Figures(len(keep), len({labels[i] for i in keep}), hit, false, missed)
    leads = [listed[g[0]] for g in groups]
    return Evaluation(parts, groups, len(groups), model_input(listed), model_input(leads)), items


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--groups", action="store_true")
    args = parser.parse_args()
    result, items = evaluate()
    if args.groups:
        for group in result.groups:
            print(" | ".join(f"{items[i]['event']}: {items[i]['title'][:40]}" for i in group))
    for origin, f in result.parts.items():
        print(
            f"{origin:<9} results {f.results:>3}  events {f.events:>3}  "
            f"same-event pairs {f.hit + f.missed:>3}  found {f.hit:>3}  wrong {f.false:>3}  "
            f"precision {f.precision:.2f}  recall {f.recall:.2f}  F1 {f.f1:.2f}"
        )
    before, after = result.tokens_before, result.tokens_after
    print(
        f"items: {len(items)} results -> {result.items} items; model input per /check (filter + analysis "
        f"messages): ~{before:,} -> ~{after:,} tokens ({1 - after / before:.0%} fewer)"
    )


if __name__ == "__main__":
    main()

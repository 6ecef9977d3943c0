"""How well the code guard checks articles against our own Korean verification set.

The set (bench/data/verify/<NN>-<slug>/) holds real public press releases, a faithful article written
from each the way Korean papers format figures and dates, one mutation per kind per article, and
real newspaper articles that reported the same release. Every case is checked with the release as
the only source and the release date as the reference date. Printed per kind:

- faithful articles: flagged facts / checked facts, and articles with at least one flag;
- mutations: caught / total per kind (digit, unit, date, quote, added, swap, hangul);
- real news articles: formatting false flags (a flag whose surface the case does not list as
  genuinely absent from the release) / checked facts, and the figures listed as absent that are
  flagged (a figure the release lacks must not pass as "computed" from two unrelated ones);
- headlines of the faithful articles, checked as the restatement of their body (the body's
  verified sentences beside the release), and the same headlines with each figure's first digit
  changed and, where a headline states two figures of one unit, the two swapped: caught when a
  flag falls on a changed figure.

    uv run python bench/verify_eval.py [--cases]

The table is printed for every case, then for the held-out cases alone (numbered from
HELD_OUT_FROM on: added after the guard was last tuned on the cases before them).

A finding is a flag when its `status` is not_found, contradicted or suspect, or, for a guard without
statuses, when it is not supported. A mutation is caught when a flag falls in a sentence that
holds the replaced text and is not a flag the faithful article already had in that sentence.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import date
from itertools import pairwise
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from agents.verification.guard import Finding, article_findings, headline_findings, split_sentences

DATA = Path(__file__).resolve().parent / "data" / "verify"
# Cases numbered from here on were added after the guard was last tuned on the set before them:
# their figures are the held-out check of how well the tuning carries to releases it never saw.
HELD_OUT_FROM = 24
KINDS = ("digit", "unit", "date", "quote", "added", "swap", "hangul")
FLAG_STATUSES = ("not_found", "contradicted", "suspect")


@dataclass(frozen=True)
class Mutation:
    kind: str
    find: str
    replace: str
    note: str


@dataclass(frozen=True)
class NewsArticle:
    outlet: str
    date: date
    headline: str
    body: str
    not_in_release: tuple[str, ...]


@dataclass(frozen=True)
class Case:
    slug: str
    source: dict[str, str]
    release: str
    headline: str
    body: str
    mutations: tuple[Mutation, ...]
    news: tuple[NewsArticle, ...]

    @property
    def reference(self) -> date:
        return date.fromisoformat(self.source["date"])


@dataclass
class Tally:
    checked: int = 0
    flags: int = 0
    texts: int = 0  # articles (or headlines) checked
    flagged_texts: int = 0  # of which with at least one flag

    def add(self, *, checked: int, flags: int) -> None:
        self.checked += checked
        self.flags += flags
        self.texts += 1
        self.flagged_texts += flags > 0

    @property
    def rate(self) -> float:
        return self.flags / self.checked if self.checked else 0.0


@dataclass
class Report:
    cases: int = 0
    faithful: Tally = field(default_factory=Tally)
    headlines: Tally = field(default_factory=Tally)
    news: Tally = field(default_factory=Tally)  # flags here are formatting false flags only
    caught: dict[str, int] = field(default_factory=lambda: dict.fromkeys(KINDS, 0))
    mutated: dict[str, int] = field(default_factory=lambda: dict.fromkeys(KINDS, 0))
    missed: list[str] = field(default_factory=list)  # "<slug> <kind>: <note>"
    headline_changes: int = 0
    absent: int = 0  # real news: figures the article states that the release lacks
    absent_flagged: int = 0
    headline_caught: int = 0

    def catch_rate(self, kind: str | None = None) -> float:
        kinds = KINDS if kind is None else (kind,)
        total = sum(self.mutated[k] for k in kinds)
        return sum(self.caught[k] for k in kinds) / total if total else 0.0


def is_flag(finding: Finding) -> bool:
    status = getattr(finding, "status", None)
    return status in FLAG_STATUSES if status is not None else not finding.supported


# --- loading ----------------------------------------------------------------------------------
def is_held_out(slug: str) -> bool:
    return int(slug[:2]) >= HELD_OUT_FROM


def load_cases(root: Path = DATA, *, held_out: bool | None = None) -> list[Case]:
    """Every case, or only the held-out ones (True) or only the set the guard was tuned on (False)."""
    folders = [f for f in sorted(root.iterdir()) if (f / "source.json").exists()]
    if held_out is not None:
        folders = [f for f in folders if is_held_out(f.name) == held_out]
    return [_load_case(folder) for folder in folders]


def _load_case(folder: Path) -> Case:
    article = _json(folder / "article.json")
    mutations = tuple(Mutation(**m) for m in _json(folder / "mutations.json"))
    news_dir = folder / "news"
    news = tuple(_news(_json(p)) for p in sorted(news_dir.glob("*.json"))) if news_dir.exists() else ()
    return Case(
        slug=folder.name,
        source=_json(folder / "source.json"),
        release=(folder / "release.txt").read_text(encoding="utf-8"),
        headline=article["headline"],
        body=article["body"],
        mutations=mutations,
        news=news,
    )


def _news(raw: dict[str, Any]) -> NewsArticle:
    return NewsArticle(
        outlet=raw["outlet"],
        date=date.fromisoformat(raw["date"]),
        headline=raw["headline"],
        body=raw["body"],
        not_in_release=tuple(raw.get("not_in_release", ())),
    )


def _json(path: Path) -> Any:
    return json.loads(path.read_text(encoding="utf-8"))


# --- evaluation -------------------------------------------------------------------------------
def evaluate(root: Path = DATA, *, held_out: bool | None = None) -> Report:
    report = Report()
    for case in load_cases(root, held_out=held_out):
        report.cases += 1
        _evaluate_case(case, report)
    return report


def _evaluate_case(case: Case, report: Report) -> None:
    sources = [case.release]
    findings = article_findings(body=case.body, sources=sources, reference=case.reference)
    report.faithful.add(checked=len(findings), flags=sum(map(is_flag, findings)))
    heads = headline_findings(
        headline=case.headline, body=case.body, sources=sources, reference=case.reference
    )
    report.headlines.add(checked=len(heads), flags=sum(map(is_flag, heads)))
    for changed, texts in headline_mutations(case.headline, heads):
        found = headline_findings(headline=changed, body=case.body, sources=sources, reference=case.reference)
        report.headline_changes += 1
        report.headline_caught += any(is_flag(f) and f.fact.text in texts for f in found)
        if not any(is_flag(f) and f.fact.text in texts for f in found):
            report.missed.append(f"{case.slug} headline: {changed}")
    for mutation in case.mutations:
        report.mutated[mutation.kind] += 1
        if caught(case, mutation, faithful=findings):
            report.caught[mutation.kind] += 1
        else:
            report.missed.append(f"{case.slug} {mutation.kind}: {mutation.note}")
    for article in case.news:
        found = article_findings(body=article.body, sources=sources, reference=article.date)
        false = [f for f in found if is_flag(f) and not _listed(f.fact.text, article.not_in_release)]
        report.news.add(checked=len(found), flags=len(false))
        absent = [
            f for f in found if f.fact.kind == "number" and _listed(f.fact.text, article.not_in_release)
        ]
        report.absent += len(absent)
        report.absent_flagged += sum(map(is_flag, absent))


def caught(case: Case, mutation: Mutation, *, faithful: Sequence[Finding]) -> bool:
    """A new flag in a sentence holding the replaced text; a flag the original already had is no catch."""
    start = case.body.index(mutation.find)
    mutated = case.body[:start] + mutation.replace + case.body[start + len(mutation.find) :]
    touched = _sentences_over(mutated, start, start + len(mutation.replace))
    before = {
        (f.fact.kind, f.fact.text)
        for f in faithful
        if is_flag(f) and f.fact.sentence in _sentences_over(case.body, start, start + len(mutation.find))
    }
    findings = article_findings(body=mutated, sources=[case.release], reference=case.reference)
    return any(
        is_flag(f) and f.fact.sentence in touched and (f.fact.kind, f.fact.text) not in before
        for f in findings
    )


def headline_mutations(headline: str, findings: Sequence[Finding]) -> list[tuple[str, set[str]]]:
    """The headline with one figure's first digit changed, for each figure written in digits, and
    with two figures of one unit swapped; each with the changed figures' texts."""
    numbers = [
        f.fact.text for f in findings if f.fact.kind == "number" and any(c.isdigit() for c in f.fact.text)
    ]
    changed = []
    for text in dict.fromkeys(numbers):
        at = next(i for i, c in enumerate(text) if c.isdigit())
        digit = "8" if text[at] == "9" else str(int(text[at]) + 1)
        new = text[:at] + digit + text[at + 1 :]
        changed.append((headline.replace(text, new, 1), {new}))
    for first, second in pairwise(numbers):
        if first != second and _unit(first) == _unit(second) and _unit(first):
            swapped = headline.replace(first, "\x00").replace(second, first).replace("\x00", second)
            changed.append((swapped, {first, second}))
    return changed


def _unit(text: str) -> str:
    return text.lstrip("0123456789.,만억조천 ")


def _sentences_over(body: str, start: int, end: int) -> set[int]:
    """Indexes of the sentences of body (already normalised) that overlap body[start:end]."""
    hits: set[int] = set()
    cursor = 0
    for sentence in split_sentences(body):
        begin = body.index(sentence.text, cursor)
        cursor = begin + len(sentence.text)
        if begin < max(end, start + 1) and cursor > start:
            hits.add(sentence.index)
    return hits


def _listed(text: str, surfaces: Iterable[str]) -> bool:
    return any(text in surface or surface in text for surface in surfaces)


# --- printing ---------------------------------------------------------------------------------
def render(report: Report) -> str:
    f, h, n = report.faithful, report.headlines, report.news
    lines = [
        f"cases: {report.cases}",
        "",
        "| measure | figure |",
        "| --- | --- |",
        f"| faithful articles: false-flagged facts | {f.flags}/{f.checked} ({f.rate:.1%}) |",
        f"| faithful articles with >= 1 false flag | {f.flagged_texts}/{f.texts} |",
        f"| headlines: false-flagged facts | {h.flags}/{h.checked} ({h.rate:.1%}) |",
        f"| headlines: changed figures caught | {report.headline_caught}/{report.headline_changes} |",
    ]
    for kind in KINDS:
        lines.append(
            f"| mutations caught: {kind} | {report.caught[kind]}/{report.mutated[kind]}"
            f" ({report.catch_rate(kind):.0%}) |"
        )
    total, hit = sum(report.mutated.values()), sum(report.caught.values())
    lines.append(f"| mutations caught: all | {hit}/{total} ({report.catch_rate():.1%}) |")
    news = f"{n.flags}/{n.checked} ({n.rate:.1%}), {n.texts} articles"
    lines.append(f"| real news: formatting false flags | {news} |")
    lines.append(
        f"| real news: figures the release lacks, flagged | {report.absent_flagged}/{report.absent} |"
    )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", action="store_true", help="also list every missed mutation")
    args = parser.parse_args()
    report = evaluate()
    print(render(report))
    print(f"\nheld out (cases from {HELD_OUT_FROM:02d} on, added after the guard was tuned):\n")
    print(render(evaluate(held_out=True)))
    if args.cases:
        print("\nmissed:")
        print("\n".join(f"  {line}" for line in report.missed) or "  none")


if __name__ == "__main__":
    main()

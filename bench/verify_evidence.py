"""What evidence code can check (agents.verification.evidence) changes on our Korean verification set.

The code guard flags what it cannot find; the LLM verifier may then keep a flagged figure only
with a verbatim source span (or a derivation) that code checks. Two scripted verifiers stand in
for the model, on the set in bench/data/verify/ (release as the only source, release date as the
reference date):

- an honest verifier offers, for each figure the guard flagged in a faithful article, the
  release line (or sentence) that holds it, when there is one, or else every sum, difference,
  ratio and change of two release figures of one unit (what a model could name);
- a lying verifier says "confirmed" for every flagged figure of a mutated sentence and offers
  every line and sentence of the release as its span, and every derivation above (the worst a
  model can do without inventing text, which code refuses anyway).

Printed: faithful sentences cut with code alone and with the honest verifier's evidence; flagged
facts of faithful articles before and after; mutations still caught despite the lying verifier.

    uv run python bench/verify_evidence.py
"""

from __future__ import annotations

import os
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

import django

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "newsdesk.settings")
django.setup()  # agents.verification.verify reaches the models through agents.llm.client; no database is used

from verify_eval import HELD_OUT_FROM, KINDS, Case, Mutation, _sentences_over, load_cases  # noqa: E402

from agents.verification.evidence import Derivation, span_supports  # noqa: E402
from agents.verification.guard import split_sentences  # noqa: E402
from agents.verification.guard.numbers import find_numbers  # noqa: E402
from agents.verification.verify import FLAGGED, ClaimCheck, Issue, apply_evidence, code_issues  # noqa: E402

_SEGMENT = re.compile(r"(?<=[.다])\s+|\n+")


@dataclass
class Figures:
    sentences: int = 0
    cut_code: int = 0
    cut_evidence: int = 0
    facts: int = 0
    flagged_code: int = 0
    flagged_evidence: int = 0
    mutated: dict[str, int] = field(default_factory=lambda: dict.fromkeys(KINDS, 0))
    caught_code: dict[str, int] = field(default_factory=lambda: dict.fromkeys(KINDS, 0))
    caught_lying: dict[str, int] = field(default_factory=lambda: dict.fromkeys(KINDS, 0))


def segments(release: str) -> list[str]:
    """The release's lines and sentences: the spans a verifier could quote."""
    parts = {p.strip() for p in _SEGMENT.split(release) if len(p.strip()) >= 4}
    parts |= {line.strip() for line in release.splitlines() if len(line.strip()) >= 4}
    return sorted(parts)


def honest(issues: list[Issue], case: Case) -> list[ClaimCheck]:
    checks = []
    for issue in issues:
        if issue.status != "not_found" or issue.sentence_index is None:
            continue
        span = next(
            (
                s
                for s in segments(case.release)
                if span_supports(
                    fact=issue.claim,
                    span=s,
                    sources=[case.release],
                    reference=case.reference,
                    sentence=issue.context,
                )
            ),
            None,
        )
        if span:
            checks.append(_confirm(issue, span))
        elif issue.kind == "number":
            checks += [_confirm(issue, "", derivation) for derivation in derivations(case.release)]
    return checks


def derivations(release: str) -> list[Derivation]:
    """Every operation on two figures of the same unit in the release (what a model could name)."""
    figures = list(dict.fromkeys(h.text for h in find_numbers(release, lenient=True) if h.unit))[:60]
    return [
        Derivation(operation=operation, operands=[a, b])
        for a in figures
        for b in figures
        if a != b
        for operation in ("sum", "difference", "ratio", "percent_change", "share")
    ]


def lying(issues: list[Issue], case: Case) -> list[ClaimCheck]:
    checks = []
    for issue in issues:
        if issue.status in FLAGGED and issue.sentence_index is not None:
            checks += [_confirm(issue, span) for span in segments(case.release)]
            if issue.kind == "number":
                checks += [_confirm(issue, "", derivation) for derivation in derivations(case.release)]
    return checks


def _confirm(issue: Issue, span: str, derivation: Derivation | None = None) -> ClaimCheck:
    return ClaimCheck(
        claim=issue.claim[:300],
        status="confirmed",
        kind=issue.kind,  # type: ignore[arg-type]
        sentence=issue.sentence_index or 0,
        evidence_quote=span[:400],
        derivation=derivation,
    )


def _check(body: str, case: Case) -> list[Issue]:
    return code_issues(body=body, sources=[case.release], reference=case.reference)


def _cut(issues: list[Issue]) -> set[int]:
    return {i.sentence_index for i in issues if i.status in FLAGGED and i.sentence_index}


def faithful(case: Case, figures: Figures) -> None:
    issues = _check(case.body, case)
    figures.sentences += len(split_sentences(case.body))
    figures.facts += len(issues)
    figures.flagged_code += sum(i.status in FLAGGED for i in issues)
    figures.cut_code += len(_cut(issues))
    checks = honest(issues, case)
    apply_evidence(issues=issues, checks=checks, sources=[case.release], reference=case.reference)
    figures.flagged_evidence += sum(i.status in FLAGGED for i in issues)
    figures.cut_evidence += len(_cut(issues))


def mutation(case: Case, change: Mutation, figures: Figures) -> None:
    """Caught when a new flag in the mutated sentence survives; flags the original had do not count."""
    figures.mutated[change.kind] += 1
    start = case.body.index(change.find)
    body = case.body[:start] + change.replace + case.body[start + len(change.find) :]
    touched = _sentences_over(body, start, start + len(change.replace))
    original = _sentences_over(case.body, start, start + len(change.find))
    before = {
        (i.kind, i.claim)
        for i in _check(case.body, case)
        if i.status in FLAGGED and i.sentence_index in original
    }
    issues = _check(body, case)
    new = [i for i in issues if i.sentence_index in touched and (i.kind, i.claim) not in before]
    figures.caught_code[change.kind] += any(i.status in FLAGGED for i in new)
    apply_evidence(issues=issues, checks=lying(new, case), sources=[case.release], reference=case.reference)
    figures.caught_lying[change.kind] += any(i.status in FLAGGED for i in new)


def main() -> None:
    measure(load_cases())
    print(f"\nheld out (cases from {HELD_OUT_FROM:02d} on, added after the guard was tuned):")
    measure(load_cases(held_out=True))


def measure(cases: list[Case]) -> Figures:
    figures = Figures()
    for case in cases:
        faithful(case, figures)
        for change in case.mutations:
            if change.find in case.body:
                mutation(case, change, figures)
    total = sum(figures.mutated.values())
    print(f"cases: {len(cases)}, faithful sentences: {figures.sentences}, checked facts: {figures.facts}")
    print("| measure | code alone | code + evidence |")
    print("|---|---|---|")
    rows = [
        ("faithful facts flagged", figures.flagged_code, figures.flagged_evidence, figures.facts),
        ("faithful sentences cut", figures.cut_code, figures.cut_evidence, figures.sentences),
        ("mutations caught (lying verifier)", *_caught(figures, KINDS), total),
    ]
    rows += [(f"mutations caught: {k}", *_caught(figures, (k,)), figures.mutated[k]) for k in KINDS]
    for name, code, evidence, of in rows:
        print(f"| {name} | {code}/{of} | {evidence}/{of} |")
    return figures


def _caught(figures: Figures, kinds: tuple[str, ...]) -> tuple[int, int]:
    return sum(figures.caught_code[k] for k in kinds), sum(figures.caught_lying[k] for k in kinds)


if __name__ == "__main__":
    main()

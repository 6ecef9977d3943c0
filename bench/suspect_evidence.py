"""The evidence gate for suspect claims, on real texts: does it keep true figures and refuse figures
moved to another subject?

A claim the guard calls suspect (a binding judgement too weak to cut on) is kept only when the
verifier quotes a source clause that code re-reads holding the value together with the article's
subject words (agents.verification.suspects.clause_holding). Cases come from the property corpus
(bench/data/corpus, both parts, each text its own source):

- true: every figure of each factual sentence, as written and in each faithful rewrite whose value
  the text states (rounding is left out: a suspect arises where the source states the value), with
  an honest verifier quoting the source sentence. Kept is right.
- moved: the sentence with two subjects' figures swapped, or two subjects exchanged around their
  figures (bench.truth.inject), each figure whose subject words changed, with a verifier quoting the
  original sentence (it holds the value, about the other subject). Cut is right.

Baseline, in the same run: the gate not_found claims use (agents.verification.evidence.span_supports:
the guard reads the figure in its sentence against the quoted span, plus one shared content word).

    uv run python bench/suspect_evidence.py [--sample N]
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from agents.verification import evidence, suspects
from agents.verification.guard.binding import read_numbers
from agents.verification.guard.dates import find_dates
from bench.truth import corpus, guard, inject, rewrite
from bench.truth.run import MAX_SENTENCES, is_factual

Gate = Callable[[str, str, str, list[str], corpus.Text], bool]  # (fact, sentence, quote, sources, text)
MOVES = ("swap", "subject")


def clause_gate(fact: str, sentence: str, quote: str, sources: list[str], text: corpus.Text) -> bool:
    found = suspects.clause_holding(
        fact=fact, kind="number", sentence=sentence, span=quote, sources=sources, reference=text.date
    )
    return found is not None


def span_gate(fact: str, sentence: str, quote: str, sources: list[str], text: corpus.Text) -> bool:
    found = evidence.span_supports(
        fact=fact, span=quote, sources=sources, reference=text.date, sentence=sentence
    )
    return found is not None


GATES: dict[str, Gate] = {"clause (suspects)": clause_gate, "span (not_found's gate, baseline)": span_gate}


def figures(sentence: str) -> list[tuple[str, int, str]]:
    """(text, start, value key) of each figure with a unit, read as the guard reads an article."""
    hits = read_numbers(sentence, find_dates(sentence))
    return [(n.text, n.start, f"{n.value}|{n.family}") for n in hits if n.unit]


def subject_of(sentence: str, start: int, fact: str) -> frozenset[str]:
    return suspects.subject_words(sentence=sentence, start=start, end=start + len(fact))


def moved(original: str, mutated: str) -> list[str]:
    """The figures of the mutated sentence whose value the original states about other words."""
    before: dict[str, set[frozenset[str]]] = {}
    for fact, start, key in figures(original):
        before.setdefault(key, set()).add(subject_of(original, start, fact))
    return [
        fact
        for fact, start, key in figures(mutated)
        if key in before and subject_of(mutated, start, fact) not in before[key]
    ]


def true_cases(sentence: str, text: corpus.Text, index: int) -> list[tuple[str, str]]:
    """(fact, article sentence): the sentence as written and its faithful rewrites."""
    versions = [sentence]
    ctx = rewrite.Context(text.date, text.kind, f"{text.id}:{index}")
    versions += [new for kind, new in rewrite.rewrites(sentence, ctx).items() if kind != "rounding"]
    stated = {key for _, _, key in figures(sentence)}
    return [(fact, v) for v in versions for fact, _, key in figures(v) if key in stated]


def evaluate(texts: list[corpus.Text]) -> dict[str, Counter[str]]:
    tallies = {part: Counter[str]() for part in corpus.PARTS}
    for text in texts:
        tally = tallies[text.part]
        sources = [text.text]
        src = inject.source_of(text.text)
        factual = [s for s in guard.split(text.text) if is_factual(s.text)][:MAX_SENTENCES]
        for s in factual:
            for fact, sentence in true_cases(s.text, text, s.index):
                tally["true"] += 1
                for name, gate in GATES.items():
                    tally[f"true kept|{name}"] += gate(fact, sentence, s.text, sources, text)
            ctx = rewrite.Context(text.date, text.kind, f"{text.id}:{s.index}")
            for kind in MOVES:
                result = inject.KINDS[kind](s.text, src, ctx)
                if not result:
                    continue
                for fact in moved(s.text, result[0]):
                    tally["moved"] += 1
                    for name, gate in GATES.items():
                        tally[f"moved cut|{name}"] += not gate(fact, result[0], s.text, sources, text)
    return tallies


def _ratio(hit: int, total: int) -> str:
    return f"{hit}/{total} ({hit / total:.1%})" if total else "–"


def render(tallies: dict[str, Counter[str]]) -> str:
    lines = [
        "| gate | part | true figures kept (honest quote) | moved figures cut (quote of the other subject) |",
        "| --- | --- | --- | --- |",
    ]
    for name in GATES:
        for part, t in tallies.items():
            kept = _ratio(t[f"true kept|{name}"], t["true"])
            cut = _ratio(t[f"moved cut|{name}"], t["moved"])
            lines.append(f"| {name} | {part} | {kept} | {cut} |")
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sample", type=int, default=0, help="texts per part (default: all)")
    args = parser.parse_args()
    started = time.monotonic()
    texts = corpus.load()
    if args.sample:
        texts = corpus.sample(texts, args.sample)
    print(f"texts: {len(texts)}")
    print(render(evaluate(texts)))
    print(f"\n({time.monotonic() - started:.0f} s)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

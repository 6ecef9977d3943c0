"""How many sentences of a faithful article code traces back to the press release, and how safely.

For every case of the Korean verification set (bench/data/verify/<NN>-<slug>/: a real public press
release and a faithful article written from it) the article body is attributed against the
release alone (source 0). Printed:

- attributed: sentences with at least one span / all sentences (target ≥ 95%);
- figure-safe: spans of a sentence with figures whose quoted text holds none of the sentence's
  figures (target 0);
- baseline: the same attribution with bigram overlap only (no figure rule), measured in this run.

    uv run python bench/provenance_eval.py [--cases]
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from agents.facts import provenance
from agents.verification.guard import split_sentences

DATA = Path(__file__).resolve().parent / "data" / "verify"


def _overlap_only(body: str, sources: list[str]) -> list[dict[str, object]]:
    pool = provenance.segments(sources)
    rows: list[dict[str, object]] = []
    for sentence in split_sentences(body):
        best = max(pool, key=lambda s: provenance.overlap(sentence.text, s.text))
        ok = provenance.overlap(sentence.text, best.text) >= provenance.MIN_OVERLAP
        rows.append({"text": sentence.text, "spans": [{"text": best.text}] if ok else []})
    return rows


def _score(rows: list[dict[str, object]]) -> tuple[int, int, int, int]:
    """(sentences, attributed, spans of sentences with figures, spans without their figures)."""
    attributed = spans = bad = 0
    for row in rows:
        found = row["spans"]
        assert isinstance(found, list)
        attributed += bool(found)
        wanted = provenance.figures(str(row["text"]))
        if wanted:
            spans += len(found)
            bad += sum(1 for span in found if not provenance.figures(span["text"]) & wanted)
    return len(rows), attributed, spans, bad


def evaluate() -> tuple[dict[str, list[int]], list[str]]:
    """Per method, (sentences, attributed, spans of sentences with figures, spans without their
    figures) over every case; and the sentences code attributes to nothing, as "case: text"."""
    totals = {"code": [0, 0, 0, 0], "overlap only (baseline)": [0, 0, 0, 0]}
    unattributed: list[str] = []
    for case in sorted(p for p in DATA.iterdir() if (p / "article.json").exists()):
        release = (case / "release.txt").read_text(encoding="utf-8")
        body = json.loads((case / "article.json").read_text(encoding="utf-8"))["body"]
        rows = provenance.attribute(body=body, sources=[release])
        for name, result in (("code", rows), ("overlap only (baseline)", _overlap_only(body, [release]))):
            totals[name] = [a + b for a, b in zip(totals[name], _score(result), strict=True)]
        unattributed += [f"{case.name}: {row['text']}" for row in rows if not row["spans"]]
    return totals, unattributed


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--cases", action="store_true", help="print unattributed sentences per case")
    args = parser.parse_args()
    totals, unattributed = evaluate()
    if args.cases:
        for line in unattributed:
            print(f"  {line}")
    print(f"{'method':<26}{'attributed':>18}{'spans w/o figures':>22}")
    for name, (n, attributed, spans, bad) in totals.items():
        print(f"{name:<26}{f'{attributed}/{n} ({attributed / n:.1%})':>18}{f'{bad}/{spans}':>22}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""Crediting other outlets, on real releases and the real news written from them.

The cases of the Korean verification set that keep news coverage (bench/data/verify/<case>/news/:
real articles by named outlets about the same release) give two questions:

- over-crediting: a faithful article written from the release, checked against the release AND a
  competitor's article. Every fact is the release's, so no sentence should be credited to the
  outlet. Printed: sentences credited, for code (a sentence the release also supports is left
  alone) and for the baseline rule measured in this run (credit whenever every span of the
  sentence points at the competitor's article).
- missed credits: the same faithful article and the news article's own text, each checked against
  the competitor's article alone (what a follow-up without a release rests on). After crediting,
  a sentence whose spans all point at the article must name the outlet or attribute the claim.
  Printed: such sentences left bare (target 0), with how many were credited and flagged.

    uv run python bench/attribution_eval.py
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from agents.facts import attribution, provenance
from agents.verification.guard import split_sentences

DATA = Path(__file__).resolve().parent / "data" / "verify"


def cases() -> list[tuple[str, str, list[dict[str, Any]]]]:
    """(release, faithful article body, news articles) of every case with news coverage."""
    found = []
    for case in sorted(p for p in DATA.iterdir() if (p / "news").is_dir() and (p / "article.json").exists()):
        release = (case / "release.txt").read_text(encoding="utf-8")
        body = json.loads((case / "article.json").read_text(encoding="utf-8"))["body"]
        news = [json.loads(p.read_text(encoding="utf-8")) for p in sorted((case / "news").glob("*.json"))]
        found.append((release, body, [n for n in news if n.get("body") and n.get("outlet")]))
    return found


def _article(news: dict[str, Any]) -> dict[str, Any]:
    return {
        "kind": "article",
        "title": news.get("headline", ""),
        "text": news["body"],
        "outlet": news["outlet"],
    }


def _baselinealready_credited(body: str, material: list[dict[str, Any]]) -> int:
    """Sentences whose every span points at an outlet's article (no check of the own material)."""
    pool = provenance.segments([str(d["text"]) for d in material])
    outlets = {n for n, d in enumerate(material) if attribution.source_outlet(d)}
    count = 0
    for sentence in split_sentences(body):
        spans = provenance.spans_for(sentence.text, pool)
        count += bool(spans) and all(s.source in outlets for s in spans)
    return count


def bare_sentences(body: str, material: list[dict[str, Any]]) -> list[str]:
    """Sentences resting on outlets' articles alone that neither name one nor attribute the claim."""
    pool = provenance.segments([str(d["text"]) for d in material])
    outlets_of = {
        n: attribution.source_outlet(d) for n, d in enumerate(material) if attribution.source_outlet(d)
    }
    own = [s for s in pool if s.source not in outlets_of]
    bare = []
    for sentence in split_sentences(body):
        named = attribution.outlets_only(sentence.text, pool=pool, own=own, outlets_of=outlets_of)
        if named and not attribution.already_credited(sentence.text, named):
            bare.append(sentence.text)
    return bare


def evaluate() -> dict[str, int]:
    figures = dict.fromkeys(
        ("pairs", "sentences", "credited", "baseline", "checked", "resting", "bare", "added", "flagged"), 0
    )
    for release, body, news in cases():
        for item in news:
            both = [{"kind": "press_release", "title": "보도자료", "text": release}, _article(item)]
            figures["pairs"] += 1
            figures["sentences"] += len(split_sentences(body))
            figures["credited"] += len(attribution.credit_outlets(body=body, material=both).credited)
            figures["baseline"] += _baselinealready_credited(body, both)
            alone = [_article(item)]
            for text in (body, item["body"]):
                result = attribution.credit_outlets(body=text, material=alone)
                figures["checked"] += len(split_sentences(text))
                figures["resting"] += _baselinealready_credited(text, alone)
                figures["added"] += len(result.credited)
                figures["flagged"] += len(result.flagged)
                figures["bare"] += len(set(bare_sentences(result.body, alone)) - set(result.flagged))
    return figures


def main() -> int:
    f = evaluate()
    print(f"{f['pairs']} (release, news article) pairs from real releases and their coverage")
    print("over-crediting: a faithful article checked against its release and a competitor's article")
    print(f"  code:     {f['credited']}/{f['sentences']} sentences credited to the outlet")
    print(f"  baseline: {f['baseline']}/{f['sentences']} (credit whenever every span is on the article)")
    print("missed credits: faithful articles and the news texts checked against the article alone")
    print(f"  sentences {f['checked']}, resting on the article alone {f['resting']}")
    print(f"  credited {f['added']}, flagged {f['flagged']}, neither (left bare) {f['bare']} (target 0)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

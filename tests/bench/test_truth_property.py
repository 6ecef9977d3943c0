"""The guard's property on real texts: a text's own sentences, as an article, get no flag, in every
reformatting the reader claims to handle.

Each text of a fixed sample of the property corpus (both parts) is checked against itself with one
factual sentence rewritten by `bench.truth.rewrite` (separators, 만/억/조, 퍼센트, Hangul numerals,
약/여/가량 roundings, spacing, date forms, the announcement day, brackets dropped): a flag the rewrite
adds to the sentence breaks the property. The whole corpus is measured by bench/truth_eval.py.
"""

from __future__ import annotations

from collections import Counter

import pytest

from bench.truth import corpus, rewrite, run

SAMPLE = 3  # texts per part, chosen by a hash of their id: a few seconds


TEXTS = corpus.sample(corpus.load(), SAMPLE)


def _checked(text: corpus.Text) -> tuple[list[str], set[str]]:
    """The flags rewrites add to the text's sentences, and the kinds of rewrite made."""
    t = run._Text(text)
    found, kinds = [], set()
    for s in t.factual:
        base = Counter(c.family for c in t.base_checks(s.index))
        for kind, new in rewrite.rewrites(s.text, t.context(s.index)).items():
            kinds.add(kind)
            checks, changed = t.changed(t.replaced(s.index, new))
            flags = [c for c in checks if c.flagged and c.sentence in changed]
            if Counter(c.family for c in flags) - base:
                found.append(f"{text.id} {kind}: {new[:60]} [{flags[0].text}: {flags[0].family}]")
    return found, kinds


@pytest.fixture(scope="module")
def checked() -> dict[str, tuple[list[str], set[str]]]:
    return {text.id: _checked(text) for text in TEXTS}


@pytest.mark.parametrize("text_id", [t.id for t in TEXTS])
def test_a_texts_own_sentences_reformatted_get_no_flag(
    checked: dict[str, tuple[list[str], set[str]]], text_id: str
) -> None:
    assert checked[text_id][0] == []


def test_the_sample_reformats_sentences_of_every_kind_the_reader_claims(
    checked: dict[str, tuple[list[str], set[str]]],
) -> None:
    kinds = set().union(*(made for _, made in checked.values()))
    assert {"separators", "magnitude", "percent", "rounding", "spacing", "dates"} <= kinds

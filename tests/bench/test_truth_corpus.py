"""The property corpus is what its README says: real texts with figures, cited, split once."""

from __future__ import annotations

import hashlib
import json
import re
from collections import Counter

from bench.truth import corpus, guard
from bench.truth.figures import find_dates, find_figures

TEXTS = corpus.load()
RAW = [json.loads(line) for line in corpus.CORPUS.read_text(encoding="utf-8").splitlines() if line.strip()]


def test_the_corpus_holds_at_least_300_texts_of_both_kinds() -> None:
    assert len(TEXTS) >= 300
    kinds = Counter(t.kind for t in TEXTS)
    assert set(kinds) == set(corpus.KINDS)
    assert len({t.source for t in TEXTS if t.kind == "release"}) >= 15
    assert len({t.source for t in TEXTS if t.kind == "news"}) >= 100


def test_every_text_is_cited_once_with_an_id_from_its_address() -> None:
    assert all(set(raw) == {"id", "url", "kind", "source", "date", "title", "text"} for raw in RAW)
    assert len({t.url for t in TEXTS}) == len(TEXTS)
    for t in TEXTS:
        assert t.url.startswith(("http://", "https://"))
        prefix = "r-" if t.kind == "release" else "n-"
        assert t.id == prefix + hashlib.sha256(t.url.encode()).hexdigest()[:10]
        assert t.source and t.title
    assert all(raw["date"] is None or re.fullmatch(r"\d{4}-\d{2}-\d{2}", raw["date"]) for raw in RAW)


def test_every_text_states_figures_in_sentences() -> None:
    for t in TEXTS:
        assert len(guard.split(t.text)) >= 3, t.id
        assert len(find_figures(t.text)) + len(find_dates(t.text)) >= 3, t.id
        assert "???" not in t.text and "°í¿" not in t.text, t.id  # no unrepaired mojibake


def test_no_text_is_in_the_verification_set() -> None:
    verify = corpus.CORPUS.parents[1] / "verify"
    releases = {p.read_text(encoding="utf-8").strip()[:80] for p in verify.glob("*/release.txt")}
    assert not any(t.text.strip()[:80] in releases for t in TEXTS)


def test_a_third_is_frozen_by_the_hash_of_the_address() -> None:
    frozen = [t for t in TEXTS if t.part == "frozen"]
    assert 0.25 <= len(frozen) / len(TEXTS) <= 0.42
    for t in TEXTS:
        assert corpus.is_frozen(t.url) == (int(hashlib.sha256(t.url.encode()).hexdigest(), 16) % 3 == 0)
    # Pinned: the rule never moves a text between parts.
    assert corpus.part_of("https://news.sbs.co.kr/news/endPage.do?news_id=N1007931139") == "frozen"
    assert corpus.part_of("https://www.etoday.co.kr/news/view/2473566") == "tuning"


def test_a_sample_takes_the_same_texts_from_each_part() -> None:
    first, again = corpus.sample(TEXTS, 5), corpus.sample(TEXTS, 5)
    assert [t.id for t in first] == [t.id for t in again]
    assert Counter(t.part for t in first) == {"tuning": 5, "frozen": 5}

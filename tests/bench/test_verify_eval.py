"""Our Korean verification set: its data holds together, and the code guard keeps its measured level.

The thresholds are what the guard achieved when the set was last extended (the tables of
docs/verification.md); raise them as the guard improves, never lower them to pass. The set
the guard was tuned on (cases before HELD_OUT_FROM) keeps its own thresholds; the held-out cases,
added after that tuning, are held to what the guard measured on them.
"""

from __future__ import annotations

import json
import re
from datetime import date
from pathlib import Path

import pytest

from agents.verification.guard import normalize_body
from bench.verify_eval import DATA, KINDS, Report, evaluate, load_cases

MIN_CASES = 28
MAX_FALSE_FLAG_RATE = 0.0  # flagged facts / checked facts on the faithful articles
MIN_CATCH_RATE = 0.99  # mutations caught / mutations, all kinds
MIN_CATCH = {
    "digit": 1.0,
    "unit": 1.0,
    "date": 1.0,
    "quote": 1.0,
    "added": 1.0,
    "swap": 0.95,
    "hangul": 1.0,
}
MAX_NEWS_FORMAT_RATE = 0.0101  # formatting false flags / checked facts on real newspaper articles
MAX_HEADLINE_FLAG_RATE = 0.021  # flagged facts / checked facts in the faithful headlines
MIN_HEADLINE_CAUGHT = 34  # of 38 changed headline figures
MIN_ABSENT_FLAGGED = 92  # of 115 news figures the release lacks

# The held-out cases (24-28): measured before any change made for them 7, 32 and 13; now
# 1: case 27's "이번이 네 번째 공개" for the release's "4차로 공개" was confirmed by a module written
# for that one sentence; the corpus-wide rules removed it (no text of the property corpus has the construct).
HELD_OUT_MAX_FALSE_FLAGS = 1  # of 219 facts of the faithful articles
HELD_OUT_MIN_CAUGHT = 33  # of 35 mutations
HELD_OUT_MAX_NEWS_FORMAT_FLAGS = 4  # of 367 facts of real newspaper articles

SOURCE_KEYS = ("agency", "title", "date", "url", "license")
CASE_DIRS = sorted(p for p in DATA.iterdir() if (p / "source.json").exists())


@pytest.fixture(scope="module")
def report() -> Report:
    return evaluate(held_out=False)


@pytest.fixture(scope="module")
def held_out() -> Report:
    return evaluate(held_out=True)


def test_the_set_has_enough_releases() -> None:
    assert len(load_cases()) >= MIN_CASES


@pytest.mark.parametrize("folder", CASE_DIRS, ids=lambda p: p.name)
def test_every_case_cites_its_source_and_has_every_file(folder: Path) -> None:
    assert re.fullmatch(r"\d\d-[a-z0-9-]+", folder.name)
    source = json.loads((folder / "source.json").read_text(encoding="utf-8"))
    assert all(source.get(key) for key in SOURCE_KEYS), source
    date.fromisoformat(source["date"])
    assert source["url"].startswith(("http://", "https://"))
    assert (folder / "release.txt").read_text(encoding="utf-8").strip()


@pytest.mark.parametrize("folder", CASE_DIRS, ids=lambda p: p.name)
def test_every_case_has_one_mutation_of_each_kind_found_exactly_once(folder: Path) -> None:
    case = next(c for c in load_cases() if c.slug == folder.name)
    assert case.body == normalize_body(case.body)
    assert sorted(m.kind for m in case.mutations) == sorted(KINDS)
    for mutation in case.mutations:
        assert case.body.count(mutation.find) == 1, mutation
        assert mutation.replace != mutation.find, mutation
        mutated = case.body.replace(mutation.find, mutation.replace)
        assert mutated == normalize_body(mutated), mutation


@pytest.mark.parametrize("folder", CASE_DIRS, ids=lambda p: p.name)
def test_key_facts_quote_the_release(folder: Path) -> None:
    path = folder / "key_facts.json"
    if not path.exists():
        pytest.skip("no key facts for this release yet")
    release = " ".join((folder / "release.txt").read_text(encoding="utf-8").split())
    for item in json.loads(path.read_text(encoding="utf-8")):
        assert item["fact"]
        assert " ".join(item["source_text"].split()) in release, item


def test_news_articles_list_what_the_release_lacks_in_their_own_words() -> None:
    for case in load_cases():
        for article in case.news:
            assert article.body.strip()  # the headline is "" where the stored copy lacks it
            for surface in article.not_in_release:
                assert surface in article.body, (case.slug, article.outlet, surface)


def test_faithful_articles_are_not_flagged_more_than_measured(report: Report) -> None:
    assert report.faithful.rate <= MAX_FALSE_FLAG_RATE


def test_mutations_are_caught_at_least_as_often_as_measured(report: Report) -> None:
    assert report.catch_rate() >= MIN_CATCH_RATE
    for kind, minimum in MIN_CATCH.items():
        assert report.catch_rate(kind) >= minimum, kind


def test_real_news_gets_no_more_formatting_false_flags_than_measured(report: Report) -> None:
    assert report.news.rate <= MAX_NEWS_FORMAT_RATE


def test_faithful_headlines_are_not_flagged_more_than_measured(report: Report) -> None:
    assert report.headlines.rate <= MAX_HEADLINE_FLAG_RATE


def test_changed_headline_figures_are_caught_at_least_as_often_as_measured(report: Report) -> None:
    assert report.headline_caught >= MIN_HEADLINE_CAUGHT


def test_news_figures_the_release_lacks_are_flagged_at_least_as_often_as_measured(report: Report) -> None:
    assert report.absent_flagged >= MIN_ABSENT_FLAGGED


def test_held_out_faithful_articles_are_not_flagged_more_than_measured(held_out: Report) -> None:
    assert held_out.cases >= 5
    assert held_out.faithful.flags <= HELD_OUT_MAX_FALSE_FLAGS


def test_held_out_mutations_are_caught_at_least_as_often_as_measured(held_out: Report) -> None:
    assert sum(held_out.caught.values()) >= HELD_OUT_MIN_CAUGHT


def test_held_out_news_gets_no_more_formatting_false_flags_than_measured(held_out: Report) -> None:
    assert held_out.news.flags <= HELD_OUT_MAX_NEWS_FORMAT_FLAGS

"""The embargo reader on real release header lines: every line read right in both parts of the
split, better than the naive baseline, and no embargo found in texts that state none."""

from __future__ import annotations

import pytest

from bench.embargo_eval import Line, accuracy, baseline, false_embargoes, load_lines, reader
from bench.truth.corpus import PARTS
from tests.fixtures.press import PRESS_RELEASE

LINES = load_lines()


@pytest.mark.parametrize("item", LINES, ids=[f"{n}-{item.part}" for n, item in enumerate(LINES)])
def test_each_real_line_is_read_to_its_moment_inside_a_whole_release(item: Line) -> None:
    release = f"보도자료\n{item.line}\n{PRESS_RELEASE}"

    assert reader(release, item.release_date) == item.expected


@pytest.mark.parametrize("part", PARTS)
def test_every_line_of_each_part_is_read_right_and_no_worse_than_the_baseline(part: str) -> None:
    chosen = [item for item in LINES if item.part == part]
    right, total = accuracy(reader, chosen)

    assert total >= 2
    assert right == total
    assert right >= accuracy(baseline, chosen)[0]


def test_the_data_names_an_address_for_every_line_and_both_kinds_of_answer() -> None:
    assert all(item.url.startswith("https://") for item in LINES)
    assert any(item.expected is None for item in LINES) and any(item.expected for item in LINES)


def test_no_embargo_is_found_in_corpus_texts_that_state_none() -> None:
    found, total = false_embargoes(reader)

    assert total > 300 and found == 0

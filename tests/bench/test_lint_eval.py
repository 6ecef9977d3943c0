"""The house-style lint keeps its measured precision on real Korean news.

The thresholds are what `bench/lint_eval.py` printed when the rules were last changed
(docs/verification.md, "House-style lint"), with the rules the data migration seeds; raise them as
the rules improve, never lower them to pass. A hit without a hand label fails: it must be read and
labelled in bench/data/lint/labels.json first.
"""

from __future__ import annotations

import pytest

from bench.lint_eval import Evaluation, evaluate

MIN_TEXTS = 35
MIN_HITS = 13
MIN_PRECISION = 0.92  # 12 of 13 hits correct


pytestmark = pytest.mark.django_db  # the rules the migrations seeded


@pytest.fixture
def result() -> Evaluation:
    return evaluate()


def test_every_hit_on_the_sample_has_a_hand_label(result: Evaluation) -> None:
    assert result.texts >= MIN_TEXTS
    assert result.unlabelled == 0, "\n".join(line for labelled, line in result.lines if not labelled)


def test_the_lint_is_right_at_least_as_often_as_measured(result: Evaluation) -> None:
    assert result.hits >= MIN_HITS
    assert result.correct / result.hits >= MIN_PRECISION

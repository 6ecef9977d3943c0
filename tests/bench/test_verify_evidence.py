"""The whole path a faithful article takes (code guard, then a verifier that supplies evidence)
cuts none of its sentences on our Korean verification set."""

from __future__ import annotations

from bench.verify_eval import load_cases
from bench.verify_evidence import Figures, faithful


def test_no_faithful_sentence_is_cut_by_code_or_after_evidence() -> None:
    figures = Figures()
    for case in load_cases():
        faithful(case, figures)
    assert figures.sentences >= 200
    assert (figures.cut_code, figures.cut_evidence) == (0, 0)

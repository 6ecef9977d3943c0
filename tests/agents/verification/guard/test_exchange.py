"""guard.exchange: two subjects exchanged around their figures, no figure moving."""

from __future__ import annotations

from agents.verification.guard import article_findings

PRICES = "매매가는 서울이 0.13% 하락했고 인천(-0.19%), 경기(-0.14%) 모두 가격이 내렸다."


def _rules(article: str) -> dict[str, str]:
    return {f.fact.text: f.rule for f in article_findings(body=article, sources=[PRICES])}


def test_it_flags_both_figures_of_two_exchanged_labels() -> None:
    found = _rules("매매가는 서울이 0.13% 하락했고 경기(-0.19%), 인천(-0.14%) 모두 가격이 내렸다.")
    assert found["0.19%"] == found["0.14%"] == "bind:exchanged"


def test_it_confirms_the_labels_in_their_places() -> None:
    assert set(_rules(PRICES).values()) == {"confirm:match"}

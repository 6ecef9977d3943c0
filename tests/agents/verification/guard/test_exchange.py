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


LABOUR = "실업자는 101만2천명으로 3만6천명 늘었고, 실업률은 3.7%로 0.1%포인트 상승했다."


def test_it_flags_two_labels_crossed_around_figures_of_two_units() -> None:
    found = {
        f.fact.text: f.rule
        for f in article_findings(
            body="실업률은 101만2천명으로 3만6천명 늘었고, 실업자는 3.7%로 0.1%포인트 상승했다.",
            sources=[LABOUR],
        )
    }
    assert found["101만2천명"] == found["3.7%"] == "bind:exchanged"


def test_it_reads_labels_past_the_words_both_figures_share() -> None:
    source = "지방에서는 부산(-0.16%)과 경남(-0.13%)도 약세를 보였다."
    found = {
        f.fact.text: f.rule
        for f in article_findings(
            body="지방에서는 경남(-0.16%)과 부산(-0.13%)도 약세를 보였다.", sources=[source]
        )
    }
    assert found["0.16%"] == found["0.13%"] == "bind:exchanged"


SPEAKER = "통계청은 11일 고용동향 자료에서 지난해 취업자가 2623만5천명으로 집계됐다고 밝혔다."


def test_a_label_traded_with_a_word_of_its_sentence_is_a_suspect() -> None:
    (finding,) = [
        f
        for f in article_findings(
            body="취업자는 11일 고용동향 자료에서 지난해 통계청이 2623만5천명으로 집계됐다고 밝혔다.",
            sources=[SPEAKER],
        )
        if f.fact.text == "2623만5천명"
    ]
    assert finding.rule == "bind:label-moved"
    assert finding.status == "suspect"


def test_a_label_in_its_place_or_in_other_words_is_confirmed() -> None:
    for body in (SPEAKER, "통계청에 따르면 지난해 취업자 수는 2623만5천명이었다."):
        rules = {f.fact.text: f.rule for f in article_findings(body=body, sources=[SPEAKER])}
        assert rules["2623만5천명"] == "confirm:match"

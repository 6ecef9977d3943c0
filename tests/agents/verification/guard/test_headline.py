"""The headline, checked as the short restatement of its body."""

from __future__ import annotations

import pytest

from agents.verification.guard import article_findings, headline_findings

RELEASE = (
    "올해 쌀 생산량은 전년 대비 18만 t 감소한 451만 t으로 추정됐다. "
    "생산 면적은 2017년 76만ha에서 2023년 64만ha로 줄었다. "
    "전체 인구는 출생아 23만명, 사망자 35만명으로 12만명 자연감소했다. "
    "인구 1,000명당 사망자는 6.9명이다."
)
BODY = (
    "올해 쌀 생산량이 지난해보다 18만t 줄어든 451만t으로 추정됐다. "
    "생산 면적은 2017년 76만ha에서 2023년 64만ha로 줄었다. "
    "지난해 출생아보다 사망자가 많아 인구가 12만명 자연감소했다."
)


def statuses(headline: str, body: str = BODY) -> dict[str, str]:
    found = headline_findings(headline=headline, body=body, sources=[RELEASE])
    return {f.fact.text: f.status for f in found if f.fact.kind == "number"}


@pytest.mark.parametrize(
    "headline",
    [
        "쌀 생산량 451만t…18만t 감소",
        "쌀 생산 면적 6년 새 12만ha 줄어",  # the years are in the body, not the headline
        "인구 12만명 자연감소",
    ],
)
def test_a_headline_figure_the_body_states_about_the_same_thing_is_confirmed(headline: str) -> None:
    assert set(statuses(headline).values()) == {"confirmed"}


def test_read_alone_those_headlines_lack_the_words_that_bind_their_figures() -> None:
    alone = article_findings(body="쌀 생산 면적 6년 새 12만ha 줄어", sources=[RELEASE])
    assert {f.fact.text: f.status for f in alone}["6년"] == "not_found"


@pytest.mark.parametrize(
    ("headline", "flagged"),
    [
        ("쌀 생산량 415만t…18만t 감소", "415만t"),  # a changed digit
        ("쌀 생산 면적 5년 새 12만ha 줄어", "5년"),
        ("인구 13만명 자연감소", "13만명"),
    ],
)
def test_a_headline_figure_neither_the_release_nor_the_verified_body_gives_stays_flagged(
    headline: str, flagged: str
) -> None:
    assert statuses(headline)[flagged] in ("not_found", "contradicted", "suspect")


def test_a_body_sentence_the_guard_flags_confirms_nothing_in_the_headline() -> None:
    wrong_body = "지난해 인구가 13만명 자연감소했다."
    assert statuses("인구 13만명 자연감소", body=wrong_body)["13만명"] != "confirmed"

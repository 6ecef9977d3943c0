"""The bench's judge of a removed lead that the rest of its text states again (`missing.restated`).

Such a lead is carried by the text minus it, so a list that leaves it out is right; the bench counts
these leads apart from the lead recall. The sentences are from the corpus's tuning part, several
outlets and one agency.
"""

from __future__ import annotations

import pytest

from bench.truth import corpus, guard, missing, run
from bench.truth.missing import restated


@pytest.mark.parametrize(
    ("lead", "later"),
    [
        # the same figure, the same subject, the same change in other words (a wire story)
        (
            "한국의 2013년 국제특허출원이 4.8% 증가한 것으로 나타났다.",
            "20일 특허청에 따르면 한국의 2013년 국제특허출원은 전년보다 4.8% 늘어난 "
            "1만2천439건으로 조사됐다.",
        ),
        # a regional paper: "줄어들었다" and "감소했다"
        (
            "올해 쌀 생산량이 지난해보다 4.6% 줄어들었다.",
            "농림부는 조사한 결과 올해 쌀 생산량이 3천311만 섬(476만8천t)으로 지난해의 3천473만 섬"
            "(500만t)보다 4.6% 감소했다고 25일 밝혔다.",
        ),
        # a broadcaster: no figure in the lead, the record stated again of the same subject
        (
            "청년층 실업률은 역대 최고치를 기록했습니다.",
            "청년층 실업률도 9.8%를 기록하며, 역대 최고치를 또 경신했습니다.",
        ),
        # an agency's release repeating its lead: two subjects, each with its own direction
        (
            "올해 징병검사에서는 지난해에 비해 현역대상은 5.4% 포인트 증가한 반면, 공익근무대상과 면제는 "
            "각각 5.1%, 0.5% 포인트 감소한 것으로 나타났다.",
            "이와같은 판정비율은 지난 해와 비교해 볼 때, 현역대상은 5.4% 포인트 증가한 반면, 공익근무대상과 "
            "면제는 각각 5.1%, 0.5% 포인트 감소하였으며, 재신체검사대상은 0.1% 포인트 증가한 것이다.",
        ),
    ],
)
def test_a_later_sentence_with_the_leads_figures_subject_and_change_restates_it(
    lead: str, later: str
) -> None:
    assert restated(lead, ["다른 이야기를 하는 문장이다.", later])


def test_two_sentences_that_follow_each_other_restate_a_lead_together() -> None:
    lead = "전국의 주간 아파트 가격이 6주 연속 하락했다."
    others = [
        "4일 한국부동산원 발표에 따르면, 전국 아파트 가격은 전주보다 0.05% 하락했다.",
        "지난 11월 마지막 주 이후 6주 연속 하향 곡선을 그리고 있다.",
    ]
    assert restated(lead, others)
    assert not restated(lead, others[:1])  # the streak is the news: the fall alone is no restatement


def test_another_subjects_change_restates_nothing() -> None:
    lead = "올해 벼 재배 면적이 줄면서 쌀 생산량이 작년보다 감소했습니다."
    # "쌀 생산량 조사 결과" names the subject without saying it fell; the fall is the area's
    only_area = (
        "통계청의 쌀 생산량 조사 결과를 보면, 올해 벼 재배 면적은 69만 7,713㏊로 1년 전보다 1.5% 줄었습니다."
    )
    assert not restated(lead, [only_area])


def test_one_subject_of_two_restates_nothing() -> None:
    lead = "올해 설 연휴는 귀경차량은 늘었지만 교통사고는 줄어든 것으로 나타났습니다."
    assert not restated(
        lead, ["설 연휴 귀경차량은 117만 9천여대로 지난해에 비해 1.9% 증가했다고 밝혔습니다."]
    )
    assert restated(
        lead,
        [
            "설 연휴 귀경차량은 117만 9천여대로 지난해에 비해 1.9% 증가했다고 밝혔습니다.",
            "하지만 교통사고는 1천329건으로 지난해보다 24% 줄었습니다.",
        ],
    )


def test_the_opposite_change_or_a_missing_figure_or_record_restates_nothing() -> None:
    assert not restated(
        "올 상반기 해양 연안사고가 21% 감소했다.", ["올 상반기 해양 연안사고는 21% 증가했다."]
    )
    assert not restated(
        "올 상반기 해양 연안사고가 21% 감소했다.", ["올 상반기 해양 연안사고는 크게 감소했다."]
    )
    assert not restated(
        "경상수지가 두 달 연속 흑자를 기록했다.", ["6월 경상수지는 63억8000만 달러 흑자를 기록했다."]
    )
    assert not restated(
        "지난 한 해 화재가 최근 10년 사이 가장 적게 발생했다.",
        ["지난해 화재로 인한 재산 피해액은 8061억원으로 역대 가장 컸다."],
    )


def test_a_sentence_with_neither_a_figure_nor_a_change_is_never_restated() -> None:
    lead = "공정거래위원회는 과징금 고시를 개정키로 하고 행정예고한다고 밝혔다."
    assert not restated(lead, [lead])


def test_every_corpus_sentence_with_a_claim_restates_itself() -> None:
    # The rule holds on every text: a sentence the judge can read is carried by its own copy.
    judged = 0
    for text in corpus.load():
        if text.part != "tuning":
            continue
        for sentence in guard.split(text.text):
            assert not restated(sentence.text, [])  # no other sentence: nothing restates it
            if _readable(sentence.text):
                judged += 1
                assert restated(sentence.text, [sentence.text]), sentence.text
    assert judged >= 500  # 926 measured


def _readable(sentence: str) -> bool:
    claims = missing._claims(sentence)
    figures = {f for f in missing._facts(sentence) if f[1] != "date"}
    return bool(claims) and (bool(figures) or any(kinds for _, kinds in claims))


def test_a_restated_lead_is_counted_apart_from_the_lead_recall() -> None:
    text = corpus.Text(
        id="n-0000000001",
        url="https://example.org/a",
        kind="news",
        source="test",
        date=None,
        title="",
        text=(
            "올 상반기 해양 연안사고가 21% 감소했다.\n"
            "해경은 올 상반기 해양 연안사고는 294건으로 지난해 상반기 373건에 비해 21% 감소했다고 밝혔다.\n"
            "사망자는 48명으로 지난해보다 5명 늘었다."
        ),
    )
    tally = run.evaluate_text(text)
    assert (tally.leads, tally.leads_restated) == (0, 1)

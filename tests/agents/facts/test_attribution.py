"""Every span names its kind of source, and a sentence resting only on another outlet's article
is credited to that outlet."""

from __future__ import annotations

from agents.facts.attribution import credit_outlets, source_outlet, with_kinds
from agents.facts.provenance import attribute
from agents.verification.guard import split_sentences

RELEASE = """국토교통부, 전세사기 피해자 지원 설명회 개최
국토교통부는 전세사기 피해자 지원 설명회를 오는 15일 서울 용산구에서 연다고 밝혔다.
설명회는 전국 5곳에서 차례로 열린다.
피해자는 현장에서 법률 상담과 긴급 주거 지원 신청을 함께 할 수 있다.
"""
COMPETITOR = """국토부는 다음 달부터 전세사기 피해 주택 1200가구를 공공임대로 전환한다.
한국토지주택공사(LH)가 피해 주택을 경매로 사들인 뒤 피해자에게 최장 20년간 임대하는 방식이다.
매입 예산은 총 3600억 원 규모다.
설명회는 전국 5곳에서 차례로 열린다.
"""
SEARCHED = "국토부는 매입 예산을 총 3600억 원으로 잡았다고 전했다."

MATERIAL = [
    {"kind": "press_release", "title": "보도자료", "text": RELEASE},
    {
        "kind": "article",
        "title": "전세사기 피해 주택 1200가구 공공임대 전환",
        "text": COMPETITOR,
        "url": "https://www.hankookilbo.com/News/Read/A1",
        "outlet": "한국일보",
    },
]


def _sentences(body: str) -> list[str]:
    return [s.text for s in split_sentences(body)]


def test_a_sentence_resting_only_on_the_competitor_article_is_credited_to_its_outlet() -> None:
    body = "국토부는 다음 달부터 피해 주택 1200가구를 공공임대로 전환한다. 매입 예산은 총 3600억 원 규모다."

    result = credit_outlets(body=body, material=MATERIAL)

    assert _sentences(result.body) == [
        "한국일보에 따르면 국토부는 다음 달부터 피해 주택 1200가구를 공공임대로 전환한다.",
        "한국일보에 따르면 매입 예산은 총 3600억 원 규모다.",
    ]
    assert len(result.credited) == 2 and result.flagged == []


def test_a_sentence_the_reporters_own_material_also_supports_is_left_as_written() -> None:
    body = (
        "국토교통부는 전세사기 피해자 지원 설명회를 오는 15일 연다.\n\n설명회는 전국 5곳에서 차례로 열린다."
    )

    result = credit_outlets(body=body, material=MATERIAL)

    assert result.body == body and result.credited == []


def test_a_sentence_that_already_names_the_outlet_or_attributes_the_claim_is_left_as_written() -> None:
    body = (
        "한국일보는 국토부가 피해 주택 1200가구를 공공임대로 전환한다고 보도했다. "
        "업계에 따르면 매입 예산은 총 3600억 원 규모다."
    )

    assert credit_outlets(body=body, material=MATERIAL).body == body


def test_a_sentence_resting_on_two_outlets_credits_both() -> None:
    searched = {"kind": "search", "title": "연합뉴스 | 전세사기 매입 예산", "text": SEARCHED, "url": "u"}
    material = [*MATERIAL[:1], {**MATERIAL[1], "text": "피해 주택 1200가구를 전환한다."}, searched]

    result = credit_outlets(body="국토부는 피해 주택 1200가구 매입에 3600억 원을 쓴다.", material=material)

    assert result.body.startswith("한국일보·연합뉴스 보도에 따르면 국토부는")


def test_a_sentence_that_cannot_take_the_prefix_is_flagged_not_rewritten() -> None:
    body = "- 매입 예산은 총 3600억 원 규모다."

    result = credit_outlets(body=body, material=MATERIAL)

    assert result.body == body and result.flagged == [body]


def test_without_any_article_the_body_is_untouched() -> None:
    body = "국토부는 다음 달부터 피해 주택 1200가구를 공공임대로 전환한다."

    assert credit_outlets(body=body, material=MATERIAL[:1]).body == body


def test_every_span_carries_its_kind_and_an_articles_outlet() -> None:
    body = "국토교통부는 설명회를 오는 15일 연다. 매입 예산은 총 3600억 원 규모다."
    rows = with_kinds(attribute(body=body, sources=[d["text"] for d in MATERIAL]), MATERIAL)

    spans = [span for row in rows for span in row["spans"]]
    assert spans and all(span["kind"] in ("press_release", "article") for span in spans)
    assert {(s["kind"], s.get("outlet")) for s in spans} == {("press_release", None), ("article", "한국일보")}


def test_a_search_result_saved_before_outlets_were_kept_names_its_outlet_from_its_title() -> None:
    assert source_outlet({"kind": "article", "title": "연합뉴스 | 서울시 청년 월세 확대"}) == "연합뉴스"
    assert source_outlet({"kind": "press_release", "title": "연합뉴스 | 제목"}) == ""

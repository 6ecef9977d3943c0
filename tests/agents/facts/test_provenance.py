"""Every sentence of an article points at the source spans it rests on, figures first."""

from __future__ import annotations

from agents.facts.provenance import attribute, segments
from tests.fixtures.press import BODY_WITH_HALLUCINATION, PRESS_RELEASE

NEWS = "다른 매체 기사 제목\n서울시는 예산 480억 원을 청년 월세에 쓴다고 3일 밝혔다."


def test_each_span_quotes_its_source_exactly_at_its_offsets() -> None:
    sources = [PRESS_RELEASE, NEWS]
    for row in attribute(body=BODY_WITH_HALLUCINATION, sources=sources):
        for span in row["spans"]:
            assert sources[span["source"]][span["start"] : span["end"]] == span["text"]


def test_a_sentence_with_figures_points_only_at_text_holding_its_figures() -> None:
    rows = attribute(body="시는 이를 위해 예산 480억 원을 편성했다.", sources=[PRESS_RELEASE])
    (span,) = rows[0]["spans"]
    assert "480억 원" in span["text"] and span["source"] == 0


def test_a_figure_found_only_in_the_second_source_points_there() -> None:
    rows = attribute(body="예산은 480억 원이다.", sources=["서울시 청년 월세 지원 확대 안내문입니다.", NEWS])
    assert [s["source"] for s in rows[0]["spans"]] == [1]


def test_a_sentence_without_figures_points_at_the_closest_wording() -> None:
    rows = attribute(body="선정 결과는 다음 달 중 개별 통보한다.", sources=[PRESS_RELEASE])
    assert "개별 통보한다" in rows[0]["spans"][0]["text"]


def test_an_invented_sentence_gets_no_span() -> None:
    rows = attribute(body=BODY_WITH_HALLUCINATION, sources=[PRESS_RELEASE])
    invented = [r for r in rows if "1,500억원" in r["text"]]
    assert invented and invented[0]["spans"] == []
    assert all(r["spans"] for r in rows if "1,500억원" not in r["text"])


def test_a_figure_that_appears_nowhere_is_never_pinned_to_a_loose_match() -> None:
    rows = attribute(body="서울시는 청년 월세 지원 대상을 3만 가구로 늘린다.", sources=[PRESS_RELEASE])
    assert rows[0]["spans"] == []


def test_segments_skip_bullets_and_keep_offsets() -> None:
    text = "제목 한 줄입니다\n  • 첫째 항목은 이렇습니다. 둘째 문장도 있습니다.\n"
    found = segments([text])
    assert [s.text for s in found] == ["제목 한 줄입니다", "첫째 항목은 이렇습니다.", "둘째 문장도 있습니다."]
    assert all(text[s.start : s.end] == s.text for s in found)

"""One event, one item: the grouping of search results before the model reads them."""

from __future__ import annotations

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from agents.monitoring.clustering import Result, group_results

KST = ZoneInfo("Asia/Seoul")
NOON = datetime(2026, 11, 24, 12, 0, tzinfo=KST)


def groups_of(*results: tuple[str, str, int]) -> list[list[str]]:
    """(title, lead, minutes after noon) → groups of titles, lead first."""
    items = [Result(title, lead, NOON + timedelta(minutes=minutes)) for title, lead, minutes in results]
    return [[r.title for r in g.members] for g in group_results(items, read=lambda r: r)]


def test_two_outlets_writing_up_one_release_are_one_item_led_by_the_earlier() -> None:
    groups = groups_of(
        ("청년 월세 20만원 지원 대상 2만가구로 늘린다…서울시", "서울시가 대상을 2만 가구로 확대한다.", 15),
        ("서울시, 청년 월세 지원 2만 가구로 확대", "서울시는 청년 월세 지원 대상을 2만 가구로 늘린다.", 2),
        ("국회 본회의, 예산 부수법안 처리 불발", "여야가 합의하지 못했다.", 5),
    )

    assert groups[0] == [
        "서울시, 청년 월세 지원 2만 가구로 확대",
        "청년 월세 20만원 지원 대상 2만가구로 늘린다…서울시",
    ]
    assert groups[1] == ["국회 본회의, 예산 부수법안 처리 불발"]


def test_an_exclusive_stays_its_own_item_even_on_the_same_subject() -> None:
    groups = groups_of(
        ("서울시, 청년 월세 지원 2만 가구로 확대", "", 0),
        ("[단독] 서울시, 청년 월세 지원 예산 절반 못 써", "", 5),
    )

    assert len(groups) == 2


def test_figures_agree_however_they_are_written() -> None:
    groups = groups_of(
        ("8월 취업자 증가폭 26.8만명", "통계청 고용동향 발표, 취업자 2867만 8000명", 0),
        ("지난달 취업자 26만 8000명 증가", "취업자 수가 2867만8000명으로 집계됐다. 통계청 발표", 30),
    )

    assert len(groups) == 1


def test_headlines_leading_with_different_figures_or_agencies_are_different_events() -> None:
    assert (
        len(groups_of(("식약처, 추석 성수식품 2400곳 점검", "", 0), ("식약처, 추석 식품 1200건 적발", "", 5)))
        == 2
    )
    assert (
        len(groups_of(("경찰, 전세사기 일당 구속영장 신청", "", 0), ("검찰, 전세사기 일당 기소", "", 5))) == 2
    )


def test_a_shared_template_in_the_leads_does_not_make_one_event() -> None:
    groups = groups_of(
        ("서울시, 지하철 요금 인상 확정", "서울시, 지하철 요금 인상 확정 관련 검색 요약 1", 0),
        ("서울시, 한강 수상택시 운항 중단", "서울시, 한강 수상택시 운항 중단 관련 검색 요약 2", 5),
    )

    assert len(groups) == 2


def test_the_same_words_days_apart_are_different_events() -> None:
    groups = groups_of(
        ("서울시, 내년 예산 48조원 편성", "", 0), ("서울시, 내년 예산 48조원 편성", "", 60 * 24 * 3)
    )

    assert len(groups) == 2

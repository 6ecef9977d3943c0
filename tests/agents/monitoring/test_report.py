"""The /report pipeline: department keywords, scenario A (first of the KST day) and B (update)."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

import pytest
import time_machine
from django.utils import timezone

from agents.models import MonitorItem, MonitorResult, ReportCache, ReportItem, Run
from agents.monitoring.common import WINDOW_OVERLAP
from agents.monitoring.departments import DEPARTMENT_PROFILES
from agents.sources import naver
from tests.agents.monitoring.world import (
    World,
    answer_filter,
    answer_report,
    naver_dns,
    prompt_of,
    run_report,
)
from tests.factories import ReporterFactory
from tests.fakes.anthropic import FakeAnthropic
from tests.fakes.naver import FakeNaver
from tests.fakes.pages import FakePages

pytestmark = pytest.mark.django_db
KST = ZoneInfo("Asia/Seoul")
SOCIETY = DEPARTMENT_PROFILES["사회부"]


@pytest.fixture
def world(fake_naver: FakeNaver, pages: FakePages, monkeypatch: pytest.MonkeyPatch) -> Iterator[World]:
    monkeypatch.setattr(naver, "_sleep", lambda seconds: None)  # 13 keywords: 4 batch pauses
    with naver_dns():
        yield World(fake_naver, pages)


def briefing(reporter: Any, day: date | None = None) -> list[ReportItem]:
    day = day or timezone.now().astimezone(KST).date()
    return list(
        ReportItem.objects.filter(cache__reporter=reporter, cache__day=day).order_by("position", "id")
    )


def test_the_first_briefing_of_the_day_searches_the_department_keywords_and_stores_the_selection(
    reporter: Any, world: World, fake_llm: FakeAnthropic
) -> None:
    a = world.article("검찰 기소", "검찰, 전 구청장 뇌물 혐의 기소", minutes_ago=30)
    b = world.article("재난 안전", "[포토] 폭우 피해 현장", minutes_ago=10)  # no title-tag filter for /report
    answer_filter(fake_llm)
    answer_report(fake_llm, [{"title": a.title, "exclusive": False}, {"title": b.title, "exclusive": False}])

    run = run_report(reporter)

    assert run.status == Run.Status.DONE, run.error
    assert set(world.naver.queries()) == set(SOCIETY.report_keywords)
    assert len(world.naver.requests) == len(SOCIETY.report_keywords)  # one page each, all short
    assert [i.title for i in briefing(reporter)] == [a.title, b.title]
    items = list(MonitorItem.objects.filter(run=run).order_by("position"))
    assert [(i.title, i.action) for i in items] == [(b.title, ""), (a.title, "")]  # newest first
    result = MonitorResult.objects.get(run=run)
    assert result.scenario == "A" and reporter.last_report_at == result.window_end
    assert "오늘의 첫 브리핑" in fake_llm.requests[1].system_text
    assert "<existing_items>" not in prompt_of(fake_llm.requests[1])
    assert run.events.last().message == "완료 · 주요 2건"


def test_an_update_modifies_the_named_item_with_the_new_article_and_adds_new_stories(
    reporter: Any, world: World, fake_llm: FakeAnthropic
) -> None:
    first = world.article("경찰 수사", "경찰, 마약 유통 조직 수사 착수", minutes_ago=50)
    other = world.article("법원 판결", "법원, 재개발 조합 소송 기각", minutes_ago=55)
    answer_filter(fake_llm)
    answer_report(fake_llm, [{"title": first.title}, {"title": other.title}])
    run_report(reporter)
    first_run_at = reporter.last_report_at
    follow = world.article("경찰 수사", "경찰, 마약 조직 총책 구속", minutes_ago=2)
    fresh = world.article("교육 정책", "교육부, 늘봄학교 전면 시행", minutes_ago=1)
    answer_filter(fake_llm)
    answer_report(
        fake_llm,
        [
            {"title": follow.title, "action": "modified", "item_id": 1, "summary": "총책이 구속됐다."},
            {"title": fresh.title, "action": "added", "item_id": 0},
        ],
    )

    run = run_report(reporter)

    result = MonitorResult.objects.get(run=run)
    assert result.scenario == "B" and result.window_start == first_run_at - WINDOW_OVERLAP
    existing = prompt_of(fake_llm.requests[-1]).split("<existing_items>")[1].split("</existing_items>")[0]
    assert f"항목1 | {first.title}" in existing and f"항목2 | {other.title}" in existing
    modified, kept, added = briefing(reporter)
    # The modified item now stands for the new article: its title, link and summary agree.
    assert (modified.title, modified.url, modified.summary) == (follow.title, follow.link, "총책이 구속됐다.")
    assert (kept.title, added.title) == (other.title, fresh.title)
    snapshot = [(i.title, i.action) for i in MonitorItem.objects.filter(run=run).order_by("position")]
    assert snapshot == [(fresh.title, "added"), (follow.title, "modified"), (other.title, "unchanged")]
    assert run.events.last().message == "완료 · 수정 1건, 추가 1건"


def test_an_item_id_outside_todays_briefing_is_treated_as_added_and_never_touches_another_reporter(
    reporter: Any, world: World, fake_llm: FakeAnthropic
) -> None:
    """v1 bug: the model's item_id was used as a DB id, overwriting any reporter's row."""
    someone = ReporterFactory(user__username="park")
    cache = ReportCache.objects.create(reporter=someone, day=timezone.now().astimezone(KST).date())
    theirs = ReportItem.objects.create(cache=cache, title="남의 브리핑", summary="건드리면 안 되는 요약")
    mine = world.article("경찰 수사", "경찰, 보이스피싱 조직 검거", minutes_ago=40)
    answer_filter(fake_llm)
    answer_report(fake_llm, [{"title": mine.title}])
    run_report(reporter)
    new = world.article("경찰 수사", "경찰, 보이스피싱 피해금 환수", minutes_ago=2)
    answer_filter(fake_llm)
    answer_report(fake_llm, [{"title": new.title, "action": "modified", "item_id": theirs.pk + 7}])

    run = run_report(reporter)

    theirs.refresh_from_db()
    assert theirs.summary == "건드리면 안 되는 요약"
    assert [i.title for i in briefing(reporter)] == [mine.title, new.title]
    actions = dict(MonitorItem.objects.filter(run=run).values_list("title", "action"))
    assert actions == {new.title: "added", mine.title: "unchanged"}


def test_two_modifications_of_one_item_keep_the_first_and_add_the_second(
    reporter: Any, world: World, fake_llm: FakeAnthropic
) -> None:
    base = world.article("경찰 수사", "경찰, 전세사기 일당 수사", minutes_ago=40)
    answer_filter(fake_llm)
    answer_report(fake_llm, [{"title": base.title}])
    run_report(reporter)
    one = world.article("경찰 수사", "경찰, 전세사기 일당 구속영장 신청", minutes_ago=3)
    two = world.article("검찰 기소", "검찰, 전세사기 일당 기소", minutes_ago=2)
    answer_filter(fake_llm)
    answer_report(
        fake_llm,
        [
            {"title": one.title, "action": "modified", "item_id": 1},
            {"title": two.title, "action": "modified", "item_id": 1},
        ],
    )

    run_report(reporter)

    assert [i.title for i in briefing(reporter)] == [one.title, two.title]


def test_todays_items_go_to_the_model_once_as_existing_items_and_earlier_days_as_history(
    reporter: Any, world: World, fake_llm: FakeAnthropic
) -> None:
    today = timezone.now().astimezone(KST).date()
    yesterday = ReportCache.objects.create(reporter=reporter, day=today - timedelta(days=1))
    ReportItem.objects.create(cache=yesterday, title="어제의 기사", summary="어제 요약")
    too_old = ReportCache.objects.create(reporter=reporter, day=today - timedelta(days=3))
    ReportItem.objects.create(cache=too_old, title="사흘 전 기사", summary="오래된 요약")
    todays = ReportCache.objects.create(reporter=reporter, day=today)
    ReportItem.objects.create(cache=todays, title="오늘의 기사", summary="오늘 요약")
    a = world.article("경찰 수사", "경찰, 새 사건 수사")
    answer_filter(fake_llm)
    answer_report(fake_llm, [])

    run = run_report(reporter)

    prompt = prompt_of(fake_llm.requests[-1])
    history = prompt.split("<briefing_history>")[1].split("</briefing_history>")[0]
    assert "어제의 기사" in history and "오늘의 기사" not in history and "사흘 전 기사" not in prompt
    assert "항목1 | 오늘의 기사" in prompt
    assert a.title in prompt
    assert run.events.last().message == "완료 · 수정 0건, 추가 0건"
    assert list(MonitorItem.objects.filter(run=run).values_list("action", flat=True)) == ["unchanged"]


def test_the_briefing_day_is_the_korean_day_even_before_9_am(
    reporter: Any, world: World, fake_llm: FakeAnthropic
) -> None:
    """Between 00:00 and 09:00 KST the UTC date is still yesterday."""
    morning = datetime(2026, 3, 3, 8, 0, tzinfo=KST)
    with time_machine.travel(morning, tick=True):
        a = world.article("경찰 수사", "경찰, 새벽 검거 작전", minutes_ago=30)
        answer_filter(fake_llm)
        answer_report(fake_llm, [{"title": a.title}])
        run = run_report(reporter)

    assert run.status == Run.Status.DONE, run.error
    assert ReportCache.objects.get(reporter=reporter).day == date(2026, 3, 3)


def test_a_first_briefing_with_nothing_found_leaves_the_next_one_a_first_briefing_too(
    reporter: Any, world: World, fake_llm: FakeAnthropic
) -> None:
    run = run_report(reporter)

    assert run.status == Run.Status.DONE and not fake_llm.requests
    assert run.events.last().message == "완료 · 새로 확인된 관련 뉴스 없음"
    a = world.article("경찰 수사", "경찰, 사건 수사", minutes_ago=1)
    answer_filter(fake_llm)
    answer_report(fake_llm, [{"title": a.title}])
    second = run_report(reporter)
    assert MonitorResult.objects.get(run=second).scenario == "A"


def test_an_unknown_department_is_refused(reporter: Any) -> None:
    from agents.monitoring.services import report_request
    from agents.services import InputError

    reporter.department = "연예부"
    reporter.save()

    with pytest.raises(InputError) as refused:
        report_request(reporter=reporter, channel="api")

    assert "연예부" in refused.value.user_message and not Run.objects.exists()


def test_a_failed_report_keeps_the_window_and_the_briefing(
    reporter: Any, world: World, fake_llm: FakeAnthropic
) -> None:
    world.article("경찰 수사", "경찰, 사건 수사")
    world.naver.fail(429)

    run = run_report(reporter)

    assert run.status == Run.Status.FAILED and "한도" in run.error
    assert reporter.last_report_at is None and not ReportCache.objects.exists()

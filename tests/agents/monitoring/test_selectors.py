"""The reads the web page and Telegram use: latest runs with their items split for display."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from agents.models import Run
from agents.monitoring import selectors
from newsdesk.telegram.formatters import check_messages
from tests.agents.monitoring.world import World, answer_analysis, answer_filter, naver_dns, run_check
from tests.factories import RunFactory
from tests.fakes.anthropic import FakeAnthropic
from tests.fakes.naver import FakeNaver
from tests.fakes.pages import FakePages

pytestmark = pytest.mark.django_db


@pytest.fixture
def world(fake_naver: FakeNaver, pages: FakePages) -> Iterator[World]:
    with naver_dns():
        yield World(fake_naver, pages)


def test_the_latest_check_comes_with_reported_items_and_skipped_ones_apart(
    reporter: Any, other_reporter: Any, world: World, fake_llm: FakeAnthropic
) -> None:
    hit = world.article("서울시", "서울시, 무상급식 확대 발표", minutes_ago=3)
    miss = world.article("경찰", "경찰 체육대회 개최", minutes_ago=4)
    answer_filter(fake_llm)
    answer_analysis(fake_llm, report={hit.title: "important"}, skip={miss.title: "s3"})
    run = run_check(reporter)

    latest = selectors.latest_check(reporter=reporter)

    assert latest is not None and latest.run == run
    assert [i.title for i in latest.items] == [hit.title] and [i.title for i in latest.skipped] == [
        miss.title
    ]
    assert latest.total == 2 and latest.department == "사회부"
    assert selectors.latest_check(reporter=other_reporter) is None
    assert selectors.latest_report(reporter=reporter) is None
    messages = check_messages(latest)
    assert len(messages) == 3 and hit.link in messages[1] and "스킵 1건" in messages[2]


def test_a_run_in_progress_is_the_latest_but_the_last_finished_one_is_still_there(
    reporter: Any, world: World, fake_llm: FakeAnthropic
) -> None:
    hit = world.article("서울시", "서울시, 무상급식 확대 발표", minutes_ago=3)
    answer_filter(fake_llm)
    answer_analysis(fake_llm, report={hit.title: "important"})
    done = run_check(reporter)
    queued = RunFactory(reporter=reporter, kind="check")

    latest = selectors.latest_check(reporter=reporter)
    finished = selectors.latest_finished(reporter=reporter, kind="check")

    assert latest is not None and latest.run == queued and latest.result is None and latest.items == []
    assert finished is not None and finished.run == done and finished.items
    assert selectors.run_get(reporter=reporter, run_id=done.pk) == done


def test_clearing_the_check_history_forgets_items_and_seen_articles_but_keeps_runs_and_briefings(
    reporter: Any, world: World, fake_llm: FakeAnthropic
) -> None:
    from agents.models import MonitorItem, MonitorResult, ReportCache
    from agents.monitoring.services import history_clear

    hit = world.article("서울시", "서울시, 무상급식 확대 발표", minutes_ago=3)
    answer_filter(fake_llm)
    answer_analysis(fake_llm, report={hit.title: "important"})
    run = run_check(reporter)
    ReportCache.objects.create(reporter=reporter, day=run.created_at.date())

    history_clear(reporter=reporter)

    assert not MonitorItem.objects.exists() and not MonitorResult.objects.exists()
    assert Run.objects.filter(pk=run.pk).exists() and ReportCache.objects.exists()
    history_clear(reporter=reporter, kinds=["check", "report"])
    assert not ReportCache.objects.exists()

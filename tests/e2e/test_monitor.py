"""The monitoring page in a real browser: "지금 체크" → live stages → results in place, then a
schedule added and removed — against fake Naver, fake article pages, the scripted model and a
real Celery worker in a thread."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from agents.models import Run
from agents.monitoring import schedules
from tests.agents.monitoring.world import NAVER_HOST, World, answer_analysis, answer_filter
from tests.e2e.test_desk import Watch, log_in
from tests.fakes.anthropic import FakeAnthropic
from tests.fakes.naver import FakeNaver
from tests.fakes.pages import FakePages, fake_dns

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.xdist_group("e2e"),
    pytest.mark.django_db(transaction=True),  # the root conftest re-seeds after the flush
]
STEP_DELAY = 1.5  # each scripted model call takes this long, so its stage is on screen for a poll


@pytest.fixture
def world(fake_naver: FakeNaver, pages: FakePages) -> Iterator[World]:
    # The worker thread scrapes the Naver pages from loopback; only these names resolve.
    with fake_dns({NAVER_HOST: "127.0.0.1", "localhost": "127.0.0.1"}):
        yield World(fake_naver, pages)


def test_a_check_started_in_the_browser_shows_its_progress_then_its_results_and_a_schedule_is_added(
    page: Page,
    live_server: Any,
    worker_thread: Any,
    world: World,
    fake_llm: FakeAnthropic,
    reporter: Any,
    screenshots: Path | None,
) -> None:
    origin = live_server.url
    watch = Watch(page, origin)
    scoop = world.article("서울시", "[단독] 서울시, 공무원 뇌물 수사 착수", minutes_ago=8)
    dull = world.article("경찰", "경찰 체육대회 개최", minutes_ago=25)
    answer_filter(fake_llm)
    fake_llm.steps[-1].delay = STEP_DELAY
    answer_analysis(fake_llm, report={scoop.title: "exclusive"}, skip={dull.title: "s3: 단순 행사"})
    fake_llm.steps[-1].delay = STEP_DELAY

    log_in(page, origin)
    page.click("nav a:has-text('모니터링')")
    expect(page).to_have_url(origin + "/desk/monitor/")  # swapped in by htmx, URL pushed
    expect(page.locator(".monitor-profile")).to_contain_text("서울시, 경찰")
    page.click("button:has-text('지금 체크')")

    region = page.locator("#monitor-check")
    expect(region).to_have_attribute("hx-trigger", "load delay:100ms, every 12s")  # a long poll
    expect(region.locator(".stage-current")).to_have_attribute("data-stage", "filter", timeout=5000)
    expect(region.locator(".stage-current")).to_have_attribute("data-stage", "analyze", timeout=5000)
    expect(region.locator(".monitor-item")).to_have_count(1, timeout=15_000)
    item = region.locator(".monitor-item")
    expect(item.locator(".tag")).to_have_text("[단독]")
    expect(item.locator("a.item-title")).to_have_text("서울시, 공무원 뇌물 수사 착수")
    expect(item.locator("a.item-title")).to_have_attribute("href", scoop.link)
    expect(item.locator("time")).to_have_text(re.compile(r"^\d{2}:\d{2}$"))
    expect(region.locator(".monitor-summary")).to_contain_text("주요 1건 / 전체 2건")
    expect(region.locator("details.monitor-collapsed summary")).to_have_text("스킵 1건")
    expect(region.locator("details.monitor-collapsed li")).to_be_hidden()  # collapsed until opened
    expect(region).not_to_have_attribute("hx-trigger", re.compile(".+"))  # polling has stopped
    run = Run.objects.get()
    assert (run.kind, run.channel, run.status) == ("check", "web", "done")

    page.select_option("#id_schedule_command", "check")
    page.fill("#id_schedule_time", "7:30")
    page.click("button:has-text('예약 추가')")
    entry = page.locator("#monitor-schedules li[data-command=check][data-time='07:30']")
    expect(entry).to_be_visible()
    expect(page.locator(".schedule-result")).to_have_text("자동 타사 체크 07:30 예약을 추가했습니다.")
    assert schedules.schedule_list(reporter=reporter)["check"] == ["07:30"]
    if screenshots:
        # caret="initial": hiding the caret of the focused time field injects a style the CSP refuses.
        page.screenshot(path=str(screenshots / "desk-monitor.png"), full_page=True, caret="initial")

    entry.locator("button").click()
    expect(entry).to_have_count(0)
    assert schedules.schedule_list(reporter=reporter)["check"] == []
    watch.assert_clean()

"""Check and report history lives 5 days: hidden by every read at once, deleted by the hourly purge."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

import pytest
import time_machine

from agents import tasks
from agents.models import JobLock, MonitorItem, ReportCache, ReportItem, Run
from agents.monitoring import selectors
from agents.retention import purge_all
from tests.factories import MonitorItemFactory, MonitorResultFactory, RunFactory

pytestmark = pytest.mark.django_db
KST = ZoneInfo("Asia/Seoul")
START = datetime(2026, 3, 2, 9, 0, tzinfo=KST)
FIVE_DAYS = timedelta(days=5)


def finished_check(reporter: Any) -> Run:
    run = RunFactory(reporter=reporter, kind="check", status="done")
    MonitorResultFactory(run=run, window_start=START - timedelta(hours=3), window_end=START)
    MonitorItemFactory(run=run, category="important", title="기사")
    cache = ReportCache.objects.create(reporter=reporter, day=START.date())
    ReportItem.objects.create(cache=cache, title="브리핑", summary="요약")
    return run


def test_history_is_visible_until_five_days_and_hidden_right_after_even_before_any_purge(
    reporter: Any,
) -> None:
    with time_machine.travel(START, tick=False) as clock:
        run = finished_check(reporter)

        clock.move_to(START + FIVE_DAYS - timedelta(seconds=1))
        assert [i.title for i in selectors.run_items(run=run)] == ["기사"]
        assert selectors.latest_check(reporter=reporter).items

        clock.move_to(START + FIVE_DAYS + timedelta(seconds=1))
        assert not selectors.run_items(run=run).exists()
        assert selectors.latest_check(reporter=reporter) is None
        assert MonitorItem.objects.exists()  # not purged yet: only hidden


def test_the_hourly_purge_deletes_expired_history_keeps_the_runs_and_is_idempotent(
    reporter: Any, other_reporter: Any
) -> None:
    with time_machine.travel(START, tick=False) as clock:
        old = finished_check(reporter)
        clock.move_to(START + timedelta(days=3))
        recent = finished_check(other_reporter)
        JobLock.objects.create(reporter=reporter, acquired_at=START, expires_at=START + timedelta(minutes=6))

        clock.move_to(START + FIVE_DAYS + timedelta(seconds=1))
        first = tasks.purge_expired.apply().get()
        second = purge_all()

    assert first["monitor_items"] == 1 and first["monitor_results"] == 1
    assert first["report_caches"] == 1 and first["report_items"] == 1 and first["job_locks"] == 1
    assert all(count == 0 for key, count in second.items() if key != "upload_bytes")
    assert Run.objects.filter(pk=old.pk).exists()  # the run (and its LLM cost record) stays
    assert list(MonitorItem.objects.values_list("run_id", flat=True)) == [recent.pk]
    assert ReportCache.objects.get().reporter_id == other_reporter.pk

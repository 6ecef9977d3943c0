"""Daily KST schedules as django-celery-beat rows, and the /schedule command text."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django_celery_beat.models import PeriodicTask

from agents import tasks
from agents.models import Run
from agents.monitoring.schedules import (
    MAX_TIMES,
    schedule_add,
    schedule_command,
    schedule_list,
    schedule_off,
    schedule_remove,
    schedule_set,
)

pytestmark = pytest.mark.django_db


def test_setting_times_creates_one_daily_kst_task_per_time_calling_monitor_scheduled(reporter: Any) -> None:
    result = schedule_set(reporter=reporter, command="check", times=["09:00", "13:30"])

    assert result.ok and result.changed and "09:00, 13:30" in result.message
    assert schedule_list(reporter=reporter) == {"check": ["09:00", "13:30"], "report": []}
    task = PeriodicTask.objects.get(name=f"monitor:{reporter.pk}:check:13:30")
    assert task.task == "agents.tasks.monitor_scheduled" and task.enabled
    assert json.loads(task.kwargs) == {"reporter_id": reporter.pk, "command": "check"}
    crontab = task.crontab
    assert (crontab.minute, crontab.hour, crontab.day_of_week) == ("30", "13", "*")
    assert str(crontab.timezone) == "Asia/Seoul"


def test_setting_a_command_replaces_its_times_and_leaves_the_other_command_alone(reporter: Any) -> None:
    schedule_set(reporter=reporter, command="check", times=["09:00", "12:00"])
    schedule_set(reporter=reporter, command="report", times=["08:30"])

    schedule_set(reporter=reporter, command="check", times=["18:00"])

    assert schedule_list(reporter=reporter) == {"check": ["18:00"], "report": ["08:30"]}
    assert PeriodicTask.objects.filter(task="agents.tasks.monitor_scheduled").count() == 2


def test_a_time_given_twice_is_registered_once_with_a_note_not_a_crash(reporter: Any) -> None:
    result = schedule_set(reporter=reporter, command="check", times=["09:00", "9:00", "12:00"])

    assert result.ok and "09:00" in result.message and "한 번만" in result.message
    assert schedule_list(reporter=reporter)["check"] == ["09:00", "12:00"]


def test_adding_an_existing_time_or_removing_a_missing_one_changes_nothing_and_says_so(reporter: Any) -> None:
    schedule_add(reporter=reporter, command="report", time="08:30")

    again = schedule_add(reporter=reporter, command="report", time="8:30")
    missing = schedule_remove(reporter=reporter, command="report", time="10:00")
    removed = schedule_remove(reporter=reporter, command="report", time="08:30")

    assert again.ok and not again.changed and "이미" in again.message
    assert missing.ok and not missing.changed and "없습니다" in missing.message
    assert removed.changed and schedule_list(reporter=reporter)["report"] == []


@pytest.mark.parametrize("bad", ["24:00", "12:60", "9시", "1200", "09:00:00", "-1:00", "09:5"])
def test_invalid_times_are_refused_and_nothing_changes(reporter: Any, bad: str) -> None:
    schedule_set(reporter=reporter, command="check", times=["07:00"])

    result = schedule_set(reporter=reporter, command="check", times=["10:00", bad])

    assert not result.ok and "시:분" in result.message and bad in result.message
    assert schedule_list(reporter=reporter)["check"] == ["07:00"]


def test_at_most_30_times_per_command(reporter: Any) -> None:
    times = [f"{h:02d}:{m:02d}" for h in range(10) for m in (0, 20, 40)]  # 30 times
    assert schedule_set(reporter=reporter, command="check", times=times).ok

    over = schedule_set(reporter=reporter, command="check", times=[*times, "23:59"])
    one_more = schedule_add(reporter=reporter, command="check", time="23:59")

    assert not over.ok and "30개" in over.message and not one_more.ok
    assert len(schedule_list(reporter=reporter)["check"]) == MAX_TIMES
    assert schedule_add(reporter=reporter, command="report", time="23:59").ok  # the cap is per command


def test_off_clears_every_schedule_of_the_reporter_only(reporter: Any, other_reporter: Any) -> None:
    schedule_set(reporter=reporter, command="check", times=["09:00"])
    schedule_set(reporter=reporter, command="report", times=["10:00"])
    schedule_set(reporter=other_reporter, command="check", times=["09:00"])

    result = schedule_off(reporter=reporter)

    assert result.changed and "모든" in result.message
    assert schedule_list(reporter=reporter) == {"check": [], "report": []}
    assert schedule_list(reporter=other_reporter)["check"] == ["09:00"]
    assert not schedule_off(reporter=reporter).changed


@pytest.mark.parametrize(
    ("text", "expected", "words"),
    [
        ("check 09:00 12:00", {"check": ["09:00", "12:00"], "report": ["08:00"]}, "매일 09:00, 12:00"),
        ("report 7:30, 17:00", {"check": ["06:00"], "report": ["07:30", "17:00"]}, "브리핑"),
        ("check off", {"check": [], "report": ["08:00"]}, "타사 체크 예약을 모두"),
        ("off", {"check": [], "report": []}, "모든 자동 실행"),
        ("체크 10:00", {"check": ["10:00"], "report": ["08:00"]}, "10:00"),
        ("weather 09:00", {"check": ["06:00"], "report": ["08:00"]}, "check 또는 report"),
        ("check", {"check": ["06:00"], "report": ["08:00"]}, "시각을 적어"),
        ("check 25:00", {"check": ["06:00"], "report": ["08:00"]}, "25:00"),
    ],
)
def test_the_schedule_command_text_is_parsed_into_a_korean_reply(
    reporter: Any, text: str, expected: dict[str, list[str]], words: str
) -> None:
    schedule_set(reporter=reporter, command="check", times=["06:00"])
    schedule_set(reporter=reporter, command="report", times=["08:00"])

    reply = schedule_command(reporter=reporter, text=text)

    assert words in reply
    assert schedule_list(reporter=reporter) == expected


def test_the_schedule_command_without_arguments_shows_the_current_times_and_the_format(reporter: Any) -> None:
    schedule_set(reporter=reporter, command="report", times=["08:30"])

    reply = schedule_command(reporter=reporter, text="  ")

    assert "report: 08:30" in reply and "check: (없음)" in reply and "check 09:00 12:00" in reply


def test_a_schedule_firing_queues_a_scheduled_run_through_the_same_task(
    reporter: Any, django_capture_on_commit_callbacks: Any
) -> None:
    with django_capture_on_commit_callbacks() as sent:
        tasks.monitor_scheduled.apply(kwargs={"reporter_id": reporter.pk, "command": "report"})

    run = Run.objects.get()
    assert (run.kind, run.channel, run.status) == ("report", "schedule", "queued")
    assert len(sent) == 1


def test_a_schedule_of_a_deleted_reporter_removes_itself(reporter: Any) -> None:
    schedule_set(reporter=reporter, command="check", times=["09:00"])
    reporter_id = reporter.pk
    reporter.delete()

    tasks.monitor_scheduled.apply(kwargs={"reporter_id": reporter_id, "command": "check"})

    assert not Run.objects.exists()
    assert not PeriodicTask.objects.filter(task="agents.tasks.monitor_scheduled").exists()

"""Daily automatic /check and /report runs, stored as django-celery-beat rows.

Each schedule is one `PeriodicTask` (task `agents.tasks.monitor_scheduled`, kwargs
{"reporter_id", "command"}) on a daily `CrontabSchedule` in Asia/Seoul, named
`monitor:<reporter_id>:<command>:<HH:MM>`. The periodic task rows are the only record, so there
is nothing to keep in sync (v1's table and in-memory JobQueue diverged after a failed save)
and nothing to restore at start-up: beat reads the database.

Rules: commands `check` and `report`; up to 30 times per command; times in KST. Replacing a
command's times is all or nothing, in one transaction.
- `9:00` is accepted and stored as 09:00 (v1 refused it; a reporter typing 9:00 means 09:00
  and a refusal only costs a retry). Hours 0-23, minutes 0-59, nothing else.
- a time listed twice in one input is registered once, with a note (v1 crashed on it);
- adding a time that exists, or removing one that does not, changes nothing and says so.
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from django.db import IntegrityError, transaction
from django_celery_beat.models import CrontabSchedule, PeriodicTask

from agents import messages as msg
from agents.errors import UserFacingError
from agents.reporters import ReporterLike

log = logging.getLogger(__name__)

COMMANDS = ("check", "report")
ALIASES = {"check": "check", "체크": "check", "타사체크": "check", "report": "report", "브리핑": "report"}
OFF_WORDS = frozenset({"off", "끄기", "해제"})
MAX_TIMES = 30  # per command, as v1 allowed
TASK = "agents.tasks.monitor_scheduled"
TIMEZONE = "Asia/Seoul"
_TIME = re.compile(r"^(\d{1,2}):(\d{2})$")
_SEPARATORS = re.compile(r"[\s,]+")


class ScheduleInputError(UserFacingError):
    code = "schedule"


@dataclass(frozen=True)
class ScheduleResult:
    """The outcome of a schedule change: `message` is the Korean reply for the reporter."""

    ok: bool
    changed: bool
    message: str
    schedules: dict[str, list[str]] = field(default_factory=dict)


# --- reads ----------------------------------------------------------------------------------
def schedule_list(*, reporter: ReporterLike) -> dict[str, list[str]]:
    """{"check": ["09:00", …], "report": […]}: the reporter's daily KST times, sorted."""
    found: dict[str, list[str]] = {command: [] for command in COMMANDS}
    for name in _tasks_of(reporter.pk).values_list("name", flat=True):
        _, _, command, time = name.split(":", 3)
        if command in found:
            found[command].append(time)
    return {command: sorted(times) for command, times in found.items()}


def schedule_text(*, reporter: ReporterLike) -> str:
    """The current schedules as Korean text (for /schedule without arguments and /status)."""
    current = schedule_list(reporter=reporter)
    return msg.SCHEDULE_CURRENT.format(
        check=", ".join(current["check"]) or msg.SCHEDULE_NONE,
        report=", ".join(current["report"]) or msg.SCHEDULE_NONE,
    )


# --- changes --------------------------------------------------------------------------------
def schedule_set(*, reporter: ReporterLike, command: str, times: Sequence[str]) -> ScheduleResult:
    """Replaces every time of `command` with `times` (v1's `check 09:00 12:00`)."""
    try:
        command = parse_command(command)
        wanted, repeated = _parse_times(command, times)
    except ScheduleInputError as exc:
        return _refused(reporter, exc.user_message)
    try:
        with transaction.atomic():
            _tasks_of(reporter.pk, command).delete()
            for time in wanted:
                _create(reporter.pk, command, time)
    except IntegrityError:
        log.warning("schedule_set conflict for reporter %s", reporter.pk)
        return _refused(reporter, msg.SCHEDULE_CONFLICT)
    message = msg.SCHEDULE_SET.format(name=_name(command), times=", ".join(wanted))
    if repeated:
        message += "\n" + msg.SCHEDULE_DUPLICATES_IGNORED.format(times=", ".join(repeated))
    if command == "check" and not (reporter.keywords or []):
        message += "\n" + msg.SCHEDULE_NEEDS_KEYWORDS
    return ScheduleResult(True, True, message, schedule_list(reporter=reporter))


def schedule_add(*, reporter: ReporterLike, command: str, time: str) -> ScheduleResult:
    """Adds one daily time; an existing time is a no-op with a message."""
    try:
        command = parse_command(command)
        normalized = parse_time(time)
    except ScheduleInputError as exc:
        return _refused(reporter, exc.user_message)
    current = schedule_list(reporter=reporter)[command]
    name = _name(command)
    if normalized in current:
        message = msg.SCHEDULE_ALREADY.format(time=normalized, name=name)
        return ScheduleResult(True, False, message, schedule_list(reporter=reporter))
    if len(current) >= MAX_TIMES:
        return _refused(reporter, msg.SCHEDULE_TOO_MANY.format(name=name, limit=MAX_TIMES))
    try:
        with transaction.atomic():
            _create(reporter.pk, command, normalized)
    except IntegrityError:  # a concurrent add of the same time won: the result is the same
        message = msg.SCHEDULE_ALREADY.format(time=normalized, name=name)
        return ScheduleResult(True, False, message, schedule_list(reporter=reporter))
    message = msg.SCHEDULE_ADDED.format(name=name, time=normalized)
    return ScheduleResult(True, True, message, schedule_list(reporter=reporter))


def schedule_remove(*, reporter: ReporterLike, command: str, time: str) -> ScheduleResult:
    """Removes one daily time; an unknown time is a no-op with a message."""
    try:
        command = parse_command(command)
        normalized = parse_time(time)
    except ScheduleInputError as exc:
        return _refused(reporter, exc.user_message)
    deleted, _ = PeriodicTask.objects.filter(name=_task_name(reporter.pk, command, normalized)).delete()
    template = msg.SCHEDULE_REMOVED if deleted else msg.SCHEDULE_NOT_FOUND
    message = template.format(name=_name(command), time=normalized)
    return ScheduleResult(True, bool(deleted), message, schedule_list(reporter=reporter))


def schedule_off(*, reporter: ReporterLike, command: str | None = None) -> ScheduleResult:
    """Removes every schedule of the reporter, or only those of `command`."""
    try:
        chosen = parse_command(command) if command else None
    except ScheduleInputError as exc:
        return _refused(reporter, exc.user_message)
    deleted = schedule_delete_all(reporter_id=reporter.pk, command=chosen)
    if not deleted:
        message = msg.SCHEDULE_NOTHING_TO_CLEAR
    elif chosen:
        message = msg.SCHEDULE_COMMAND_OFF.format(name=_name(chosen))
    else:
        message = msg.SCHEDULE_ALL_OFF
    return ScheduleResult(True, bool(deleted), message, schedule_list(reporter=reporter))


def schedule_delete_all(*, reporter_id: int, command: str | None = None) -> int:
    """Deletes the periodic tasks (all, or one command's) of a reporter id; returns how many."""
    deleted, _ = _tasks_of(reporter_id, command).delete()
    return int(deleted)


def schedule_command(*, reporter: ReporterLike, text: str) -> str:
    """The `/schedule` command: the raw text after it in, the Korean reply out.

    ""  → current schedules and the input format;  "off" → everything off;
    "check off" → that command off;  "check 09:00 12:00" → replace check's times.
    """
    words = [w for w in _SEPARATORS.split(text.strip()) if w]
    if not words:
        return schedule_text(reporter=reporter) + "\n\n" + msg.SCHEDULE_USAGE.format(limit=MAX_TIMES)
    head = words[0].lower()
    if head in OFF_WORDS and len(words) == 1:
        return schedule_off(reporter=reporter).message
    if head not in ALIASES:
        return msg.SCHEDULE_BAD_COMMAND + "\n\n" + msg.SCHEDULE_USAGE.format(limit=MAX_TIMES)
    if len(words) == 2 and words[1].lower() in OFF_WORDS:
        return schedule_off(reporter=reporter, command=head).message
    return schedule_set(reporter=reporter, command=head, times=words[1:]).message


# --- parsing --------------------------------------------------------------------------------
def parse_command(raw: str) -> str:
    command = ALIASES.get(raw.strip().lower())
    if command is None:
        raise ScheduleInputError(msg.SCHEDULE_BAD_COMMAND)
    return command


def parse_time(raw: str) -> str:
    """ "9:00" or "09:00" → "09:00"; anything else raises ScheduleInputError."""
    value = raw.strip()
    match = _TIME.match(value)
    if not match:
        raise ScheduleInputError(msg.SCHEDULE_BAD_TIME.format(value=value))
    hour, minute = int(match.group(1)), int(match.group(2))
    if hour > 23 or minute > 59:
        raise ScheduleInputError(msg.SCHEDULE_BAD_TIME.format(value=value))
    return f"{hour:02d}:{minute:02d}"


def _parse_times(command: str, raw_times: Sequence[str]) -> tuple[list[str], list[str]]:
    """Unique normalised times in input order, and the ones given more than once."""
    raw = [t for t in raw_times if t.strip()]
    if not raw:
        raise ScheduleInputError(msg.SCHEDULE_NO_TIMES.format(command=command))
    parsed = [parse_time(t) for t in raw]
    unique = list(dict.fromkeys(parsed))
    if len(unique) > MAX_TIMES:
        raise ScheduleInputError(msg.SCHEDULE_TOO_MANY.format(name=_name(command), limit=MAX_TIMES))
    repeated = sorted({t for t in parsed if parsed.count(t) > 1})
    return sorted(unique), repeated


# --- rows -----------------------------------------------------------------------------------
def _task_name(reporter_id: int, command: str, time: str) -> str:
    return f"monitor:{reporter_id}:{command}:{time}"


def _tasks_of(reporter_id: int, command: str | None = None) -> Any:
    prefix = f"monitor:{reporter_id}:" + (f"{command}:" if command else "")
    return PeriodicTask.objects.filter(name__startswith=prefix, task=TASK)


def _create(reporter_id: int, command: str, time: str) -> PeriodicTask:
    hour, minute = (int(part) for part in time.split(":"))
    crontab, _ = CrontabSchedule.objects.get_or_create(
        minute=str(minute),
        hour=str(hour),
        day_of_week="*",
        day_of_month="*",
        month_of_year="*",
        timezone=TIMEZONE,
    )
    return PeriodicTask.objects.create(
        name=_task_name(reporter_id, command, time),
        task=TASK,
        crontab=crontab,
        kwargs=json.dumps({"reporter_id": reporter_id, "command": command}),
        description=msg.SCHEDULE_TASK_DESCRIPTION.format(
            reporter_id=reporter_id, name=_name(command), time=time
        ),
    )


def _name(command: str) -> str:
    return msg.SCHEDULE_COMMAND_NAMES[command]


def _refused(reporter: ReporterLike, message: str) -> ScheduleResult:
    return ScheduleResult(False, False, message, schedule_list(reporter=reporter))

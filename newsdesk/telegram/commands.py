"""The /commands (v1 parity). Code decides these: no model call is ever made for a command."""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.db.models import Count
from django.utils import timezone

from agents import selectors as agent_selectors
from agents.models import Run
from agents.monitoring import services as monitoring
from agents.services import InputError
from newsdesk.choices import Choices, reporter_choices
from newsdesk.models import Reporter
from newsdesk.telegram import preferences, profile, replies
from newsdesk.telegram.incoming import Incoming
from newsdesk.telegram.progress import announce
from newsdesk.telegram.sender import say

Step = Reporter.RegistrationStep
Handler = Callable[[Incoming, Reporter], object]  # check/report also return the run they queued


def run_command(incoming: Incoming, reporter: Reporter) -> None:
    COMMANDS.get(incoming.command, _unknown)(incoming, reporter)


def _help(incoming: Incoming, reporter: Reporter) -> None:
    say(chat_id=incoming.chat_id, text=replies.HELP, reporter=reporter)


def _unknown(incoming: Incoming, reporter: Reporter) -> None:
    say(chat_id=incoming.chat_id, text=replies.HELP, reporter=reporter)


def _status(incoming: Incoming, reporter: Reporter) -> None:
    times = monitoring.schedule_list(reporter=reporter)
    choices = reporter_choices(reporter=reporter)
    key = reporter.masked_key or replies.KEY_NOT_SET
    if reporter.anthropic_key_status == Reporter.KeyStatus.REFUSED:
        key += replies.KEY_REFUSED_NOTE
    text = replies.STATUS.format(
        department=reporter.department,
        keywords=", ".join(reporter.keywords) or replies.NONE,
        key=key,
        check=", ".join(times.get("check", [])) or replies.NONE,
        report=", ".join(times.get("report", [])) or replies.NONE,
        style=choices.style_label,
    )
    say(chat_id=incoming.chat_id, text=text + "\n" + spend_text(reporter, choices), reporter=reporter)


def spend_text(reporter: Reporter, choices: Choices | None = None) -> str:
    """What the reporter's own key has paid, today and this month (KST), and the model it pays for."""
    choices = choices or reporter_choices(reporter=reporter)
    today, month = agent_selectors.spend_today_and_month(reporter_id=reporter.pk)
    return replies.STATUS_SPEND.format(
        today=today.cost_usd,
        today_calls=today.llm_calls,
        month=month.cost_usd,
        month_calls=month.llm_calls,
        model=preferences.model_text(choices),
    )


def _set_keyword(incoming: Incoming, reporter: Reporter) -> None:
    if incoming.args:
        profile.change_keywords(incoming, reporter, incoming.args)
        return
    profile.set_step(reporter, Step.AWAIT_KEYWORDS)
    current = ", ".join(reporter.keywords) or replies.NONE
    say(chat_id=incoming.chat_id, text=replies.ASK_NEW_KEYWORDS.format(keywords=current), reporter=reporter)


def _set_division(incoming: Incoming, reporter: Reporter) -> None:
    if incoming.args:
        profile.change_division(incoming, reporter, incoming.args)
        return
    profile.set_step(reporter, Step.AWAIT_DIVISION)
    text = replies.ASK_NEW_DIVISION.format(department=reporter.department)
    profile.ask_with_buttons(chat_id=incoming.chat_id, text=text, prefix="div", reporter=reporter)


def _set_apikey(incoming: Incoming, reporter: Reporter) -> None:
    if incoming.args:
        profile.change_key(incoming, reporter, incoming.args)
        return
    profile.set_step(reporter, Step.AWAIT_APIKEY)
    key = reporter.masked_key or replies.KEY_NOT_SET
    say(chat_id=incoming.chat_id, text=replies.ASK_NEW_KEY.format(key=key), reporter=reporter)


def _schedule(incoming: Incoming, reporter: Reporter) -> None:
    if incoming.args:
        say(
            chat_id=incoming.chat_id,
            text=monitoring.schedule_command(reporter=reporter, text=incoming.args),
            reporter=reporter,
        )
        return
    profile.set_step(reporter, Step.AWAIT_SCHEDULE)
    text = replies.ASK_SCHEDULE.format(current=monitoring.schedule_text(reporter=reporter))
    say(chat_id=incoming.chat_id, text=text, reporter=reporter)


def start_check(incoming: Incoming, reporter: Reporter) -> Run | None:
    try:
        run = monitoring.check_request(reporter=reporter, channel="telegram")
    except InputError as exc:
        say(chat_id=incoming.chat_id, text=_busy_or(exc), reporter=reporter)
        return None
    announce(run=run, chat_id=incoming.chat_id, text=replies.CHECK_ACCEPTED)
    return run


def start_report(incoming: Incoming, reporter: Reporter) -> Run | None:
    try:
        run = monitoring.report_request(reporter=reporter, channel="telegram")
    except InputError as exc:
        say(chat_id=incoming.chat_id, text=_busy_or(exc), reporter=reporter)
        return None
    announce(
        run=run, chat_id=incoming.chat_id, text=replies.REPORT_ACCEPTED.format(department=reporter.department)
    )
    return run


def _busy_or(exc: InputError) -> str:
    return replies.BUSY if isinstance(exc, monitoring.JobAlreadyRunning) else exc.user_message


def _cancel(incoming: Incoming, reporter: Reporter) -> None:
    text = replies.CANCELLED if reporter.registration_step else replies.NOTHING_TO_CANCEL
    if reporter.registration_step in profile.REGISTRATION:
        text = replies.CANCELLED + "\n" + replies.REGISTER_FIRST
    profile.set_step(reporter, Step.DONE)
    say(chat_id=incoming.chat_id, text=text, reporter=reporter)


def _stats(incoming: Incoming, reporter: Reporter) -> None:
    if incoming.user_id not in settings.NEWSDESK_ADMIN_TELEGRAM_IDS:
        return  # v1 answers nothing to non-admins: the command does not exist for them
    say(chat_id=incoming.chat_id, text=stats_text(), reporter=reporter)


def stats_text() -> str:
    """The admin summary as v1 gave it: schedules counted per reporter and per command, times in
    KST (the server's time zone)."""
    reporters = list(
        Reporter.objects.exclude(registration_step__in=profile.REGISTRATION).order_by("created_at")
    )
    by_department = (
        Reporter.objects.filter(pk__in=[r.pk for r in reporters])
        .values("department")
        .annotate(n=Count("id"))
        .order_by("-n")
    )
    schedules = {r.pk: monitoring.schedule_list(reporter=r) for r in reporters}
    per_command = {
        command: sum(len(s[command]) for s in schedules.values()) for command in ("check", "report")
    }
    scheduled = replies.STATS_SCHEDULED.format(count=sum(1 for s in schedules.values() if any(s.values())))
    if any(per_command.values()):
        scheduled += "\n" + replies.STATS_PER_COMMAND.format(**per_command)
    return replies.STATS.format(
        total=len(reporters),
        departments="\n".join(f"{row['department']}: {row['n']}명" for row in by_department) or replies.NONE,
        scheduled=scheduled,
        users="\n".join(_stats_line(r, schedules[r.pk]) for r in reporters) or replies.NONE,
    )


def _stats_line(reporter: Reporter, schedule: dict[str, list[str]]) -> str:
    line = f"{reporter.department} | {', '.join(reporter.keywords)}"
    if count := sum(len(times) for times in schedule.values()):
        line += f" | 스케줄 {count}건"
    if reporter.last_check_at:
        line += f" | 최근 check: {timezone.localtime(reporter.last_check_at):%Y-%m-%d %H:%M}"
    return line


COMMANDS: dict[str, Handler] = {
    "help": _help,
    "status": _status,
    "set_keyword": _set_keyword,
    "set_division": _set_division,
    "set_apikey": _set_apikey,
    "set_style": preferences.set_style,
    "set_model": preferences.set_model,
    "schedule": _schedule,
    "set_schedule": _schedule,
    "check": start_check,
    "report": start_report,
    "cancel": _cancel,
    "stats": _stats,
}

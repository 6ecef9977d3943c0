"""Registration (/start: department → keywords → API key) and the settings that wait for an answer.

The step a reporter is in lives in Reporter.registration_step, in the database, so a restart or a
different worker process picks the conversation up where it was.
"""

from __future__ import annotations

import contextlib
from typing import Any

from django.db import transaction

from agents.monitoring import services as monitoring
from conversations.models import Message
from conversations.services import message_log
from newsdesk.models import Reporter
from newsdesk.services import ProfileError, clean_api_key, parse_keywords, reporter_update
from newsdesk.telegram import callbacks, client, once, replies
from newsdesk.telegram.incoming import Incoming
from newsdesk.telegram.sender import say
from styles.departments import DEPARTMENTS, normalize_department

Step = Reporter.RegistrationStep
KEY_STEPS = (Step.API_KEY, Step.AWAIT_APIKEY)
REGISTRATION = (Step.DEPARTMENT, Step.KEYWORDS, Step.API_KEY)


def start(incoming: Incoming, reporter: Reporter | None) -> Reporter:
    if reporter is None:
        reporter = Reporter.objects.create(
            telegram_id=incoming.user_id, display_name=incoming.name[:100], registration_step=Step.DEPARTMENT
        )
    else:
        reporter.registration_step = Step.DEPARTMENT
        reporter.save(update_fields=["registration_step", "updated_at"])
    log_incoming(incoming, reporter)
    ask_with_buttons(chat_id=incoming.chat_id, text=replies.START, prefix="reg", reporter=reporter)
    return reporter


def department_buttons(prefix: str) -> client.Buttons:
    """The eight departments, two per row (v1's keyboard)."""
    return callbacks.rows([callbacks.button(name, prefix, name) for name in DEPARTMENTS])


def ask_with_buttons(*, chat_id: int, text: str, prefix: str, reporter: Reporter) -> None:
    """Asks for a department with buttons; typing the name still works (the step waits for it)."""
    send_buttons_logged(chat_id=chat_id, text=text, buttons=department_buttons(prefix), reporter=reporter)


def send_buttons_logged(*, chat_id: int, text: str, buttons: Any, reporter: Reporter) -> None:
    """Sends a message with inline buttons and logs it as the bot's reply; a chat that can no
    longer be reached (a permanent error) is not retried."""
    try:
        sent = client.send_buttons(chat_id=chat_id, text=text, buttons=buttons)
    except client.TelegramError as exc:
        if not exc.permanent:
            raise
        return
    message_log(
        reporter=reporter,
        role=Message.Role.ASSISTANT,
        content=text,
        telegram_chat_id=chat_id,
        telegram_message_id=sent,
    )


def log_incoming(incoming: Incoming, reporter: Reporter) -> Message:
    """Logs what the reporter sent, except an API key: that is never written anywhere in plain text."""
    carries_key = reporter.registration_step in KEY_STEPS or (
        incoming.command == "set_apikey" and incoming.args
    )
    handling = once.current()
    return message_log(
        known_new=handling is not None and handling.first_try,
        reporter=reporter,
        role=Message.Role.USER,
        content=replies.KEY_MESSAGE_PLACEHOLDER if carries_key else incoming.text,
        message_type=incoming.kind,
        attachment_meta=incoming.attachment,
        telegram_chat_id=incoming.chat_id,
        telegram_message_id=incoming.message_id,
    )


def set_step(reporter: Reporter, step: str) -> None:
    reporter.registration_step = step
    reporter.save(update_fields=["registration_step", "updated_at"])


def answer(incoming: Incoming, reporter: Reporter) -> None:
    """The reporter's answer to the question their current step asked."""
    handlers = {
        Step.DEPARTMENT: _department,
        Step.KEYWORDS: _keywords,
        Step.API_KEY: _api_key,
        Step.AWAIT_KEYWORDS: lambda i, r: change_keywords(i, r, i.text),
        Step.AWAIT_DIVISION: lambda i, r: change_division(i, r, i.text),
        Step.AWAIT_APIKEY: lambda i, r: change_key(i, r, i.text),
        Step.AWAIT_SCHEDULE: lambda i, r: change_schedule(i, r, i.text),
    }
    handlers[Step(reporter.registration_step)](incoming, reporter)


def _department(incoming: Incoming, reporter: Reporter) -> None:
    department = normalize_department(incoming.text)
    if department is None:
        say(chat_id=incoming.chat_id, text=replies.ASK_DEPARTMENT_AGAIN, reporter=reporter)
        return
    say(chat_id=incoming.chat_id, text=_registration_department(reporter, department), reporter=reporter)


def _registration_department(reporter: Reporter, department: str) -> str:
    reporter.department, reporter.registration_step = department, Step.KEYWORDS
    reporter.save(update_fields=["department", "registration_step", "updated_at"])
    return replies.ASK_KEYWORDS.format(department=department)


@callbacks.register("reg")
def _department_button(query: callbacks.Query, reporter: Reporter | None) -> str:
    """A department tapped at /start; a button of an earlier /start no longer applies."""
    if reporter is None or reporter.registration_step != Step.DEPARTMENT:
        return replies.BUTTON_EXPIRED
    department = normalize_department(query.value)
    if department is None:
        return replies.BUTTON_EXPIRED
    answer_on_button(query, reporter, _registration_department(reporter, department))
    return ""


@callbacks.register("div")
def _division_button(query: callbacks.Query, reporter: Reporter | None) -> str:
    """A department tapped under /set_division: the same change as typing its name."""
    if reporter is None:
        query.edit(replies.REGISTER_FIRST)
        return ""
    if reporter.registration_step in REGISTRATION:
        return replies.FINISH_REGISTRATION
    department = normalize_department(query.value)
    if department is None:
        return replies.BUTTON_EXPIRED
    answer_on_button(query, reporter, _apply_division(reporter, department))
    return ""


def answer_on_button(query: callbacks.Query, reporter: Reporter, text: str) -> None:
    """The answer replaces the question (and its buttons) in place, as v1 did; it is logged too."""
    query.edit(text)
    message_log(
        reporter=reporter,
        role=Message.Role.ASSISTANT,
        content=text,
        telegram_chat_id=query.chat_id,
        telegram_message_id=query.message_id,
    )


def _keywords(incoming: Incoming, reporter: Reporter) -> None:
    try:
        reporter.keywords = parse_keywords(incoming.text)
    except ProfileError as exc:
        say(chat_id=incoming.chat_id, text=exc.user_message, reporter=reporter)
        return
    reporter.registration_step = Step.API_KEY
    reporter.save(update_fields=["keywords", "registration_step", "updated_at"])
    text = replies.ASK_API_KEY.format(keywords=", ".join(reporter.keywords))
    say(chat_id=incoming.chat_id, text=text, reporter=reporter)


def _api_key(incoming: Incoming, reporter: Reporter) -> None:
    forget_key_message(incoming)
    try:
        key = clean_api_key(incoming.text)
    except ProfileError as exc:
        say(chat_id=incoming.chat_id, text=exc.user_message, reporter=reporter)
        return
    with transaction.atomic():
        reporter.set_anthropic_key(key)
        reporter.registration_step = Step.DONE
        reporter.last_check_at = reporter.last_report_at = None  # a new registration starts fresh (v1)
        reporter.save()
        monitoring.history_clear(reporter=reporter, kinds=["check", "report"])
    text = replies.REGISTERED.format(department=reporter.department, keywords=", ".join(reporter.keywords))
    say(chat_id=incoming.chat_id, text=text, reporter=reporter)


def forget_key_message(incoming: Incoming) -> None:
    """The message that carried a key is deleted from the chat at once; failures are not fatal."""
    with contextlib.suppress(client.TelegramError):
        client.delete_message(chat_id=incoming.chat_id, message_id=incoming.message_id)


# --- settings, by command argument or as the answer to a question ------------------------------
def change_keywords(incoming: Incoming, reporter: Reporter, raw: str) -> None:
    try:
        reporter_update(reporter=reporter, keywords=raw)
    except ProfileError as exc:
        say(chat_id=incoming.chat_id, text=exc.user_message, reporter=reporter)
        return
    set_step(reporter, Step.DONE)
    text = replies.KEYWORDS_CHANGED.format(keywords=", ".join(reporter.keywords))
    say(chat_id=incoming.chat_id, text=text, reporter=reporter)


def change_division(incoming: Incoming, reporter: Reporter, raw: str) -> None:
    department = normalize_department(raw)
    if department is None:
        say(chat_id=incoming.chat_id, text=replies.ASK_DEPARTMENT_AGAIN, reporter=reporter)
        return
    say(chat_id=incoming.chat_id, text=_apply_division(reporter, department), reporter=reporter)


def _apply_division(reporter: Reporter, department: str) -> str:
    set_step(reporter, Step.DONE)
    if department == reporter.department:
        return replies.DIVISION_UNCHANGED.format(department=department)
    reporter_update(reporter=reporter, department=department)
    return replies.DIVISION_CHANGED.format(department=department)


def change_key(incoming: Incoming, reporter: Reporter, raw: str) -> None:
    forget_key_message(incoming)
    try:
        reporter_update(reporter=reporter, anthropic_key=clean_api_key(raw))
    except ProfileError as exc:
        say(chat_id=incoming.chat_id, text=exc.user_message, reporter=reporter)
        return
    set_step(reporter, Step.DONE)
    say(chat_id=incoming.chat_id, text=replies.KEY_CHANGED.format(key=reporter.masked_key), reporter=reporter)


def change_schedule(incoming: Incoming, reporter: Reporter, raw: str) -> None:
    set_step(reporter, Step.DONE)
    say(
        chat_id=incoming.chat_id,
        text=monitoring.schedule_command(reporter=reporter, text=raw),
        reporter=reporter,
    )

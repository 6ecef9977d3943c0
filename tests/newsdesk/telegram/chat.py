"""Drives the bot like Telegram would: an update is stored, then its task body runs here."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.utils import timezone

from agents import tasks as agent_tasks
from agents.models import Run
from newsdesk.models import Reporter, TelegramUpdate
from newsdesk.telegram import paste, tasks
from newsdesk.telegram.webhook import receive_update
from tests.factories import ReporterFactory
from tests.fakes.telegram import FakeTelegram, callback_update, document_update, text_update

CHAT = 4242


def send(text: str, *, chat: int = CHAT, hold: bool = False) -> dict[str, Any]:
    """A text message; with hold=True it waits, like a part of a paste still being sent."""
    return process(text_update(chat_id=chat, text=text), hold=hold)


def send_file(
    name: str, mime: str, size: int, *, file_id: str = "FILE1", caption: str | None = None, chat: int = CHAT
) -> dict[str, Any]:
    update = document_update(
        chat_id=chat, file_id=file_id, file_name=name, mime_type=mime, file_size=size, caption=caption
    )
    return process(update)


def tap(fake: FakeTelegram, label: str, *, chat: int = CHAT) -> dict[str, Any]:
    """Taps the button labelled `label` on the latest bot message that shows it."""
    for message in reversed(fake.messages(chat)):
        for row in (message.reply_markup or {}).get("inline_keyboard", []):
            for button in row:
                if button["text"] == label:
                    return process(
                        callback_update(
                            chat_id=chat, message_id=message.message_id, data=button["callback_data"]
                        )
                    )
    raise AssertionError(f"no button {label!r} in chat {chat}")


def process(update: dict[str, Any], *, hold: bool = False) -> dict[str, Any]:
    assert receive_update(update) == "stored"
    stored = TelegramUpdate.objects.get(update_id=update["update_id"])
    tasks.handle_update.apply(args=[stored.pk])
    if not hold:
        quiet(chat_of(update))
    return update


def stored_text(text: str, *, chat: int = CHAT) -> TelegramUpdate:
    """A text update stored by the webhook, not yet handled."""
    update = text_update(chat_id=chat, text=text)
    assert receive_update(update) == "stored"
    return TelegramUpdate.objects.get(update_id=update["update_id"])


def registered_reporter(chat: int = CHAT) -> Reporter:
    """A reporter linked to the chat, with a model key (no web account)."""
    return ReporterFactory(user=None, telegram_id=chat, anthropic_key=f"sk-ant-test-chat-{chat:04d}")


def chat_of(update: dict[str, Any]) -> int:
    message = update.get("message") or update["callback_query"]["message"]
    return int(message["chat"]["id"])


def quiet(chat: int = CHAT) -> None:
    """The chat falls quiet: waiting text is routed, as the scheduled flush would after the window."""
    reporter = Reporter.objects.filter(telegram_id=chat).first()
    if reporter is not None:
        paste.flush(reporter_id=reporter.pk, now=timezone.now() + timedelta(minutes=1))


def finish(run: Run) -> Run:
    """Runs a queued run's task and then its Telegram delivery, as the worker would."""
    task = {
        Run.Kind.DRAFT: agent_tasks.draft_run,
        Run.Kind.EDIT: agent_tasks.edit_run,
        Run.Kind.CHECK: agent_tasks.monitor_check,
        Run.Kind.REPORT: agent_tasks.monitor_report,
    }[Run.Kind(run.kind)]
    task.apply(args=[run.pk])
    tasks.deliver_run.apply(args=[run.pk])
    run.refresh_from_db()
    return run


def last_text(fake: FakeTelegram, chat: int = CHAT) -> str:
    return fake.sent_texts(chat)[-1]

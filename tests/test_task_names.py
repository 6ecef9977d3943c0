"""Celery task names are contracts: messages already queued in the broker or the outbox, and beat's
schedules stored as PeriodicTask rows, name their task, so every name this product ever gave out
must still be registered (a task's name is its module path: the task modules stay where they are)."""

from __future__ import annotations

from django.conf import settings

from newsdesk.celery import app

SHIPPED = {
    "agents.tasks.draft_run",
    "agents.tasks.edit_run",
    "agents.tasks.extract_upload",
    "agents.tasks.sweep_stalled_runs",
    "agents.tasks.purge_expired",
    "agents.tasks.monitor_check",
    "agents.tasks.monitor_report",
    "agents.tasks.monitor_scheduled",  # the task of every reporter's PeriodicTask row
    "newsdesk.telegram.tasks.handle_update",
    "newsdesk.telegram.tasks.deliver_run",
    "newsdesk.telegram.tasks.flush_text",
    "newsdesk.telegram.tasks.purge_updates",
    "newsdesk.telegram.tasks.sweep_telegram",
    "conversations.tasks.purge_expired_messages",
}


def test_every_task_name_ever_shipped_is_still_registered() -> None:
    app.loader.import_default_modules()

    assert SHIPPED - set(app.tasks) == set()


def test_beat_and_the_services_name_only_registered_tasks() -> None:
    from agents.monitoring.schedules import TASK
    from agents.services.common import RUN_TASKS
    from newsdesk.telegram import queue

    app.loader.import_default_modules()
    named = {entry["task"] for entry in settings.CELERY_BEAT_SCHEDULE.values()}
    named |= {TASK, *RUN_TASKS.values(), queue.HANDLE_UPDATE, queue.DELIVER_RUN, queue.FLUSH_TEXT}

    assert named <= SHIPPED

from __future__ import annotations

from celery import shared_task

from conversations.retention import purge_messages


@shared_task
def purge_expired_messages() -> int:
    return purge_messages()

"""Celery tasks of the Telegram face: process one stored update; deliver a finished run's result."""

from __future__ import annotations

import contextlib
import logging
from datetime import timedelta

from celery import Task, shared_task
from django.db.models import F, Q
from django.utils import timezone

from agents.models import Run
from conversations.models import Message
from conversations.services import message_log
from newsdesk.models import TelegramDelivery, TelegramUpdate
from newsdesk.telegram import client, dispatch, paste, replies
from newsdesk.telegram.delivery import result_messages

log = logging.getLogger(__name__)
STALE = timedelta(minutes=10)
MAX_ATTEMPTS = 3


@shared_task(bind=True)
def handle_update(self: Task, update_pk: int) -> None:
    """Processes an update at most once per delivery owner; replies are never retried blindly."""
    if not _claim(update_pk, self.request.id or ""):
        return
    update = TelegramUpdate.objects.get(pk=update_pk)
    if update.attempts > MAX_ATTEMPTS:  # its worker keeps dying: stop instead of looping
        TelegramUpdate.objects.filter(pk=update_pk).update(
            processed_at=timezone.now(), error="too many attempts", payload={}
        )
        return
    error = ""
    try:
        dispatch.handle(update.payload)
    except Exception as exc:  # a reply may already be out: retrying could answer twice
        log.exception("telegram update %s failed", update.update_id)
        error = type(exc).__name__
    # Only update_id is needed from now on (to refuse redeliveries); the payload may carry an API key
    # or three days' worth of private text, so it is not kept.
    TelegramUpdate.objects.filter(pk=update_pk).update(processed_at=timezone.now(), error=error, payload={})


@shared_task
def flush_text(reporter_id: int) -> None:
    """Routes a chat's waiting text parts as one input once the chat is quiet (see paste.py)."""
    wait = paste.flush(reporter_id=reporter_id)
    if wait is not None:
        paste.schedule_flush(reporter_id=reporter_id, wait=wait)


def _claim(update_pk: int, task_id: str) -> bool:
    free = Q(task_id="") | Q(task_id=task_id) | Q(received_at__lt=timezone.now() - STALE)
    return (
        TelegramUpdate.objects.filter(free, pk=update_pk, processed_at__isnull=True).update(
            task_id=task_id, attempts=F("attempts") + 1
        )
        == 1
    )


@shared_task(bind=True, max_retries=5)
def deliver_run(self: Task, run_id: int) -> None:
    """Sends a finished run's result to its chat, resuming after the parts already sent."""
    run = Run.objects.select_related("reporter").get(pk=run_id)
    delivery = TelegramDelivery.objects.filter(run=run).first()
    if delivery is None and run.channel == Run.Channel.SCHEDULE and run.reporter.telegram_id:
        delivery, _ = TelegramDelivery.objects.get_or_create(
            run=run, defaults={"chat_id": run.reporter.telegram_id}
        )
    if delivery is None or delivery.delivered_at is not None:
        return
    messages = result_messages(run)
    try:
        for index in range(delivery.sent_parts, len(messages)):
            _send(delivery.chat_id, *messages[index])
            TelegramDelivery.objects.filter(pk=delivery.pk).update(sent_parts=index + 1)
    except client.TelegramError as exc:
        if exc.permanent:
            TelegramDelivery.objects.filter(pk=delivery.pk).update(error=exc.description[:300])
            log.warning("result of run %s not deliverable: %s", run_id, exc.description)
            return
        raise self.retry(countdown=exc.retry_after or 10, exc=exc) from exc
    _finish(run, delivery, messages)


def _send(chat_id: int, text: str, html: bool) -> None:
    if html:
        client.send_html(chat_id=chat_id, html=text)
    else:
        client.send_text(chat_id=chat_id, text=text)


def _finish(run: Run, delivery: TelegramDelivery, messages: list[tuple[str, bool]]) -> None:
    TelegramDelivery.objects.filter(pk=delivery.pk).update(delivered_at=timezone.now())
    article = getattr(run, "article", None) if run.status == Run.Status.DONE else None
    meta = {"run_id": run.pk, **({"article_id": article.pk} if article is not None else {})}
    message_log(
        reporter=run.reporter,
        role=Message.Role.ASSISTANT,
        content="\n\n".join(text for text, _ in messages),
        telegram_chat_id=delivery.chat_id,
        meta=meta,
    )
    if delivery.status_message_id:
        label = replies.RUN_LABELS.get(run.kind, "")
        done = replies.STATUS_DONE if run.status == Run.Status.DONE else replies.STATUS_FAILED
        with contextlib.suppress(client.TelegramError):  # the result is out; a stale status is harmless
            client.edit_text(
                chat_id=delivery.chat_id,
                message_id=delivery.status_message_id,
                text=replies.STATUS_LINE.format(label=label, message=done),
            )


UPDATE_RETENTION = timedelta(days=3)  # Telegram gives up redelivering after a day


@shared_task
def purge_updates() -> int:
    """Hourly, idempotent: forgets updates old enough that Telegram will never send them again."""
    deleted, _ = TelegramUpdate.objects.filter(received_at__lt=timezone.now() - UPDATE_RETENTION).delete()
    return deleted

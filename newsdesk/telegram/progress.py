"""A run started from a chat: one status message edited as the run advances, then the result.

agents never imports this face; it reports progress through RunEvent rows and calls the listener
registered here at start-up. Stage events edit the status message in place; the final event
records `deliver_run` in the outbox (published once the run's result is committed).
"""

from __future__ import annotations

import logging

from agents.models import Run, RunEvent
from newsdesk.models import TelegramDelivery
from newsdesk.telegram import client, queue, replies

log = logging.getLogger(__name__)
FINAL = (RunEvent.Kind.DONE, RunEvent.Kind.ERROR)
STATUS_KINDS = (RunEvent.Kind.STAGE, RunEvent.Kind.RETRY, RunEvent.Kind.WARNING)


def announce(*, run: Run, chat_id: int, text: str) -> TelegramDelivery:
    """Sends the status message for a run just queued from Telegram and remembers it."""
    try:
        ids = client.send_text(chat_id=chat_id, text=text)
    except client.TelegramError as exc:
        log.warning("status message for run %s not sent: %s", run.pk, exc.description)
        ids = []
    delivery, _ = TelegramDelivery.objects.update_or_create(
        run=run,
        defaults={"chat_id": chat_id, "status_message_id": ids[0] if ids else None, "last_status": text},
    )
    return delivery


def on_run_event(run: Run, event: RunEvent) -> None:
    """The listener agents.work.runs calls for every event of every run."""
    if run.channel not in (Run.Channel.TELEGRAM, Run.Channel.SCHEDULE):
        return
    if event.kind in FINAL:
        queue.delivery_queue(run_id=run.pk)
        return
    delivery = TelegramDelivery.objects.filter(run_id=run.pk).first()
    if delivery is not None and delivery.status_message_id and event.kind in STATUS_KINDS:
        label = replies.RUN_LABELS.get(run.kind, "")
        _edit_status(delivery, replies.STATUS_LINE.format(label=label, message=event.message))


def _edit_status(delivery: TelegramDelivery, text: str) -> None:
    if text == delivery.last_status or delivery.status_message_id is None:
        return
    try:
        client.edit_text(chat_id=delivery.chat_id, message_id=delivery.status_message_id, text=text)
    except client.TelegramError as exc:  # progress is best effort; the result is what must arrive
        log.info("status edit for run %s skipped: %s", delivery.run_id, exc.description)
        return
    TelegramDelivery.objects.filter(pk=delivery.pk).update(last_status=text)

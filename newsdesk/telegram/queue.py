"""What the Telegram face hands to the workers, all through the outbox (agents.services.work).

Nothing here imports a task module: messages name their task, so dispatch → commands → progress
never loops back through the tasks. The sweeper below sends again whatever the broker lost.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import Q, QuerySet
from django.utils import timezone

from agents.models import Run
from agents.services import work
from newsdesk.models import PendingText, TelegramDelivery, TelegramUpdate

HANDLE_UPDATE = "newsdesk.telegram.tasks.handle_update"
DELIVER_RUN = "newsdesk.telegram.tasks.deliver_run"
FLUSH_TEXT = "newsdesk.telegram.tasks.flush_text"


UPDATE_KEY = "tg-update:"


def update_key(pk: int) -> str:
    return f"{UPDATE_KEY}{pk}"


def delivery_key(run_id: int) -> str:
    return f"tg-delivery:{run_id}"


def update_store(*, update: TelegramUpdate) -> bool:
    """Stores a new update with its task message (one statement on PostgreSQL); False if an update
    with its update_id is stored already (then nothing is written)."""
    return work.message_record_with_row(
        row=update, unique="update_id", task=HANDLE_UPDATE, key_prefix=UPDATE_KEY
    )


def update_queue(*, update: TelegramUpdate) -> None:
    """Records the update's task message; call inside the transaction that stored the update."""
    work.message_record(task=HANDLE_UPDATE, args=[update.pk], key=update_key(update.pk))


def update_requeue_if_lost(*, update_id: int) -> bool:
    """A redelivered update the sweeper would send again (stored, unprocessed, its message neither
    recorded nor sent lately, no live worker on it) is queued again now. True if it was queued.

    A redelivery a moment after the first arrival finds its message on its way (in the outbox or
    already in the broker, which a row cannot tell apart) and costs one query; sending it again
    at once would only put a second message behind the first.
    """
    now = timezone.now()
    recently = now - timedelta(seconds=settings.NEWSDESK_REQUEUE_AFTER_SECONDS)
    lost = _lost(now).filter(update_id=update_id, received_at__lt=recently).first()
    return lost is not None and _requeue(lost, now)


def _requeue(update: TelegramUpdate, now: datetime) -> bool:
    """Takes the update back and queues it again, only if it is still lost: the UPDATE repeats the
    select's condition, so a worker that claimed it since the select keeps it (taking it from that
    worker made it skip its reply and mark the update done, and the reply was never sent)."""
    if work.message_waiting(key=update_key(update.pk)):
        return False  # recorded, not yet sent: the relay has it
    with transaction.atomic():
        if not _lost(now).filter(pk=update.pk).update(owner="", heartbeat_at=now):
            return False  # claimed (or finished) since it was selected
        update_queue(update=update)
    return True


def _lost(now: datetime) -> QuerySet[TelegramUpdate]:
    """Unprocessed updates whose message may be lost: unowned and last sent (heartbeat_at, which a
    re-send sets) longer than the requeue wait ago, or owned by a worker that went silent."""
    return TelegramUpdate.objects.filter(_stale_q(now), processed_at__isnull=True)


def _stale_q(now: datetime) -> Q:
    wait = now - timedelta(seconds=settings.NEWSDESK_REQUEUE_AFTER_SECONDS)
    # Unowned rows use heartbeat_at as "last sent" so a backlog is not flooded with copies.
    return (Q(owner="") & (Q(heartbeat_at__isnull=True) | Q(heartbeat_at__lt=wait))) | (
        ~Q(owner="") & Q(heartbeat_at__lt=now - work.owner_stale_after())
    )


def delivery_queue(*, run_id: int) -> None:
    """Records the message that sends a finished run's result to its chat."""
    with transaction.atomic():
        work.message_record(task=DELIVER_RUN, args=[run_id], key=delivery_key(run_id))


def flush_queue(*, reporter_id: int, wait: float) -> None:
    """Schedules the flush of a chat's waiting text parts (newsdesk.telegram.paste) in `wait` s."""
    with transaction.atomic():
        work.message_record(
            task=FLUSH_TEXT, args=[reporter_id], key=f"tg-flush:{reporter_id}", countdown=wait
        )


def _delivery_requeue(undelivered: QuerySet[TelegramDelivery], *, pk: int, run_id: int, now: datetime) -> int:
    """As _requeue: taken back only while the select's condition still holds (not claimed since)."""
    with transaction.atomic():
        if not undelivered.filter(pk=pk).update(owner="", heartbeat_at=now):
            return 0
        work.message_record(task=DELIVER_RUN, args=[run_id], key=delivery_key(run_id))
    return 1


def sweep() -> int:
    """Sends again updates and results whose message was lost or whose worker died. Idempotent."""
    now = timezone.now()
    wait = now - timedelta(seconds=settings.NEWSDESK_REQUEUE_AFTER_SECONDS)
    lost = _stale_q(now)
    requeued = sum(_requeue(update, now) for update in _lost(now).filter(received_at__lt=wait)[:200])
    finished = Q(run__status__in=(Run.Status.DONE, Run.Status.FAILED), run__finished_at__lt=wait)
    undelivered = TelegramDelivery.objects.filter(lost, finished, delivered_at__isnull=True, error="")
    for delivery in undelivered[:200]:
        if not work.message_waiting(key=delivery_key(delivery.run_id)):
            requeued += _delivery_requeue(undelivered, pk=delivery.pk, run_id=delivery.run_id, now=now)
    # Text parts nobody flushed (their flush message was lost): flushing twice is harmless.
    waiting = PendingText.objects.filter(batch="", received_at__lt=wait).values_list("reporter_id", flat=True)
    for reporter_id in set(waiting[:200]):
        if not work.message_waiting(key=f"tg-flush:{reporter_id}"):
            flush_queue(reporter_id=reporter_id, wait=0)
            requeued += 1
    return requeued

"""What the Telegram face hands to the workers, all through the outbox (agents.outbox).

Nothing here imports a task module: messages name their task, so dispatch → commands → progress
never loops back through the tasks. The sweeper below sends again whatever the broker lost.
"""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from agents import claims, outbox
from agents.models import Run
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
    message = outbox.create_once(update, unique="update_id", task=HANDLE_UPDATE, key_prefix=UPDATE_KEY)
    return message is not None


def update_queue(*, update: TelegramUpdate) -> None:
    """Records the update's task message; call inside the transaction that stored the update."""
    outbox.enqueue(task=HANDLE_UPDATE, args=[update.pk], key=update_key(update.pk))


def update_requeue_if_lost(*, update_id: int) -> bool:
    """A redelivered update that is stored but unprocessed, unqueued and unowned is queued again.

    This is how an update whose first answer failed (or whose message the broker lost) is still
    answered: Telegram sends it again and this time it reaches a worker. True if it was queued.
    """
    update = TelegramUpdate.objects.filter(update_id=update_id, processed_at__isnull=True).first()
    if update is None or outbox.pending(update_key(update.pk)):
        return False
    if update.owner and not TelegramUpdate.objects.filter(claims.silent_q(), pk=update.pk).exists():
        return False  # a worker is on it right now
    with transaction.atomic():
        TelegramUpdate.objects.filter(pk=update.pk).update(owner="", heartbeat_at=timezone.now())
        update_queue(update=update)
    return True


def delivery_queue(*, run_id: int) -> None:
    """Records the message that sends a finished run's result to its chat."""
    with transaction.atomic():
        outbox.enqueue(task=DELIVER_RUN, args=[run_id], key=delivery_key(run_id))


def flush_queue(*, reporter_id: int, wait: float) -> None:
    """Schedules the flush of a chat's waiting text parts (newsdesk.telegram.paste) in `wait` s."""
    with transaction.atomic():
        outbox.enqueue(task=FLUSH_TEXT, args=[reporter_id], key=f"tg-flush:{reporter_id}", countdown=wait)


def sweep() -> int:
    """Sends again updates and results whose message was lost or whose worker died. Idempotent."""
    now = timezone.now()
    wait = now - timedelta(seconds=settings.NEWSDESK_REQUEUE_AFTER_SECONDS)
    stale = now - claims.stale_after()
    # Unowned rows use heartbeat_at as "last sent" so a backlog is not flooded with copies.
    lost = (Q(owner="") & (Q(heartbeat_at__isnull=True) | Q(heartbeat_at__lt=wait))) | (
        ~Q(owner="") & Q(heartbeat_at__lt=stale)
    )
    requeued = 0
    for update in TelegramUpdate.objects.filter(lost, processed_at__isnull=True, received_at__lt=wait)[:200]:
        if not outbox.pending(update_key(update.pk)):
            with transaction.atomic():
                TelegramUpdate.objects.filter(pk=update.pk).update(owner="", heartbeat_at=now)
                update_queue(update=update)
            requeued += 1
    finished = Q(run__status__in=(Run.Status.DONE, Run.Status.FAILED), run__finished_at__lt=wait)
    for delivery in TelegramDelivery.objects.filter(lost, finished, delivered_at__isnull=True, error="")[
        :200
    ]:
        if not outbox.pending(delivery_key(delivery.run_id)):
            TelegramDelivery.objects.filter(pk=delivery.pk).update(owner="", heartbeat_at=now)
            delivery_queue(run_id=delivery.run_id)
            requeued += 1
    # Text parts nobody flushed (their flush message was lost): flushing twice is harmless.
    waiting = PendingText.objects.filter(batch="", received_at__lt=wait).values_list("reporter_id", flat=True)
    for reporter_id in set(waiting[:200]):
        if not outbox.pending(f"tg-flush:{reporter_id}"):
            flush_queue(reporter_id=reporter_id, wait=0)
            requeued += 1
    return requeued

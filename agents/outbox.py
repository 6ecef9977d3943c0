"""The one enqueue path of the product: record a task message with the work, publish it after commit.

Services call `enqueue(task=..., args=..., key=...)` inside the transaction that stores the work
(a run, an upload, a Telegram update) and never import a task module: the message names its task.
Once the transaction commits, one publish is attempted at once; if the broker is away the row
stays and `relay()` (a loop in every worker, see `start_relay`) publishes it within seconds of the
broker's return. Publishing twice is harmless: every task claims its row before doing anything.

A broker outage is logged once when it starts and once when it ends, not once per request.
"""

from __future__ import annotations

import logging
import threading
import time
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import connection, transaction
from django.db.models import Q
from django.utils import timezone

from agents.models import OutboxMessage

log = logging.getLogger(__name__)
LEASE = timedelta(seconds=30)  # one publisher at a time per row; a crashed one frees it after this
BATCH = 200


class _BrokerState:
    """Per process: is the broker known to be away, since when, and when did we last try it."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.down_since: float | None = None
        self.last_try = 0.0

    def failed(self, exc: BaseException) -> None:
        with self.lock:
            self.last_try = time.monotonic()
            if self.down_since is None:
                self.down_since = self.last_try
                log.warning("broker unreachable (%s); accepted work waits in the outbox", type(exc).__name__)

    def ok(self) -> None:
        with self.lock:
            if self.down_since is not None:
                log.warning(
                    "broker back after %.0f s; relaying the outbox", time.monotonic() - self.down_since
                )
            self.down_since = None

    def recently_down(self) -> bool:
        """A request does not wait on a broker that failed a moment ago; the relay will send it."""
        with self.lock:
            return self.down_since is not None and time.monotonic() - self.last_try < 5


broker = _BrokerState()


def enqueue(*, task: str, args: list[Any], key: str, countdown: float = 0) -> OutboxMessage:
    """Records the message in the caller's transaction; publishes it once that commits.

    `countdown` delays the task (the broker holds it), counted from now, not from publishing.
    """
    now = timezone.now()
    not_before = now + timedelta(seconds=countdown) if countdown > 0 else None
    # Created leased to this process: the attempt right after commit needs neither a claim nor a
    # re-read (two statements fewer on every accepted request); the relay takes the row only if
    # that attempt fails (it releases the lease) or this process dies first (the lease expires).
    message = OutboxMessage.objects.create(
        task=task, args=args, key=key, not_before=not_before, claimed_until=now + LEASE
    )
    transaction.on_commit(lambda: publish_now(message))
    return message


def pending(key: str) -> bool:
    """True if a message for `key` is recorded and not yet handed to the broker."""
    return OutboxMessage.objects.filter(key=key).exists()


def publish_now(message: OutboxMessage) -> bool:
    """The attempt right after commit, on the row this process created leased; never raises (the
    work is stored, the relay has it)."""
    try:
        if broker.recently_down():
            _release(message)
            return False
        return _send(message)
    except Exception as exc:  # the database went away between commit and here: the lease expires
        log.info("outbox %s left for the relay: %s", message.pk, type(exc).__name__)
        return False


def relay(limit: int = BATCH) -> int:
    """Publishes the oldest recorded messages; stops at the first broker failure. Returns how many."""
    sent = 0
    for pk in OutboxMessage.objects.filter(_free()).values_list("pk", flat=True)[:limit]:
        if not _publish(pk):
            if broker.down_since is not None:
                break
            continue
        sent += 1
    return sent


def _free() -> Q:
    return Q(claimed_until__isnull=True) | Q(claimed_until__lt=timezone.now())


def _publish(pk: int) -> bool:
    """The relay's publish: claims the row first (another relay may be at it)."""
    if not OutboxMessage.objects.filter(_free(), pk=pk).update(claimed_until=timezone.now() + LEASE):
        return False  # another publisher has it, or it is gone
    return _send(OutboxMessage.objects.get(pk=pk))


def _send(message: OutboxMessage) -> bool:
    """Publishes a message this process holds the lease of; sent → the row goes, failed → the
    lease is released for the relay."""
    from celery import current_app

    countdown = (message.not_before - timezone.now()).total_seconds() if message.not_before else 0
    try:
        current_app.send_task(
            message.task, args=message.args, countdown=max(countdown, 0) or None, retry=False
        )
    except Exception as exc:
        broker.failed(exc)
        _release(message)
        return False
    broker.ok()
    _forget([message.pk])
    return True


def _forget(pks: list[int]) -> None:
    """Deletes sent rows in one statement. QuerySet.delete() would wrap it in a transaction of its
    own (BEGIN, DELETE, COMMIT: three round trips) to collect cascades and signals that this table,
    which nothing references, never has."""
    OutboxMessage.objects.filter(pk__in=pks)._raw_delete(OutboxMessage.objects.db)


def _release(message: OutboxMessage) -> None:
    OutboxMessage.objects.filter(pk=message.pk).update(claimed_until=None, attempts=message.attempts + 1)


# --- the relay loop in each worker --------------------------------------------------------------
_relay_started = threading.Event()


def start_relay() -> None:
    """Starts the relay thread of this worker process (once); every worker runs one."""
    interval = float(settings.NEWSDESK_OUTBOX_RELAY_SECONDS)
    if interval <= 0 or _relay_started.is_set():
        return
    _relay_started.set()
    threading.Thread(target=_relay_loop, args=(interval,), name="outbox-relay", daemon=True).start()


def _relay_loop(interval: float) -> None:
    database_down = False
    while True:
        try:
            relay()
            if database_down:
                log.warning("database back; outbox relay resumed")
            database_down = False
        except Exception as exc:
            if not database_down:
                log.warning("outbox relay paused: database unreachable (%s)", type(exc).__name__)
            database_down = True
            connection.close()
        time.sleep(interval)

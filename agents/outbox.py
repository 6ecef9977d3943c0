"""The one enqueue path of the product: record a task message with the work, publish it after commit.

Services call `enqueue(task=..., args=..., key=...)` inside the transaction that stores the work
(a run, an upload, a Telegram update) and never import a task module: the message names its task.
Once the transaction commits, one publish is attempted at once (in the web process by a thread of
its own, after the response: `publish_after_response`); if the broker is away the row stays and
`relay()` (a loop in every worker, see `start_relay`) publishes it within seconds of the broker's
return. Publishing twice is harmless: every task claims its row before doing anything.

A broker outage is logged once when it starts and once when it ends, not once per request.
"""

from __future__ import annotations

import atexit
import logging
import os
import queue
import threading
import time
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import close_old_connections, connection, transaction
from django.db.models import F, Q
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
    transaction.on_commit(lambda: _after_commit(message))
    return message


def _after_commit(message: OutboxMessage) -> None:
    if _publisher.enabled:
        _publisher.submit(message)
    else:
        publish_now(message)


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

    try:
        current_app.send_task(message.task, args=message.args, countdown=_countdown(message), retry=False)
    except Exception as exc:
        broker.failed(exc)
        _release(message)
        return False
    broker.ok()
    _forget([message.pk])
    return True


def _countdown(message: OutboxMessage) -> float | None:
    countdown = (message.not_before - timezone.now()).total_seconds() if message.not_before else 0
    return max(countdown, 0) or None


def _forget(pks: list[int]) -> None:
    """Deletes sent rows in one statement. QuerySet.delete() would wrap it in a transaction of its
    own (BEGIN, DELETE, COMMIT: three round trips) to collect cascades and signals that this table,
    which nothing references, never has."""
    OutboxMessage.objects.filter(pk__in=pks)._raw_delete(OutboxMessage.objects.db)


def _release(message: OutboxMessage) -> None:
    OutboxMessage.objects.filter(pk=message.pk).update(claimed_until=None, attempts=message.attempts + 1)


# --- publishing after the response, in the web process -----------------------------------------
class _Publisher:
    """Publishes, from one thread per process, the messages this process recorded and committed.

    A request then answers once its row is committed (the work is durable: a Telegram update is
    acknowledged only then) instead of after the broker call and the row's delete as well; the
    thread sends whatever accumulated through one producer and deletes the sent rows in one
    statement. The rows stay leased to this process meanwhile, so the relay does not send them
    too; if the process dies first, the lease expires and the relay does.
    """

    def __init__(self) -> None:
        self.enabled = False
        self.queue: queue.SimpleQueue[OutboxMessage | None] = queue.SimpleQueue()
        self.lock = threading.Lock()
        self.pid = 0  # the process whose thread is running: a forked child starts its own
        self.unfinished = 0  # queued or being sent
        self.idle = threading.Condition()

    def submit(self, message: OutboxMessage) -> None:
        with self.idle:
            self.unfinished += 1
        self.queue.put(message)
        if self.pid != os.getpid():
            with self.lock:
                if self.pid != os.getpid():
                    self.pid = os.getpid()
                    threading.Thread(target=self._loop, name="outbox-publisher", daemon=True).start()

    def _loop(self) -> None:
        busy_until = 0.0
        while (message := self.queue.get()) is not None:  # waits for work; None stops the thread
            if time.monotonic() > busy_until:  # idle a while: check the connection as a request would
                close_old_connections()
            self.drain(first=message)
            busy_until = time.monotonic() + 1
        connection.close()

    def flush(self, timeout: float = 10) -> None:
        """Sends (or leaves for the relay) everything queued, waits for the batch the thread is
        sending and stops the thread; at exit, where it would otherwise be stopped mid-batch."""
        while not self.queue.empty():
            self.drain()
        with self.idle:
            self.idle.wait_for(lambda: self.unfinished == 0, timeout)
        if self.pid == os.getpid():
            self.queue.put(None)

    def drain(self, first: OutboxMessage | None = None) -> int:
        """Publishes the messages queued so far (up to BATCH); returns how many were sent. Never raises."""
        batch = [first] if first is not None else []
        while len(batch) < BATCH:
            try:
                message = self.queue.get_nowait()
            except queue.Empty:
                break
            if message is None:  # the thread's stop signal: leave it for the thread
                self.queue.put(None)
                break
            batch.append(message)
        if not batch:
            return 0
        try:
            return _send_batch(batch)
        except Exception as exc:  # the database went away: the leases expire, the relay sends them
            log.info("%d outbox message(s) left for the relay: %s", len(batch), type(exc).__name__)
            connection.close()
            return 0
        finally:
            with self.idle:
                self.unfinished -= len(batch)
                self.idle.notify_all()


_publisher = _Publisher()


def publish_after_response() -> None:
    """Makes this process publish its messages from a thread of its own (`_Publisher`); the web
    process calls it at start-up. Whatever is still queued at exit is sent before the process ends."""
    if not _publisher.enabled:
        _publisher.enabled = True
        atexit.register(_publisher.flush)


def _send_batch(batch: list[OutboxMessage]) -> int:
    """Sends a batch this process holds the leases of; stops at the first broker failure and
    releases what it did not send."""
    from celery import current_app

    sent: list[int] = []
    if not broker.recently_down():
        try:
            with current_app.producer_or_acquire() as producer:
                for message in batch:
                    current_app.send_task(
                        message.task,
                        args=message.args,
                        producer=producer,
                        retry=False,
                        countdown=_countdown(message),
                    )
                    sent.append(message.pk)
        except Exception as exc:
            broker.failed(exc)
        else:
            broker.ok()
    if sent:
        _forget(sent)
    unsent = [m.pk for m in batch[len(sent) :]]
    if unsent:
        OutboxMessage.objects.filter(pk__in=unsent).update(claimed_until=None, attempts=F("attempts") + 1)
    return len(sent)


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

"""The broker seam: hands recorded task messages (agents.work.outbox) to Celery with `send_task`,
and knows when the broker is away.

A broker outage is logged once when it starts and once when it ends, not once per message.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Iterable, Sequence
from typing import Any

from celery import current_app
from django.db.models import F
from django.utils import timezone

from agents.models import OutboxMessage

log = logging.getLogger(__name__)
FORGET_EVERY = 1.0  # seconds sent rows may wait for their delete (SentRows)
FORGET_BATCH = 200


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

    def recently_down(self, within: float = 5) -> bool:
        """True if the broker failed less than `within` seconds ago: a request does not wait on
        it, and a relay does not try again on every notification."""
        with self.lock:
            return self.down_since is not None and time.monotonic() - self.last_try < within


broker = _BrokerState()


def send(messages: Sequence[OutboxMessage], *, skip_if_recently_down: bool = False) -> int:
    """Publishes `messages` in order through a producer taken from the pool for them; returns how
    many went out (a prefix: it stops at the first broker failure). Never raises."""
    return Sender().send(messages, skip_if_recently_down=skip_if_recently_down, keep=False)


class Sender:
    """Publishes through one producer kept between calls (the web publisher thread's own).

    Taking a producer from Celery's pool reads two settings through Celery's view of Django's
    settings, which raises and catches an AttributeError per setting not set: at one message per
    call, as the web process sends them, a third of a publish. A producer whose publish failed is
    given back, and the next call takes a fresh one.
    """

    def __init__(self) -> None:
        self.producer: Any = None

    def send(
        self, messages: Sequence[OutboxMessage], *, skip_if_recently_down: bool, keep: bool = True
    ) -> int:
        if not messages or (skip_if_recently_down and broker.recently_down()):
            return 0
        sent = 0
        try:
            if self.producer is None:
                self.producer = current_app.producer_pool.acquire(block=True)
            for message in messages:
                publish_one(self.producer, task=message.task, args=message.args, countdown=countdown(message))
                sent += 1
        except Exception as exc:
            broker.failed(exc)
            self.close()
        else:
            broker.ok()
            if not keep:
                self.close()
        return sent

    def close(self) -> None:
        if self.producer is not None:
            producer, self.producer = self.producer, None
            producer.release()


class SentRows:
    """Rows a publishing thread sent and has not deleted yet, deleted together at most once every
    FORGET_EVERY seconds (or every FORGET_BATCH rows): at a few messages a second, a DELETE per
    message would cost as much as the request that stored it. They stay leased meanwhile, so no
    relay sends them again; if the process dies first, the lease expires and they are sent again,
    which is harmless (every task claims its row before it works)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()  # a thread and a flush at exit both add and take
        self.pks: list[int] = []
        self.forgot_at = 0.0

    @property
    def waiting(self) -> bool:
        return bool(self.pks)

    def add(self, pks: Iterable[int]) -> None:
        with self.lock:
            self.pks.extend(pks)

    def due(self) -> bool:
        return bool(self.pks) and (
            len(self.pks) >= FORGET_BATCH or time.monotonic() - self.forgot_at >= FORGET_EVERY
        )

    def forget(self) -> None:
        """Deletes them; a database error propagates, and the rows are left to expire. Holds the
        lock throughout, so a flush at exit returns only once a thread's delete is done."""
        with self.lock:
            pks, self.pks, self.forgot_at = self.pks, [], time.monotonic()
            for start in range(0, len(pks), FORGET_BATCH):
                forget(pks[start : start + FORGET_BATCH])


def forget(pks: Sequence[int]) -> None:
    """Deletes sent rows: one DELETE (nothing references the table) in a transaction of its own."""
    OutboxMessage.objects.filter(pk__in=pks).delete()


def release(messages: Sequence[OutboxMessage]) -> None:
    """Hands rows this process failed to send to the relay, counting the attempt: only rows still
    under this process's lease (their `claimed_until` as it was leased). A row whose lease ran out
    meanwhile may be held by another relay now; freeing it would let a third one send it too."""
    by_lease: dict[Any, list[int]] = {}
    for message in messages:
        by_lease.setdefault(message.claimed_until, []).append(message.pk)
    for lease, pks in by_lease.items():
        OutboxMessage.objects.filter(pk__in=pks, claimed_until=lease).update(
            claimed_until=None, attempts=F("attempts") + 1
        )


def countdown(message: OutboxMessage) -> float | None:
    """Seconds until the message may run (None: at once); counted from when it was recorded."""
    if message.not_before is None:
        return None
    return max((message.not_before - timezone.now()).total_seconds(), 0) or None


def publish_one(producer: Any, *, task: str, args: list[Any], countdown: float | None) -> None:
    """Publishes one task message through `producer`; the route comes from settings.CELERY_TASK_ROUTES."""
    current_app.send_task(task, args=args, countdown=countdown, producer=producer, retry=False)

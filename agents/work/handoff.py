"""The broker seam: hands recorded task messages (agents.work.outbox) to Celery, and knows when the
broker is away.

A message is built the way `Celery.send_task` builds it (`amqp.create_task_message`, then
`amqp.send_task_message` with the task's options and route), without what `send_task` redoes on
every call and that never changes for a task name: the options merge, the router's pass over the
routes, the result object. It costs a third less, and every Telegram update is one message.

A broker outage is logged once when it starts and once when it ends, not once per message.
"""

from __future__ import annotations

import functools
import logging
import threading
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from celery import current_app
from celery.utils import uuid
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
    """Deletes sent rows in one statement. QuerySet.delete() would wrap it in a transaction of its
    own (BEGIN, DELETE, COMMIT: three round trips) to collect cascades and signals that this table,
    which nothing references, never has."""
    OutboxMessage.objects.filter(pk__in=pks)._raw_delete(OutboxMessage.objects.db)


def release(pks: Sequence[int]) -> None:
    """Hands rows this process failed to send to the relay, counting the attempt."""
    OutboxMessage.objects.filter(pk__in=pks).update(claimed_until=None, attempts=F("attempts") + 1)


def countdown(message: OutboxMessage) -> float | None:
    """Seconds until the message may run (None: at once); counted from when it was recorded."""
    if message.not_before is None:
        return None
    return max((message.not_before - timezone.now()).total_seconds(), 0) or None


def publish_one(producer: Any, *, task: str, args: list[Any], countdown: float | None) -> None:
    """Publishes one task message, as `send_task(task, args, countdown=…, retry=False)` would."""
    amqp = current_app.amqp
    spec = _spec(task, task in current_app._tasks)  # type: ignore[attr-defined]  # as send_task does
    message = amqp.create_task_message(
        uuid(),
        task,
        args,
        {},
        countdown=countdown,
        reply_to=current_app.thread_oid,
        time_limit=spec.time_limit,
        soft_time_limit=spec.soft_time_limit,
        ignore_result=None,
        # Our arguments are a few keys: their repr is what saferepr would give, without its walk
        # and the two settings lookups it makes per message.
        argsrepr=repr(args),
        kwargsrepr="{}",
    )
    # declare=[]: a message for the default exchange goes straight into the list of the queue its
    # routing key names, on every transport we use; declaring that queue anyway (workers declare
    # what they consume) copied and checked it on each publish.
    amqp.send_task_message(producer, task, message, retry=False, declare=[], **spec.options)


@dataclass(frozen=True)
class _Spec:
    options: dict[str, Any]  # the route and the task's own publishing options
    time_limit: float | None
    soft_time_limit: float | None


@functools.cache
def _spec(task: str, registered: bool) -> _Spec:
    """What send_task works out on every call from the task's name: its options where it is
    registered in this process (a worker), then its route (settings.CELERY_TASK_ROUTES)."""
    task_type = current_app._tasks.get(task) if registered else None  # type: ignore[attr-defined]
    options = {k: v for k, v in (task_type._get_exec_options() if task_type else {}).items() if v is not None}
    time_limit, soft_time_limit = options.pop("time_limit", None), options.pop("soft_time_limit", None)
    options.pop("ignore_result", None)
    return _Spec(
        dict(current_app.amqp.router.route(options, task, (), {}, task_type)), time_limit, soft_time_limit
    )

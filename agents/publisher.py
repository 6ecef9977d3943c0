"""Publishing after the response, in the web process: one thread per process sends the messages
the process recorded and committed (agents.outbox).

A request then answers once its row is committed (the work is durable: a Telegram update is
acknowledged only then) instead of after the broker call and the row's delete as well. The thread
sends whatever accumulated through one producer, and deletes sent rows in one statement at most
once a second (or every BATCH rows): at a few updates a second a delete per message would cost as
much as the request itself. The rows stay leased to this process meanwhile, so the relay does not
send them too; if the process dies first, the lease expires and the relay sends them again, which
is harmless (every task claims its row before it works).
"""

from __future__ import annotations

import atexit
import logging
import os
import queue
import threading
import time

from django.db import close_old_connections, connection

from agents import publishing
from agents.models import OutboxMessage

log = logging.getLogger(__name__)
BATCH = 200
FORGET_EVERY = 1.0  # seconds: how long sent rows may wait for their delete


class _Publisher:
    def __init__(self) -> None:
        self.enabled = False
        self.queue: queue.SimpleQueue[OutboxMessage | None] = queue.SimpleQueue()
        self.lock = threading.Lock()
        self.pid = 0  # the process whose thread is running: a forked child starts its own
        self.unfinished = 0  # queued or being sent
        self.idle = threading.Condition()
        self.sent: list[int] = []  # published, not yet deleted
        self.sent_lock = threading.Lock()  # the thread and a flush at exit both add and take
        self.forgot_at = 0.0
        self.sender = publishing.Sender()  # its producer is used under `sending`
        self.sending = threading.Lock()

    def submit(self, message: OutboxMessage) -> None:
        with self.idle:
            self.unfinished += 1
        self.queue.put(message)
        if self.pid != os.getpid():
            with self.lock:
                if self.pid != os.getpid():
                    self.pid = os.getpid()
                    self.sent, self.sent_lock = [], threading.Lock()  # the parent deletes its own
                    self.sender, self.sending = publishing.Sender(), threading.Lock()
                    threading.Thread(target=self._loop, name="outbox-publisher", daemon=True).start()

    def _loop(self) -> None:
        while True:
            message: OutboxMessage | None = None
            try:  # waits for work; with sent rows waiting, only until their delete is due
                message = self.queue.get(timeout=FORGET_EVERY if self.sent else None)
                if message is None:  # the stop signal
                    break
            except queue.Empty:
                pass
            # The thread's connection may have outlived its age or gone bad since its last use:
            # checked as a request would before its first query (no query unless one follows).
            close_old_connections()
            if message is not None:
                self.drain(first=message)
            if len(self.sent) >= BATCH or time.monotonic() - self.forgot_at >= FORGET_EVERY:
                self.forget_sent()
        self.forget_sent()
        with self.sending:
            self.sender.close()
        connection.close()

    def flush(self, timeout: float = 10) -> None:
        """Sends (or leaves for the relay) everything queued, waits for the batch the thread is
        sending, deletes what was sent and stops the thread; at exit, where it would otherwise be
        stopped mid-batch."""
        while not self.queue.empty():
            self.drain()
        with self.idle:
            self.idle.wait_for(lambda: self.unfinished == 0, timeout)
        self.forget_sent()
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
            with self.sending:  # a flush at exit may drain from another thread
                sent = self.sender.send(batch, skip_if_recently_down=True)
            with self.sent_lock:
                self.sent.extend(message.pk for message in batch[:sent])
            if unsent := [message.pk for message in batch[sent:]]:
                publishing.release(unsent)
            return sent
        except Exception as exc:  # the database went away: the leases expire, the relay sends them
            log.info("%d outbox message(s) left for the relay: %s", len(batch), type(exc).__name__)
            connection.close()
            return 0
        finally:
            with self.idle:
                self.unfinished -= len(batch)
                self.idle.notify_all()

    def forget_sent(self) -> None:
        """Deletes the rows sent so far; a failed delete leaves them to expire (the relay then sends
        them again, which is harmless). Never raises. Holds the lock throughout, so a flush at
        exit returns only once the thread's delete is done."""
        with self.sent_lock:
            sent, self.sent, self.forgot_at = self.sent, [], time.monotonic()
            try:
                for start in range(0, len(sent), BATCH):
                    publishing.forget(sent[start : start + BATCH])
            except Exception as exc:
                log.info("%d sent outbox row(s) left to expire: %s", len(sent), type(exc).__name__)
                connection.close()


publisher = _Publisher()


def publish_after_response() -> None:
    """Makes this process publish its messages from a thread of its own; the web process calls it
    at start-up. Whatever is still queued at exit is sent before the process ends."""
    if not publisher.enabled:
        publisher.enabled = True
        atexit.register(publisher.flush)

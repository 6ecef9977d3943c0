"""Publishing after the response, in the web process: one thread per process sends the messages
the process recorded and committed (agents.work.outbox).

A request then answers once its row is committed (the work is durable: a Telegram update is
acknowledged only then) instead of after the broker call and the row's delete as well. The thread
sends whatever accumulated through one producer, and deletes sent rows together
(handoff.SentRows).
"""

from __future__ import annotations

import atexit
import logging
import os
import queue
import threading

from django.db import close_old_connections, connection

from agents.models import OutboxMessage
from agents.work import handoff

log = logging.getLogger(__name__)
BATCH = 200


class _Publisher:
    def __init__(self) -> None:
        self.enabled = False
        self.queue: queue.SimpleQueue[OutboxMessage | None] = queue.SimpleQueue()
        self.lock = threading.Lock()
        self.pid = 0  # the process whose thread is running: a forked child starts its own
        self.unfinished = 0  # queued or being sent
        self.idle = threading.Condition()
        self.sent = handoff.SentRows()
        self.sender = handoff.Sender()  # its producer is used under `sending`
        self.sending = threading.Lock()

    def submit(self, message: OutboxMessage) -> None:
        with self.idle:
            self.unfinished += 1
        self.queue.put(message)
        if self.pid != os.getpid():
            with self.lock:
                if self.pid != os.getpid():
                    self.pid = os.getpid()
                    self.sent = handoff.SentRows()  # the parent deletes its own
                    self.sender, self.sending = handoff.Sender(), threading.Lock()
                    threading.Thread(target=self._loop, name="outbox-publisher", daemon=True).start()

    def _loop(self) -> None:
        while True:
            message: OutboxMessage | None = None
            try:  # waits for work; with sent rows waiting, only until their delete is due
                message = self.queue.get(timeout=handoff.FORGET_EVERY if self.sent.waiting else None)
                if message is None:  # the stop signal
                    break
            except queue.Empty:
                pass
            # The thread's connection may have outlived its age or gone bad since its last use:
            # checked as a request would before its first query (no query unless one follows).
            close_old_connections()
            if message is not None:
                self.drain(first=message)
            if self.sent.due():
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
            self.sent.add(message.pk for message in batch[:sent])
            if unsent := batch[sent:]:
                handoff.release(unsent)
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
        them again, which is harmless). Never raises."""
        try:
            self.sent.forget()
        except Exception as exc:
            log.info("sent outbox rows left to expire: %s", type(exc).__name__)
            connection.close()


publisher = _Publisher()


def publish_after_response() -> None:
    """Makes this process publish its messages from a thread of its own; the web process calls it
    at start-up. Whatever is still queued at exit is sent before the process ends."""
    if not publisher.enabled:
        publisher.enabled = True
        atexit.register(publisher.flush)

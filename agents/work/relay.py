"""The outbox relay: a thread in every worker that hands recorded task messages to the broker.

With settings.NEWSDESK_RELAY_ON_NOTIFY (PostgreSQL), the relays elect a leader: the one that takes
a session advisory lock LISTENs on the outbox's channel, which an insert into the outbox notifies
(migration agents 0012), and publishes at once; the others poll every NEWSDESK_OUTBOX_RELAY_SECONDS
and try for the lead each time, so a leader that dies (its session ends, the lock with it) is
replaced within one interval, and its backlog is sent by whoever polls first. Without it, every
relay polls, for what the recording process could not publish itself.

A relay that finds the broker away tries again once per interval, not on every notification.
"""

from __future__ import annotations

import logging
import threading
import time
from contextlib import closing
from typing import Any

from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, connection, connections

from agents.work import handoff, outbox

log = logging.getLogger(__name__)
CHANNEL = "newsdesk_outbox"  # notified by the outbox's insert trigger
LEAD_LOCK = 0x6E_6473_6B  # the advisory lock key of the relay that listens
_started = threading.Event()


def start_relay() -> None:
    """Starts this worker process's relay thread (once); every worker runs one."""
    interval = float(settings.NEWSDESK_OUTBOX_RELAY_SECONDS)
    if interval <= 0 or _started.is_set():
        return
    _started.set()
    loop = _listen_loop if settings.NEWSDESK_RELAY_ON_NOTIFY else _poll_loop
    args = (interval, threading.Event())  # the event stops a loop: tests start loops of their own
    threading.Thread(target=loop, args=args, name="outbox-relay", daemon=True).start()


class _Relay:
    """One relay's publishing: its producer kept, the rows it sent deleted together
    (handoff.SentRows), and a database outage logged once."""

    def __init__(self, interval: float) -> None:
        self.interval = interval
        self.sender = handoff.Sender()
        self.sent = handoff.SentRows()
        self.database_down = False

    def run(self) -> None:
        """Publishes everything waiting. Never raises: a database error is logged when it starts
        and when it ends, and the next call tries again."""
        if handoff.broker.recently_down(within=self.interval / 2):
            return  # it failed a moment ago: the next timer tick tries again, not every notification
        try:
            while outbox.relay(sender=self.sender, sent_rows=self.sent) == outbox.BATCH:
                pass
            if self.sent.due():
                self.sent.forget()
            if self.database_down:
                log.warning("database back; outbox relay resumed")
            self.database_down = False
        except Exception as exc:
            self.failed(exc)

    def failed(self, exc: BaseException) -> None:
        if not self.database_down:
            log.warning("outbox relay paused: database unreachable (%s)", type(exc).__name__)
        self.database_down = True
        connection.close()


def _poll_loop(interval: float, stop: threading.Event) -> None:
    relay = _Relay(interval)
    while not stop.is_set():
        relay.run()
        stop.wait(interval)
    _close(relay)


def _listen_loop(interval: float, stop: threading.Event) -> None:
    relay = _Relay(interval)
    while not stop.is_set():
        try:
            with closing(_listener()) as listener:
                _lead_or_poll(listener, relay, stop)
        except Exception as exc:  # the listening connection failed: reconnect after an interval
            relay.failed(exc)
            stop.wait(interval)
    _close(relay)


def _lead_or_poll(listener: Any, relay: _Relay, stop: threading.Event) -> None:
    leading = False
    while not stop.is_set():
        if not leading and listener.execute("SELECT pg_try_advisory_lock(%s)", [LEAD_LOCK]).fetchone()[0]:
            listener.execute(f"LISTEN {CHANNEL}")
            leading = True
            log.info("outbox relay leads: publishing on notification")
        relay.run()
        if leading:  # sent rows waiting for their delete wake it within a second
            wait = min(relay.interval, handoff.FORGET_EVERY) if relay.sent.waiting else relay.interval
            _await_notification(listener, wait, stop)
        else:
            stop.wait(relay.interval)


def _close(relay: _Relay) -> None:
    try:
        relay.sent.forget()
    finally:
        relay.sender.close()
        connection.close()


def _await_notification(listener: Any, timeout: float, stop: threading.Event) -> None:
    """Returns on the first notification (or after `timeout`, or soon after `stop`), having also
    taken every one that came meanwhile: one run of the relay publishes all of them."""
    deadline = time.monotonic() + timeout
    while not stop.is_set() and (remaining := deadline - time.monotonic()) > 0:
        # A notifies() generator holds the connection until it is closed: one at a time.
        with closing(listener.notifies(timeout=min(remaining, 1.0), stop_after=1)) as notified:
            if next(notified, None) is None:
                continue
        with closing(listener.notifies(timeout=0)) as meanwhile:
            for _ in meanwhile:
                pass
        return


def _listener() -> Any:
    """A connection of its own (autocommit): its session holds the lead and receives the
    notifications; nothing else runs on it."""
    database = connections[DEFAULT_DB_ALIAS]
    listener = database.get_new_connection(database.get_connection_params())
    listener.autocommit = True
    return listener

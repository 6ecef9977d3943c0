"""Refused webhook requests are counted, not logged one by one (a log line per request would let
anyone flood the logs). One summary line per minute at most, with the count since the last one."""

from __future__ import annotations

import logging
import threading
import time

from django.http import HttpRequest

from newsdesk.clients import client_address

log = logging.getLogger(__name__)
REPORT_EVERY = 60.0


class _Counter:
    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.total = 0
        self.unreported = 0
        self.last_report = 0.0

    def add(self) -> int | None:
        """Counts one; returns the count to report when a report is due."""
        with self.lock:
            self.total += 1
            self.unreported += 1
            now = time.monotonic()
            if now - self.last_report < REPORT_EVERY:
                return None
            due, self.unreported, self.last_report = self.unreported, 0, now
            return due


refused = _Counter()


def count_refused(request: HttpRequest) -> None:
    due = refused.add()
    if due is not None:
        log.warning(
            "telegram webhook: %d request(s) refused for a wrong secret (last from %s; %d since start)",
            due,
            client_address(request),
            refused.total,
        )

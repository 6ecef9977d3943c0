"""Django's PostgreSQL backend, without the health check of a connection that just committed.

With persistent connections and CONN_HEALTH_CHECKS, Django sends `SELECT 1` before the first query
of every request on a reused connection: one round trip more on each webhook update, whose whole
work is a three-statement transaction. A connection that committed a moment ago is known to
work, so it is not probed; one idle for longer still is. What a connection lost within that moment
costs is one request answered 503 (newsdesk.outage), after which Django closes it: Telegram sends
the update again, a browser retries.
"""

from __future__ import annotations

import time

from django.db.backends.postgresql import base

RECENT_SECONDS = 1.0


class DatabaseWrapper(base.DatabaseWrapper):
    committed_at = float("-inf")
    health_check_done: bool

    def commit(self) -> None:
        super().commit()
        self.committed_at = time.monotonic()

    def close_if_health_check_failed(self) -> None:
        if not self.health_check_done and time.monotonic() - self.committed_at < RECENT_SECONDS:
            self.health_check_done = True
            return
        super().close_if_health_check_failed()

    def close(self) -> None:
        super().close()
        self.committed_at = float("-inf")  # a new connection is probed like any other

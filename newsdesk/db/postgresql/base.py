"""Django's PostgreSQL backend, without the health check of a connection that just answered.

With persistent connections and CONN_HEALTH_CHECKS, Django sends `SELECT 1` before the first query
of every request on a reused connection: one round trip more on each webhook update, whose whole
work is one statement. A connection that answered a statement (or a commit) a moment ago is known
to work, so it is not probed; one idle for longer still is. What a connection lost within that
moment costs is one request answered 503 (newsdesk.outage), after which Django closes it: Telegram
sends the update again, a browser retries.
"""

from __future__ import annotations

import time
from types import TracebackType

from django.db.backends.postgresql import base
from django.db.utils import DatabaseErrorWrapper
from django.utils.functional import cached_property

RECENT_SECONDS = 1.0


class _RecordingErrorWrapper(DatabaseErrorWrapper):
    """Django's wrapper around every statement, commit and connect, noting when one succeeded."""

    wrapper: DatabaseWrapper

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc_value: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        if exc_type is None:
            self.wrapper.answered_at = time.monotonic()
            return
        super().__exit__(exc_type, exc_value, traceback)


class DatabaseWrapper(base.DatabaseWrapper):
    answered_at = float("-inf")
    health_check_done: bool

    @cached_property
    def wrap_database_errors(self) -> DatabaseErrorWrapper:
        return _RecordingErrorWrapper(self)

    def close_if_health_check_failed(self) -> None:
        if not self.health_check_done and time.monotonic() - self.answered_at < RECENT_SECONDS:
            self.health_check_done = True
            return
        super().close_if_health_check_failed()

    def close(self) -> None:
        super().close()
        self.answered_at = float("-inf")  # a new connection is probed like any other

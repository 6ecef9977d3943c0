"""A worker thread keeps its database connection from one task to the next.

Celery's Django fixup closes every connection before and after every task unless
CELERY_DB_REUSE_MAX is set; each Telegram update then paid a new PostgreSQL connection (a server
process and its startup round trips), most of the time a handled update took. Connections now
go only when newsdesk.celery's own check finds them old (CONN_MAX_AGE) or broken."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from celery.fixups.django import DjangoWorkerFixup

from newsdesk.celery import app


class _Connection:
    alias = "default"

    def __init__(self) -> None:
        self.closed = 0

    def close(self) -> None:
        self.closed += 1


def test_a_hundred_tasks_in_a_row_keep_the_threads_connection(monkeypatch: pytest.MonkeyPatch) -> None:
    fixup = DjangoWorkerFixup(app)
    connection = _Connection()
    monkeypatch.setattr(fixup._db.connections, "all", lambda **_: [connection])
    task = SimpleNamespace(request=SimpleNamespace(is_eager=False))

    for _ in range(100):
        fixup.on_task_prerun(task)  # type: ignore[arg-type]
        fixup.on_task_postrun(task)  # type: ignore[arg-type]

    assert connection.closed == 0

"""Who runs a row right now: an owner ("host:pid:token") and its heartbeat.

Celery on Redis redelivers a message only after the visibility timeout (an hour by default), and a
message may also arrive twice. So a task never trusts the broker to say whether it should run: it
takes the row with one conditional UPDATE (free = nobody owns it, its owner went silent, or its
owner was a process of this machine that no longer exists), then proves it is alive by touching
`heartbeat_at` every few seconds from a side thread. A row whose heartbeat went stale is taken over
by the next delivery, which the sweeper sends within a couple of minutes.
"""

from __future__ import annotations

import logging
import os
import socket
import threading
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import connection
from django.db.models import Model, Q
from django.utils import timezone

log = logging.getLogger(__name__)
HOST = socket.gethostname()


def new_owner() -> str:
    return f"{HOST}:{os.getpid()}:{uuid.uuid4().hex[:8]}"


def heartbeat_every() -> float:
    return float(settings.NEWSDESK_HEARTBEAT_SECONDS)


def stale_after() -> timedelta:
    return timedelta(seconds=settings.NEWSDESK_HEARTBEAT_STALE_SECONDS)


def owner_gone(owner: str) -> bool:
    """True when `owner` was a process on this machine that has exited (a killed pool child)."""
    host, _, rest = owner.partition(":")
    pid_text = rest.partition(":")[0]
    if host != HOST or not pid_text.isdigit():
        return False
    pid = int(pid_text)
    if pid == os.getpid():
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    except PermissionError:
        return False
    return _is_zombie(pid)


def _is_zombie(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] == "Z"
    except (OSError, IndexError):
        return False


def silent_q(now: Any = None) -> Q:
    """Rows whose owner stopped beating (or never did and was claimed long ago)."""
    limit = (now or timezone.now()) - stale_after()
    return Q(owner="") | Q(heartbeat_at__lt=limit) | Q(heartbeat_at__isnull=True)


def reclaim(model: type[Model], *, pk: int, base: Q, owner: str) -> bool:
    """A task retrying after a database blip takes back the row it claimed before the blip (it
    could not release it), unless someone took it over meanwhile; not counted as an attempt."""
    return model._default_manager.filter(base, pk=pk, owner=owner).update(heartbeat_at=timezone.now()) == 1


def take_over(model: type[Model], *, pk: int, base: Q, owner: str, **updates: Any) -> bool:
    """Claims a row held by an owner that died on this machine: one compare-and-set on its owner."""
    previous = model._default_manager.filter(base, pk=pk).values_list("owner", flat=True).first()
    if not previous or not owner_gone(str(previous)):
        return False
    now = timezone.now()
    taken = model._default_manager.filter(base, pk=pk, owner=previous).update(
        owner=owner, heartbeat_at=now, **updates
    )
    return taken == 1


@contextmanager
def heartbeat(model: type[Model], *, pk: int, owner: str, enabled: bool = True) -> Iterator[None]:
    """Touches the row's heartbeat from a daemon thread while the body runs."""
    every = heartbeat_every()
    if not enabled or every <= 0:
        yield
        return
    stop = threading.Event()
    thread = threading.Thread(
        target=_beat, args=(model, pk, owner, every, stop), name=f"heartbeat-{pk}", daemon=True
    )
    thread.start()
    try:
        yield
    finally:
        stop.set()
        thread.join(timeout=every + 5)


def _beat(model: type[Model], pk: int, owner: str, every: float, stop: threading.Event) -> None:
    try:
        while not stop.wait(every):
            try:
                model._default_manager.filter(pk=pk, owner=owner).update(heartbeat_at=timezone.now())
            except Exception as exc:  # the database is away: the next beat tries on a new connection
                log.info("heartbeat of %s %s skipped: %s", model.__name__, pk, type(exc).__name__)
                connection.close()
    finally:
        connection.close()  # this thread's own connection

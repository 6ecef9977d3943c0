"""The one enqueue path of the product: record a task message with the work, publish it after commit.

Services call `enqueue(task=..., args=..., key=...)` inside the transaction that stores the work
(a run, an upload) and never import a task module: the message names its task. The hottest path,
a Telegram update, stores its row and its message in one statement (`create_once`). Once the
work is committed, one publish is attempted at once (in the web process by a thread of its own,
after the response: agents.publisher); if the broker is away the row stays and `relay()` (a loop
in every worker, see `start_relay`) publishes it within seconds of the broker's return.
Publishing twice is harmless: every task claims its row before doing anything.
"""

from __future__ import annotations

import functools
import logging
import threading
import time
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, IntegrityError, connection, connections, transaction
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models import Field, Model, Q
from django.utils import timezone

from agents import publishing
from agents.models import OutboxMessage
from agents.publisher import publisher

log = logging.getLogger(__name__)
LEASE = timedelta(seconds=30)  # one publisher at a time per row; a crashed one frees it after this
BATCH = 200
MESSAGE_COLUMNS = ("task", "args", "key", "created_at", "not_before", "claimed_until", "attempts")


def enqueue(*, task: str, args: list[Any], key: str, countdown: float = 0) -> OutboxMessage:
    """Records the message in the caller's transaction; publishes it once that commits.

    `countdown` delays the task (the broker holds it), counted from now, not from publishing.
    """
    now = timezone.now()
    not_before = now + timedelta(seconds=countdown) if countdown > 0 else None
    # Created leased to this process: the attempt right after commit needs neither a claim nor a
    # re-read (two statements fewer on every accepted request); the relay takes the row only if
    # that attempt fails (it releases the lease) or this process dies first (the lease expires).
    message = OutboxMessage.objects.create(
        task=task, args=args, key=key, not_before=not_before, claimed_until=now + LEASE
    )
    transaction.on_commit(lambda: _after_commit(message))
    return message


def create_once(instance: Model, *, unique: str, task: str, key_prefix: str) -> OutboxMessage | None:
    """Inserts `instance` unless a row with its `unique` value exists, together with the message
    of `task(instance.pk)` keyed `key_prefix + pk`; returns the message, or None (nothing written)
    for a duplicate.

    On PostgreSQL both rows go in one statement: no BEGIN and COMMIT round trips, no exception for a
    duplicate, and none of the ORM's per-save work (the webhook's whole work is this). Elsewhere
    (SQLite) in one transaction.
    """
    db = connections[DEFAULT_DB_ALIAS]  # once: each use of the `connection` proxy is a lookup
    if db.vendor != "postgresql":
        try:
            with transaction.atomic():
                instance.save(force_insert=True)
                return enqueue(task=task, args=[instance.pk], key=f"{key_prefix}{instance.pk}")
        except IntegrityError:
            return None
    sql, params, message = _insert_with_message(db, instance, unique=unique, task=task, key_prefix=key_prefix)
    with db.cursor() as cursor:
        cursor.execute(sql, params)
        row = cursor.fetchone()
    if row is None:
        return None
    message.pk, instance.pk = row
    message.args = [instance.pk]
    message.key = f"{key_prefix}{instance.pk}"
    instance._state.adding = False
    transaction.on_commit(lambda: _after_commit(message))
    return message


def _insert_with_message(
    db: BaseDatabaseWrapper, instance: Model, *, unique: str, task: str, key_prefix: str
) -> tuple[str, list[Any], OutboxMessage]:
    sql, fields = _insert_with_message_sql(type(instance), unique)
    values = [field.get_db_prep_save(field.pre_save(instance, True), db) for field in fields]
    now = timezone.now()
    message = OutboxMessage(task=task, created_at=now, claimed_until=now + LEASE)
    return sql, [*values, task, key_prefix, now, message.claimed_until], message


@functools.cache
def _insert_with_message_sql(model: type[Model], unique: str) -> tuple[str, list[Field[Any, Any]]]:
    """`WITH new AS (INSERT … ON CONFLICT DO NOTHING RETURNING pk) INSERT INTO outbox … FROM new`."""
    meta = model._meta
    fields = [field for field in meta.concrete_fields if not field.primary_key]
    conflict = meta.get_field(unique)
    if not (isinstance(conflict, Field) and conflict.unique):
        raise ValueError(f"{model.__name__}.{unique} is not a unique field")
    table, outbox = _quote(meta.db_table), _quote(OutboxMessage._meta.db_table)
    pk = _quote(meta.pk.column if meta.pk else "id")
    # Only identifiers from the models' metadata, quoted, are formatted in; every value is a parameter.
    sql = (
        f"WITH new AS (INSERT INTO {table} ({', '.join(_quote(f.column) for f in fields)}) "  # noqa: S608
        f"VALUES ({', '.join(['%s'] * len(fields))}) "
        f"ON CONFLICT ({_quote(conflict.column)}) DO NOTHING RETURNING {pk}) "
        f"INSERT INTO {outbox} ({', '.join(map(_quote, MESSAGE_COLUMNS))}) "
        f"SELECT %s, jsonb_build_array(new.{pk}), %s || new.{pk}, %s, NULL, %s, 0 FROM new "
        f"RETURNING {outbox}.{_quote('id')}, (SELECT {pk} FROM new)"
    )
    return sql, fields


def _quote(name: str | None) -> str:
    return connection.ops.quote_name(str(name))


def _after_commit(message: OutboxMessage) -> None:
    if publisher.enabled:
        publisher.submit(message)
    else:
        publish_now(message)


def pending(key: str) -> bool:
    """True if a message for `key` is recorded and not yet handed to the broker."""
    return OutboxMessage.objects.filter(key=key).exists()


def publish_now(message: OutboxMessage) -> bool:
    """The attempt right after commit, on the row this process created leased; never raises (the
    work is stored, the relay has it)."""
    try:
        return _send(message, skip_if_recently_down=True)
    except Exception as exc:  # the database went away between commit and here: the lease expires
        log.info("outbox %s left for the relay: %s", message.pk, type(exc).__name__)
        return False


def relay(limit: int = BATCH) -> int:
    """Publishes the oldest recorded messages; stops at the first broker failure. Returns how many."""
    sent = 0
    for pk in OutboxMessage.objects.filter(_free()).values_list("pk", flat=True)[:limit]:
        if not _publish(pk):
            if publishing.broker.down_since is not None:
                break
            continue
        sent += 1
    return sent


def _free() -> Q:
    return Q(claimed_until__isnull=True) | Q(claimed_until__lt=timezone.now())


def _publish(pk: int) -> bool:
    """The relay's publish: claims the row first (another relay may be at it)."""
    if not OutboxMessage.objects.filter(_free(), pk=pk).update(claimed_until=timezone.now() + LEASE):
        return False  # another publisher has it, or it is gone
    return _send(OutboxMessage.objects.get(pk=pk))


def _send(message: OutboxMessage, *, skip_if_recently_down: bool = False) -> bool:
    """Publishes a message this process holds the lease of; sent → the row goes, failed → the
    lease is released for the relay."""
    if publishing.send([message], skip_if_recently_down=skip_if_recently_down):
        publishing.forget([message.pk])
        return True
    publishing.release([message.pk])
    return False


# --- the relay loop in each worker --------------------------------------------------------------
_relay_started = threading.Event()


def start_relay() -> None:
    """Starts the relay thread of this worker process (once); every worker runs one."""
    interval = float(settings.NEWSDESK_OUTBOX_RELAY_SECONDS)
    if interval <= 0 or _relay_started.is_set():
        return
    _relay_started.set()
    threading.Thread(target=_relay_loop, args=(interval,), name="outbox-relay", daemon=True).start()


def _relay_loop(interval: float) -> None:
    database_down = False
    while True:
        try:
            relay()
            if database_down:
                log.warning("database back; outbox relay resumed")
            database_down = False
        except Exception as exc:
            if not database_down:
                log.warning("outbox relay paused: database unreachable (%s)", type(exc).__name__)
            database_down = True
            connection.close()
        time.sleep(interval)

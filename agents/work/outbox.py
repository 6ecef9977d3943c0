"""The one enqueue path of the product: record a task message with the work; a relay or the
recording process hands it to the broker once it is committed.

Services call `enqueue(task=..., args=..., key=...)` inside the transaction that stores the work
(a run, an upload) and never import a task module: the message names its task. The hottest path,
a Telegram update, stores its row and its message in one statement (`create_once`).

Who publishes (settings.NEWSDESK_RELAY_ON_NOTIFY):
- On PostgreSQL, the workers: the insert notifies them and the relay holding the lead publishes
  at once (agents.work.relay), so the web process never talks to the broker.
- Elsewhere (SQLite), the process that recorded the message, right after commit (the web process
  from a thread of its own, after the response: agents.work.after_response), and the workers' relays poll
  for whatever that attempt left (the broker away, the process gone).
Publishing twice is harmless: every task claims its row before doing anything.
"""

from __future__ import annotations

import functools
import json
import logging
from datetime import UTC, datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, IntegrityError, connection, connections, transaction
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models import Field, Model
from django.utils import timezone
from django.utils.dateparse import parse_datetime

from agents.models import OutboxMessage
from agents.work import handoff
from agents.work.after_response import publisher

log = logging.getLogger(__name__)
LEASE = timedelta(seconds=30)  # one publisher at a time per row; a crashed one frees it after this
BATCH = 200
MESSAGE_COLUMNS = ("task", "args", "key", "created_at", "not_before", "claimed_until", "attempts")


def enqueue(*, task: str, args: list[Any], key: str, countdown: float = 0) -> OutboxMessage:
    """Records the message in the caller's transaction; publishes it once that commits.

    `countdown` delays the task (the broker holds it), counted from now, not from handoff.
    """
    now = timezone.now()
    not_before = now + timedelta(seconds=countdown) if countdown > 0 else None
    message = OutboxMessage.objects.create(
        task=task, args=args, key=key, not_before=not_before, claimed_until=_own_lease(now)
    )
    _publish_once_committed(message)
    return message


def _own_lease(now: datetime) -> datetime | None:
    """Where this process publishes what it records, the row is created leased to it: the attempt
    right after commit needs neither a claim nor a re-read, and the relay takes the row only if
    that attempt fails (it releases the lease) or the process dies first (the lease expires).
    Where the relays publish, the row is free for them at once."""
    return None if settings.NEWSDESK_RELAY_ON_NOTIFY else now + LEASE


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
    _publish_once_committed(message)
    return message


def _insert_with_message(
    db: BaseDatabaseWrapper, instance: Model, *, unique: str, task: str, key_prefix: str
) -> tuple[str, list[Any], OutboxMessage]:
    sql, fields = _insert_with_message_sql(type(instance), unique)
    values = [field.get_db_prep_save(field.pre_save(instance, True), db) for field in fields]
    now = timezone.now()
    message = OutboxMessage(task=task, created_at=now, claimed_until=_own_lease(now))
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


def _publish_once_committed(message: OutboxMessage) -> None:
    if not settings.NEWSDESK_RELAY_ON_NOTIFY:  # otherwise the insert notified the relays
        transaction.on_commit(lambda: _after_commit(message))


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


def relay(
    limit: int = BATCH,
    *,
    sender: handoff.Sender | None = None,
    sent_rows: handoff.SentRows | None = None,
) -> int:
    """Publishes the oldest recorded messages nobody holds, as one batch; returns how many went out
    (it stops at the first broker failure and releases the rest). A relay thread passes its own
    `sender` (kept between batches) and `sent_rows`, which collects the sent rows for it to delete
    later in one statement (they stay leased meanwhile); otherwise they are deleted at once."""
    batch = _claim(limit)
    if not batch:
        return 0
    sent = sender.send(batch, skip_if_recently_down=False) if sender else handoff.send(batch)
    if sent and sent_rows is None:
        handoff.forget([message.pk for message in batch[:sent]])
    elif sent and sent_rows is not None:
        sent_rows.add(message.pk for message in batch[:sent])
    if unsent := batch[sent:]:
        handoff.release(unsent)
    return sent


def _claim(limit: int) -> list[OutboxMessage]:
    """Leases up to `limit` free messages, oldest first, in one statement (another relay skips the
    rows this one locked, where the database can say so)."""
    now = timezone.now()
    lease = now + LEASE  # also this claim's token: rows are released only while it holds
    table = _quote(OutboxMessage._meta.db_table)
    skip = " FOR UPDATE SKIP LOCKED" if connection.features.has_select_for_update_skip_locked else ""
    sql = (
        f"UPDATE {table} SET claimed_until = %s WHERE id IN (SELECT id FROM {table} "  # noqa: S608
        f"WHERE claimed_until IS NULL OR claimed_until < %s ORDER BY id LIMIT %s{skip}) "
        "RETURNING id, task, args, not_before, attempts"
    )
    with connection.cursor() as cursor:
        # The lease as the ORM writes it (SQLite stores text): release() compares it for equality.
        cursor.execute(sql, [connection.ops.adapt_datetimefield_value(lease), now, limit])
        rows = sorted(cursor.fetchall())
    # The rows as they are read, not through a RawQuerySet: at one message a notification, its
    # per-query set-up was a quarter of the relay's work.
    return [
        OutboxMessage(
            pk=pk,
            task=task,
            args=_json(args),
            not_before=_moment(not_before),
            attempts=attempts,
            claimed_until=lease,
        )
        for pk, task, args, not_before, attempts in rows
    ]


def _json(value: Any) -> Any:
    return json.loads(value) if isinstance(value, (str, bytes)) else value


def _moment(value: datetime | str | None) -> datetime | None:
    """A timestamp as the driver gives it: PostgreSQL's aware datetime, or SQLite's UTC text."""
    if value is None or isinstance(value, datetime):
        return value
    parsed = parse_datetime(value)
    return parsed if parsed is None or parsed.tzinfo else parsed.replace(tzinfo=UTC)


def _send(message: OutboxMessage, *, skip_if_recently_down: bool = False) -> bool:
    """Publishes a message this process holds the lease of; sent → the row goes, failed → the
    lease is released for the relay."""
    if handoff.send([message], skip_if_recently_down=skip_if_recently_down):
        handoff.forget([message.pk])
        return True
    handoff.release([message])
    return False

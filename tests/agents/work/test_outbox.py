"""The outbox: work is recorded with its task message, published after commit or by the relay."""

from __future__ import annotations

import logging
import os
import time
from typing import Any

import pytest
from django.db import OperationalError as DatabaseOperationalError
from kombu.exceptions import OperationalError

from agents.models import OutboxMessage, Run
from agents.services import draft_create
from agents.work import after_response, handoff, outbox
from agents.work.after_response import _Publisher
from tests.fixtures.press import PRESS_RELEASE

pytestmark = pytest.mark.django_db
DATA = "보도자료 본문".encode()


class Sent(list[tuple[str, list[Any]]]):
    """What reached the broker; `down["down"] = True` makes every publish fail as Redis would."""

    down: dict[str, bool]


@pytest.fixture
def broker(monkeypatch: pytest.MonkeyPatch) -> Sent:
    sent = Sent()
    sent.down = {"down": False}

    def publish_one(producer: Any, *, task: str, args: list[Any], countdown: float | None) -> None:
        if sent.down["down"]:
            raise OperationalError("Error 111 connecting to 127.0.0.1:6399. Connection refused.")
        sent.append((task, args))

    monkeypatch.setattr(handoff, "publish_one", publish_one)
    monkeypatch.setattr(handoff, "broker", handoff._BrokerState())
    return sent


def test_a_run_is_published_once_its_row_is_committed_and_leaves_the_outbox(
    reporter, broker, django_capture_on_commit_callbacks
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        run = draft_create(reporter=reporter, press_release=PRESS_RELEASE)

    assert broker == [("agents.tasks.draft_run", [run.pk])]
    assert not OutboxMessage.objects.exists()


def test_with_the_broker_down_the_run_stays_queued_in_the_outbox_and_the_relay_sends_it_later(
    reporter, broker, django_capture_on_commit_callbacks
) -> None:
    broker.down["down"] = True
    with django_capture_on_commit_callbacks(execute=True):
        run = draft_create(reporter=reporter, press_release=PRESS_RELEASE)

    assert Run.objects.get(pk=run.pk).status == Run.Status.QUEUED
    assert OutboxMessage.objects.get().key == f"run:{run.pk}"
    assert outbox.relay() == 0  # still down

    broker.down["down"] = False
    assert outbox.relay() == 1
    assert broker == [("agents.tasks.draft_run", [run.pk])]
    assert not OutboxMessage.objects.exists()


def test_a_broker_outage_is_logged_once_when_it_starts_and_once_when_it_ends(
    reporter, broker, django_capture_on_commit_callbacks, caplog: pytest.LogCaptureFixture
) -> None:
    broker.down["down"] = True
    with caplog.at_level(logging.INFO, logger="agents"):
        for _ in range(5):
            with django_capture_on_commit_callbacks(execute=True):
                draft_create(reporter=reporter, press_release=PRESS_RELEASE)
            outbox.relay()
        broker.down["down"] = False
        assert outbox.relay() == 5

    lines = [r.getMessage() for r in caplog.records if r.name.startswith("agents.")]
    assert len(lines) == 2, lines
    assert "unreachable" in lines[0] and "back after" in lines[1]
    assert all(r.exc_info is None for r in caplog.records)


def test_a_message_leased_by_one_publisher_is_not_sent_by_another(reporter, broker) -> None:
    from django.utils import timezone

    held = OutboxMessage.objects.create(
        task="agents.tasks.draft_run", args=[1], key="run:1", claimed_until=timezone.now() + outbox.LEASE
    )
    assert outbox.relay() == 0  # leased to the process that recorded it

    OutboxMessage.objects.filter(pk=held.pk).update(claimed_until=None)  # its attempt failed
    assert outbox.relay() == 1
    assert outbox.relay() == 0  # gone once sent
    assert broker == [("agents.tasks.draft_run", [1])]


def test_a_relay_sends_what_waits_oldest_first_in_one_batch_and_releases_what_the_broker_refused(
    reporter, broker, monkeypatch: pytest.MonkeyPatch
) -> None:
    for n in range(5):
        OutboxMessage.objects.create(task="agents.tasks.draft_run", args=[n], key=f"run:{n}")
    refuse_after = handoff.publish_one

    def third_refused(producer: Any, *, task: str, args: list[Any], countdown: float | None) -> None:
        if args == [2]:
            raise OperationalError("Error 111 connecting to 127.0.0.1:6399. Connection refused.")
        refuse_after(producer, task=task, args=args, countdown=countdown)

    monkeypatch.setattr(handoff, "publish_one", third_refused)
    assert outbox.relay() == 2

    assert broker == [("agents.tasks.draft_run", [0]), ("agents.tasks.draft_run", [1])]
    left = OutboxMessage.objects.order_by("pk")
    assert [(m.args, m.claimed_until, m.attempts) for m in left] == [([n], None, 1) for n in (2, 3, 4)]


def test_a_relay_whose_lease_ran_out_mid_publish_does_not_free_the_row_another_relay_holds_now(
    reporter, broker, monkeypatch: pytest.MonkeyPatch
) -> None:
    from datetime import timedelta

    from django.utils import timezone

    OutboxMessage.objects.create(task="agents.tasks.draft_run", args=[7], key="run:7")
    taken_by_b: list[OutboxMessage] = []

    def slow_then_refused(producer: Any, *, task: str, args: list[Any], countdown: float | None) -> None:
        # Relay A's lease runs out while it publishes; relay B claims the row, then A's publish fails.
        OutboxMessage.objects.update(claimed_until=timezone.now() - timedelta(seconds=1))
        taken_by_b.extend(outbox._claim(10))
        raise OperationalError("Error 111 connecting to 127.0.0.1:6399. Connection refused.")

    monkeypatch.setattr(handoff, "publish_one", slow_then_refused)
    assert outbox.relay() == 0  # relay A: claimed, then refused by the broker

    [row] = OutboxMessage.objects.all()
    [held] = taken_by_b
    assert row.claimed_until == held.claimed_until is not None  # still B's: nobody else may send it
    assert row.attempts == 0


def test_services_record_work_and_never_import_the_task_modules() -> None:
    import ast
    from pathlib import Path

    root = Path(__file__).resolve().parents[3]
    faces = [*root.glob("agents/services/*.py"), root / "agents/monitoring/services.py"]
    faces += [p for p in root.glob("newsdesk/telegram/*.py") if p.name != "tasks.py"]
    for path in faces:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom):
                names = [f"{node.module}.{a.name}" for a in node.names]
                assert not any(n.endswith(".tasks") or ".tasks." in n for n in names), (path, names)


def test_an_upload_does_not_wait_for_extraction_while_the_broker_is_away(
    reporter, broker, django_capture_on_commit_callbacks
) -> None:
    from agents.services import upload_await, upload_receive

    broker.down["down"] = True
    with django_capture_on_commit_callbacks(execute=True):
        upload = upload_receive(
            reporter=reporter, file_name="a.txt", mime_type="text/plain", data="보도자료".encode()
        )

    started = time.monotonic()
    assert upload_await(upload=upload, timeout=20).status == "pending"
    assert time.monotonic() - started < 2
    assert OutboxMessage.objects.get().task == "agents.tasks.extract_upload"


def test_where_the_relays_publish_an_upload_stops_waiting_once_its_message_is_overdue(
    reporter, broker, settings, django_capture_on_commit_callbacks
) -> None:
    from agents.services import upload_await, upload_receive

    settings.NEWSDESK_RELAY_ON_NOTIFY = True
    settings.NEWSDESK_OUTBOX_RELAY_SECONDS = 0.2  # no relay runs: the message stays unsent
    with django_capture_on_commit_callbacks(execute=True):
        upload = upload_receive(reporter=reporter, file_name="a.txt", mime_type="text/plain", data=DATA)

    started = time.monotonic()
    assert upload_await(upload=upload, timeout=20).status == "pending"
    assert time.monotonic() - started < 2
    assert broker == []  # this process published nothing: the relays would have


@pytest.fixture
def publisher(monkeypatch: pytest.MonkeyPatch) -> _Publisher:
    """Publishing after the response, as in the web process; drained by hand unless a test starts
    the thread (it starts only where its process id is not yet recorded)."""
    one = _Publisher()
    one.enabled = True
    one.pid = os.getpid()
    monkeypatch.setattr(outbox, "publisher", one)
    return one


def test_after_the_response_a_committed_message_waits_leased_and_is_sent_with_the_others_in_one_batch(
    reporter, broker, publisher, django_capture_on_commit_callbacks
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        first = draft_create(reporter=reporter, press_release=PRESS_RELEASE)
    with django_capture_on_commit_callbacks(execute=True):
        second = draft_create(reporter=reporter, press_release=PRESS_RELEASE)

    assert broker == []  # the requests answered without the broker
    assert outbox.relay() == 0  # leased to this process: the relay leaves them alone
    assert publisher.drain() == 2
    assert broker == [("agents.tasks.draft_run", [first.pk]), ("agents.tasks.draft_run", [second.pk])]
    assert outbox.relay() == 0  # sent, and still leased until the batched delete: never sent twice
    publisher.forget_sent()
    assert not OutboxMessage.objects.exists()


def test_a_batch_the_broker_refuses_is_released_to_the_relay_which_sends_it_once_the_broker_is_back(
    reporter, broker, publisher, django_capture_on_commit_callbacks
) -> None:
    broker.down["down"] = True
    for _ in range(2):
        with django_capture_on_commit_callbacks(execute=True):
            draft_create(reporter=reporter, press_release=PRESS_RELEASE)

    assert publisher.drain() == 0
    assert list(OutboxMessage.objects.values_list("claimed_until", "attempts")) == [(None, 1), (None, 1)]
    broker.down["down"] = False
    handoff.broker.down_since = None  # a relay a few seconds later, with the broker back
    assert outbox.relay() == 2
    assert len(broker) == 2 and not OutboxMessage.objects.exists()


def test_a_publisher_that_cannot_reach_the_database_leaves_its_sent_rows_leased_and_does_not_raise(
    reporter, broker, publisher, django_capture_on_commit_callbacks, monkeypatch: pytest.MonkeyPatch
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        draft_create(reporter=reporter, press_release=PRESS_RELEASE)

    def database_gone(pks: list[int]) -> None:
        raise DatabaseOperationalError("server closed the connection unexpectedly")

    monkeypatch.setattr(handoff, "forget", database_gone)
    monkeypatch.setattr(after_response.connection, "close", lambda: None)  # the test's own stays

    assert publisher.drain() == 1
    publisher.forget_sent()
    assert len(broker) == 1  # published; the row stays leased until it expires, then the relay
    assert OutboxMessage.objects.get().claimed_until is not None  # resends it (tasks claim their rows)
    assert publisher.unfinished == 0 and publisher.sent.pks == []


@pytest.mark.django_db(transaction=True)  # the publisher thread reads on its own connection
def test_the_publisher_thread_starts_in_the_process_that_records_and_exit_waits_for_what_it_holds(
    reporter, broker, publisher
) -> None:
    publisher.pid = 0  # as in a freshly forked web worker
    runs = [draft_create(reporter=reporter, press_release=PRESS_RELEASE) for _ in range(3)]

    publisher.flush()

    assert publisher.pid == os.getpid()
    assert sorted(args[0] for _, args in broker) == sorted(run.pk for run in runs)
    assert not OutboxMessage.objects.exists()


def test_a_row_and_its_message_are_stored_once_by_their_unique_value(
    django_capture_on_commit_callbacks,
) -> None:
    from newsdesk.models import TelegramUpdate

    first = TelegramUpdate(update_id=77, payload={"update_id": 77, "message": {"text": "/help"}})
    again = TelegramUpdate(update_id=77, payload={"update_id": 77, "message": {"text": "다시"}})
    with django_capture_on_commit_callbacks() as callbacks:
        message = outbox.create_once(first, unique="update_id", task="t.handle", key_prefix="tg-update:")
        duplicate = outbox.create_once(again, unique="update_id", task="t.handle", key_prefix="tg-update:")

    assert message is not None and duplicate is None and len(callbacks) == 1
    stored = TelegramUpdate.objects.get()
    assert (first.pk, stored.payload["message"]["text"], stored.received_at) == (
        stored.pk,
        "/help",
        first.received_at,
    )
    row = OutboxMessage.objects.get()
    assert (row.pk, row.task, row.args, row.key) == (
        message.pk,
        "t.handle",
        [stored.pk],
        f"tg-update:{stored.pk}",
    )
    assert (message.args, message.key) == (row.args, row.key)
    assert row.claimed_until is not None and row.not_before is None  # leased to this process


def test_on_postgresql_the_row_and_its_message_go_in_one_statement() -> None:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from newsdesk.models import TelegramUpdate

    if connection.vendor != "postgresql":
        pytest.skip("one statement on PostgreSQL; a transaction of two elsewhere")
    with CaptureQueriesContext(connection) as queries:
        outbox.create_once(
            TelegramUpdate(update_id=5, payload={}), unique="update_id", task="t", key_prefix="k:"
        )
        outbox.create_once(
            TelegramUpdate(update_id=5, payload={}), unique="update_id", task="t", key_prefix="k:"
        )

    assert len(queries) == 2  # one each, the duplicate included (no exception, no savepoint)
    assert TelegramUpdate.objects.count() == OutboxMessage.objects.count() == 1


def test_a_field_that_is_not_unique_is_refused() -> None:
    from django.db import connection

    from newsdesk.models import TelegramUpdate

    if connection.vendor != "postgresql":
        pytest.skip("the statement is built on PostgreSQL only")
    with pytest.raises(ValueError, match="not a unique field"):
        outbox.create_once(TelegramUpdate(update_id=5, payload={}), unique="owner", task="t", key_prefix="k:")

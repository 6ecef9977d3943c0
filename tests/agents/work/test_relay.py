"""The outbox relay: on PostgreSQL one relay leads and publishes on notification; others poll."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from django.db import connection

from agents.models import OutboxMessage
from agents.work import handoff, outbox, relay
from newsdesk.models import TelegramUpdate

pytestmark = pytest.mark.django_db(transaction=True)  # relays read on connections of their own
INTERVAL = 1.0


class Broker(list[list[Any]]):
    """What reached the broker, in order."""

    def __init__(self) -> None:
        super().__init__()
        self.lock = threading.Lock()


@pytest.fixture
def broker(monkeypatch: pytest.MonkeyPatch) -> Broker:
    sent = Broker()

    def publish_one(producer: Any, *, task: str, args: list[Any], countdown: float | None) -> None:
        with sent.lock:
            sent.append(args)

    monkeypatch.setattr(handoff, "publish_one", publish_one)
    monkeypatch.setattr(handoff, "broker", handoff._BrokerState())
    return sent


@pytest.fixture
def relays() -> Iterator[Callable[..., threading.Event]]:
    """Starts relay threads (loop: "listen" or "poll"); each is stopped and joined at the end."""
    running: list[tuple[threading.Thread, threading.Event]] = []

    def start(loop: str, interval: float = INTERVAL) -> threading.Event:
        stop = threading.Event()
        target = relay._listen_loop if loop == "listen" else relay._poll_loop
        thread = threading.Thread(target=target, args=(interval, stop), daemon=True)
        thread.start()
        running.append((thread, stop))
        return stop

    yield start
    for _, stop in running:
        stop.set()
    for thread, _ in running:
        thread.join(timeout=10)


def wait_for(condition: Callable[[], bool], timeout: float = 10) -> float:
    started = time.monotonic()
    while not condition():
        assert time.monotonic() - started < timeout, "timed out"
        time.sleep(0.01)
    return time.monotonic() - started


def store_update(update_id: int) -> float:
    """What the webhook does on PostgreSQL; returns when it was committed."""
    update = TelegramUpdate(
        update_id=update_id, payload={"update_id": update_id, "message": {"text": "/help"}}
    )
    assert outbox.create_once(update, unique="update_id", task="t.handle", key_prefix="tg-update:")
    return time.monotonic()


@pytest.fixture
def on_notify(settings: Any) -> None:
    if connection.vendor != "postgresql":
        pytest.skip("NOTIFY is PostgreSQL's")
    settings.NEWSDESK_RELAY_ON_NOTIFY = True
    settings.NEWSDESK_OUTBOX_RELAY_SECONDS = INTERVAL


def test_where_the_relays_publish_the_web_records_a_free_row_and_publishes_nothing(
    on_notify: None, broker: Broker
) -> None:
    store_update(1)

    assert broker == []
    assert OutboxMessage.objects.get().claimed_until is None  # free for the relays at once


def test_the_leading_relay_publishes_a_stored_update_on_notification_not_on_its_poll(
    on_notify: None, broker: Broker, relays: Callable[..., threading.Event]
) -> None:
    relays("listen", interval=60)  # its next poll would come long after the test's patience
    wait_for(lambda: _lead_taken())

    for n in (1, 2, 3):
        store_update(n)
    wait_for(lambda: len(broker) == 3)

    assert sorted(broker) == [
        [pk] for pk in TelegramUpdate.objects.order_by("pk").values_list("pk", flat=True)
    ]
    wait_for(lambda: not OutboxMessage.objects.exists())


def test_one_relay_leads_and_when_it_stops_another_takes_the_lead_within_an_interval(
    on_notify: None, broker: Broker, relays: Callable[..., threading.Event]
) -> None:
    first = relays("listen")
    wait_for(lambda: _lead_taken())
    relays("listen")
    store_update(1)
    wait_for(lambda: len(broker) == 1)

    leader = _leader()
    first.set()  # its session ends, the lock with it
    wait_for(lambda: _leader() not in (None, leader), timeout=3 * INTERVAL + 5)
    store_update(2)
    wait_for(lambda: len(broker) == 2)

    assert sorted(broker) == [
        [pk] for pk in TelegramUpdate.objects.order_by("pk").values_list("pk", flat=True)
    ]


def test_polling_relays_send_what_the_recording_process_could_not(
    broker: Broker, relays: Callable[..., threading.Event], settings: Any
) -> None:
    settings.NEWSDESK_OUTBOX_RELAY_SECONDS = INTERVAL
    for n in range(3):
        OutboxMessage.objects.create(task="t", args=[n], key=f"k:{n}")  # the attempt after commit failed
    relays("poll")
    relays("poll")

    wait_for(lambda: len(broker) == 3)
    time.sleep(INTERVAL * 1.5)

    assert sorted(broker) == [[0], [1], [2]]  # each once, though two relays poll
    assert not OutboxMessage.objects.exists()


def test_a_relay_that_finds_the_broker_away_tries_again_once_an_interval_not_on_every_notification(
    on_notify: None, broker: Broker, relays: Callable[..., threading.Event], monkeypatch: pytest.MonkeyPatch
) -> None:
    from kombu.exceptions import OperationalError

    attempts: list[float] = []

    def refused(producer: Any, *, task: str, args: list[Any], countdown: float | None) -> None:
        attempts.append(time.monotonic())
        raise OperationalError("Error 111 connecting to 127.0.0.1:6399. Connection refused.")

    monkeypatch.setattr(handoff, "publish_one", refused)
    relays("listen")
    wait_for(lambda: _lead_taken())
    started = time.monotonic()
    for n in range(20):
        store_update(n)
        time.sleep(0.05)
    elapsed = time.monotonic() - started

    assert 1 <= len(attempts) <= elapsed / (INTERVAL / 2) + 2  # not one per notification (20)
    assert OutboxMessage.objects.filter(claimed_until__isnull=True).count() == 20  # all left for later


def _lead_taken() -> bool:
    return _leader() is not None


def _leader() -> int | None:
    """The database session (backend pid) holding the lead, if any."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND objid = %s AND granted",
            [relay.LEAD_LOCK & 0xFFFFFFFF],
        )
        row = cursor.fetchone()
    return int(row[0]) if row else None

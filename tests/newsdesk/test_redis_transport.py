"""kombu's Redis transport, with one client per channel for the commands it runs."""

from __future__ import annotations

import os
import uuid
from typing import Any

import pytest
from kombu import Connection, Queue

from conftest import test_broker_url as broker_url
from newsdesk.redis_transport import Transport

pytestmark = pytest.mark.skipif(
    not os.environ.get("NEWSDESK_TEST_BROKER_URL", "").startswith("redis"),
    reason="needs the Redis of CI's second pass (NEWSDESK_TEST_BROKER_URL)",
)


def test_a_channel_publishes_through_one_client_and_every_message_arrives(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    queue = Queue(f"test-transport-{uuid.uuid4().hex[:8]}")
    with Connection(broker_url(), transport=Transport) as connection:
        channel = connection.default_channel
        created: list[bool] = []
        make = channel._create_client

        def counted(*args: Any, **kwargs: Any) -> Any:
            created.append(kwargs.get("asynchronous", False))
            return make(*args, **kwargs)

        monkeypatch.setattr(channel, "_create_client", counted)
        producer = connection.Producer(channel)
        for n in range(5):
            producer.publish({"n": n}, routing_key=queue.name, declare=[queue], retry=False)

        with connection.SimpleQueue(queue) as simple:
            messages = [simple.get(timeout=2) for _ in range(5)]
            for message in messages:
                message.ack()
            commands_clients = created.count(False)
            simple.queue.delete()

    assert [message.payload["n"] for message in messages] == [0, 1, 2, 3, 4]
    assert commands_clients == 1  # kombu's own made one per command: a declare, 5 publishes, the gets


def test_a_new_pool_after_a_connection_error_gets_a_new_client() -> None:
    with Connection(broker_url(), transport=Transport) as connection:
        channel = connection.default_channel
        with channel.conn_or_acquire() as first:
            pass
        channel._disconnect_pools()  # what kombu does after a connection error
        with channel.conn_or_acquire() as second:
            assert second.ping()
        assert second is not first and second.connection_pool is channel.pool

"""kombu's Redis transport, with one Redis client per channel for the commands it runs.

kombu's `Channel.conn_or_acquire` builds a new `redis.Redis` for every command it runs without a
client, every publish's LPUSH among them. redis-py 8's constructor copies ~170 response callbacks
into a case-insensitive dict: 0.4 ms of CPU per message, more than the LPUSH itself, on the path
of every Telegram update the web process hands on. A client only wraps the channel's connection
pool, which is thread-safe and shared anyway, so one client per pool serves every such command.
The channel's consuming client (BRPOP) is kombu's own, untouched.

Selected by settings (CELERY_BROKER_TRANSPORT) for redis:// and rediss:// brokers.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from kombu.transport import redis


class Channel(redis.Channel):
    _command_client: Any = None

    @contextmanager
    def conn_or_acquire(self, client: Any = None) -> Iterator[Any]:
        if client:
            yield client
            return
        pool = self.pool  # kombu makes a new one after a connection error: follow it
        if self._command_client is None or self._command_client.connection_pool is not pool:
            self._command_client = self._create_client()  # type: ignore[attr-defined]
        yield self._command_client


class Transport(redis.Transport):
    Channel = Channel

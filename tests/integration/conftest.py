"""A real Celery worker process on Redis, against the test PostgreSQL database.

CI's second pass sets NEWSDESK_TEST_BROKER_URL (Redis) and DATABASE_URL (PostgreSQL); without
them these tests skip, because a worker process cannot share the test process's SQLite
transaction semantics or its in-memory broker.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import kombu.pools
import pytest
from django.conf import settings
from django.db import connection

from agents.work import handoff
from conftest import TEST_FERNET_KEY
from newsdesk.celery import app, use_broker
from tests.fakes.anthropic import FakeAnthropic
from tests.integration.harness import FAST_RECOVERY, RedisServer

ROOT = Path(__file__).resolve().parents[2]


class WorkerProcess:
    def __init__(
        self, env: dict[str, str], log: Path, pool: tuple[str, ...] = ("-Q", "llm,io", "-c", "2")
    ) -> None:
        self.env, self.log, self.pool = env, log, pool
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        command = [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "newsdesk",
            "worker",
            *self.pool,
            "-n",
            f"it-{uuid.uuid4().hex[:8]}@%h",
            "--without-gossip",
            "--without-mingle",
            "--loglevel",
            "INFO",
        ]
        with self.log.open("ab") as out:
            self.proc = subprocess.Popen(
                command, cwd=ROOT, env=self.env, stdout=out, stderr=subprocess.STDOUT
            )
        self._wait_ready()

    def _wait_ready(self, timeout: float = 120) -> None:  # a loaded CI machine is slow to import
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if b"ready." in self.log.read_bytes():
                return
            time.sleep(0.2)
        raise AssertionError(f"worker did not start:\n{self.log.read_text()[-3000:]}")

    def children(self) -> list[int]:
        assert self.proc is not None
        found = []
        for status in Path("/proc").glob("[0-9]*/stat"):
            try:
                fields = status.read_text().split()
            except OSError:
                continue
            if int(fields[3]) == self.proc.pid:
                found.append(int(fields[0]))
        return found

    def kill_children(self) -> None:
        for pid in self.children():
            os.kill(pid, signal.SIGKILL)

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.proc.kill()


@pytest.fixture
def worker(fake_llm: FakeAnthropic, tmp_path: Path) -> Iterator[WorkerProcess]:
    yield from _run_worker(fake_llm, tmp_path, ("-Q", "llm,io", "-c", "2"))


@pytest.fixture
def thread_worker(fake_llm: FakeAnthropic, tmp_path: Path) -> Iterator[WorkerProcess]:
    """The `llm` worker as `make run` starts it: one process, a pool of 32 threads."""
    yield from _run_worker(fake_llm, tmp_path, ("-Q", "llm", "-P", "threads", "-c", "32"))


def _run_worker(fake_llm: FakeAnthropic, tmp_path: Path, pool: tuple[str, ...]) -> Iterator[WorkerProcess]:
    broker = app.conf.broker_url
    if not str(broker).startswith("redis") or connection.vendor != "postgresql":
        pytest.skip("needs Redis and PostgreSQL (.ci/run sets NEWSDESK_TEST_BROKER_URL and DATABASE_URL)")
    db = connection.settings_dict
    host, port = db["HOST"] or "127.0.0.1", db["PORT"] or 5432
    env = {
        **os.environ,
        "DATABASE_URL": f"postgres://{db['USER']}@{host}:{port}/{db['NAME']}",
        "CELERY_BROKER_URL": str(broker),
        "ANTHROPIC_BASE_URL": fake_llm.base_url,
        "NEWSDESK_ENCRYPTION_KEYS": TEST_FERNET_KEY,
        "NEWSDESK_VAR_DIR": str(tmp_path / "var"),
        "ANTHROPIC_API_KEY": "",
        # The fake Telegram, when the test asked for it (its fixture sets these settings first).
        "TELEGRAM_BOT_TOKEN": settings.TELEGRAM_BOT_TOKEN,
        "TELEGRAM_API_BASE_URL": settings.TELEGRAM_API_BASE_URL,
        "TELEGRAM_FILE_BASE_URL": settings.TELEGRAM_FILE_BASE_URL,
    }
    with app.connection_for_write() as conn:  # messages left by other tests must not be picked up
        conn.default_channel.client.flushdb()
    process = WorkerProcess(env, tmp_path / "worker.log", pool)
    try:
        process.start()
        yield process
    finally:
        process.stop()


# --- our own Redis and the web side pointed at it (the fault tests) ------------------------------
@pytest.fixture
def redis(tmp_path: Path) -> Iterator[RedisServer]:
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL (.ci/run's second pass sets DATABASE_URL)")
    try:
        server = RedisServer(tmp_path / "redis")
    except RuntimeError as exc:
        pytest.skip(str(exc))
    server.start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def web_broker(redis: RedisServer, settings: Any) -> Iterator[None]:
    """Points this process (the web side of the test) at our Redis, with the production options."""
    for name, value in FAST_RECOVERY.items():
        setattr(settings, name, int(value))
    previous = app.conf.broker_url, app.conf.broker_transport_options, app.conf.broker_transport
    previous_state = handoff.broker
    _reset_pools()
    use_broker(redis.url())
    app.conf.broker_transport_options = {"max_retries": 1, "interval_start": 0, "socket_connect_timeout": 3}
    handoff.broker = handoff._BrokerState()
    try:
        yield
    finally:
        _reset_pools()
        app.conf.broker_url, app.conf.broker_transport_options, app.conf.broker_transport = previous
        handoff.broker = previous_state


def _reset_pools() -> None:
    # kombu keeps its connection and producer pools in process-wide registries keyed by broker
    # URL: closing only the app's pool would leave a closed pool there, and the next publish to
    # the same URL (any later test in this process) would fail with "Acquire on closed pool".
    kombu.pools.reset()
    app._pool = None
    app.amqp._producer_pool = None

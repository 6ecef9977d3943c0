"""Test-run wiring that must happen after Django's settings load and before any test."""

from __future__ import annotations

import os

import pytest

# Playwright's sync API runs an event loop in the test thread; Django must allow ORM use there.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

TEST_FERNET_KEY = "gQ5Nql6Z1XwV6Yk0uQkqg6bqG6B5m3b1yC3hQ1Zb0nE="


def pytest_configure(config: pytest.Config) -> None:
    from django.conf import settings

    from newsdesk import celery, crypto
    from newsdesk.celery import app

    settings.NEWSDESK_ENCRYPTION_KEYS = [TEST_FERNET_KEY]
    settings.ANTHROPIC_API_KEY = ""
    settings.NEWSDESK_LLM_TIMEOUT = 10
    # The outbox relay loop belongs to worker processes; an in-test worker thread must not start
    # one in the test process (the attempt right after commit still publishes).
    settings.NEWSDESK_OUTBOX_RELAY_SECONDS = 0
    # The test process publishes what it records, as the web process does on SQLite; the relay on
    # notification (PostgreSQL's default) has tests of its own and runs in the integration
    # suite's worker processes.
    settings.NEWSDESK_RELAY_ON_NOTIFY = False
    crypto.reset_cache()
    # Tests never publish to the laptop's filesystem broker (a dev worker would consume it).
    # With NEWSDESK_TEST_BROKER_URL (CI's second pass: Redis) each xdist process gets its own
    # Redis database, so one process's worker never takes another process's messages.
    celery.use_broker(test_broker_url())
    app.conf.broker_transport_options = {}


def test_broker_url() -> str:
    base = os.environ.get("NEWSDESK_TEST_BROKER_URL", "")
    if not base:
        return "memory://"
    worker = os.environ.get("PYTEST_XDIST_WORKER", "gw0")
    index = int(worker.removeprefix("gw") or 0)
    return f"{base.rsplit('/', 1)[0]}/{10 + index}" if base.startswith("redis") else base


def _flushes_database(item: pytest.Item) -> bool:
    marker = item.get_closest_marker("django_db")
    fixtures = getattr(item, "fixturenames", ())
    return bool(marker and marker.kwargs.get("transaction")) or any(
        name in fixtures for name in ("transactional_db", "live_server", "worker_thread")
    )


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_teardown(item: pytest.Item, nextitem: pytest.Item | None) -> object:
    yield
    # After the last test the session fixtures are gone too (the test database included).
    if nextitem is not None and _flushes_database(item):
        from pytest_django.plugin import blocking_manager_key

        from tests.seeds import reseed

        with item.config.stash[blocking_manager_key].unblock():
            reseed()

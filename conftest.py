"""Test-run wiring that must happen after Django's settings load and before any test."""

from __future__ import annotations

import os

import pytest

# Playwright's sync API runs an event loop in the test thread; Django must allow ORM use there.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

TEST_FERNET_KEY = "gQ5Nql6Z1XwV6Yk0uQkqg6bqG6B5m3b1yC3hQ1Zb0nE="


def pytest_configure(config: pytest.Config) -> None:
    from django.conf import settings

    from newsdesk import crypto
    from newsdesk.celery import app

    settings.NEWSDESK_ENCRYPTION_KEYS = [TEST_FERNET_KEY]
    settings.ANTHROPIC_API_KEY = ""
    settings.NEWSDESK_LLM_TIMEOUT = 10
    crypto.reset_cache()
    # Tests never publish to the laptop's filesystem broker (a dev worker would consume it);
    # integration tests that need a real broker point the app at Redis themselves.
    if not os.environ.get("NEWSDESK_TEST_BROKER_URL"):
        app.conf.broker_url = "memory://"
        app.conf.broker_transport_options = {}

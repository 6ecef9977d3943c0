from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.conf import settings

from agents.llm import client as llm
from agents.sources import publishers
from tests.factories import ReporterFactory
from tests.fakes.anthropic import FakeAnthropic
from tests.fakes.naver import FakeNaver
from tests.fakes.pages import FakePages
from tests.fakes.telegram import fake_telegram  # noqa: F401  (a fixture, re-exported)


@pytest.fixture
def fake_llm() -> Iterator[FakeAnthropic]:
    """The scripted Anthropic API; a test fails if a scripted call is left over or one was unexpected."""
    fake = FakeAnthropic()
    previous = settings.ANTHROPIC_BASE_URL
    settings.ANTHROPIC_BASE_URL = fake.base_url
    llm._new_client.cache_clear()
    try:
        yield fake
        fake.assert_complete()
    finally:
        settings.ANTHROPIC_BASE_URL = previous
        llm._new_client.cache_clear()
        fake.close()


@pytest.fixture
def reporter(db: None):
    return ReporterFactory(user__username="kim", anthropic_key="sk-ant-test-kim-0001")


@pytest.fixture
def other_reporter(db: None):
    return ReporterFactory(user__username="lee", anthropic_key="sk-ant-test-lee-0002")


@pytest.fixture
def fake_naver(settings: Any) -> Iterator[FakeNaver]:
    """The fake Naver search API, with the server's Naver settings pointing at it."""
    fake = FakeNaver()
    settings.NAVER_API_BASE_URL = fake.base_url
    settings.NAVER_CLIENT_ID = fake.client_id
    settings.NAVER_CLIENT_SECRET = fake.client_secret
    try:
        yield fake
    finally:
        fake.close()


@pytest.fixture
def pages(settings: Any) -> Iterator[FakePages]:
    """Fake article pages on loopback; loopback (and only loopback) is allowed for the scraper."""
    settings.NEWSDESK_SCRAPE_ALLOW_PRIVATE = True
    fake = FakePages()
    try:
        yield fake
    finally:
        fake.close()


@pytest.fixture(autouse=True)
def _fresh_publisher_cache() -> Iterator[None]:
    publishers.clear_cache()
    yield
    publishers.clear_cache()


@pytest.fixture
def worker_thread(transactional_db: None) -> Iterator[object]:
    """A real Celery worker consuming the llm and io queues in a thread of this process.

    The broker is the test one (in-memory, or Redis in CI's second pass); tests that use it need
    committed rows, hence the transactional database.
    """
    from celery.contrib.testing.worker import start_worker

    from newsdesk.celery import app

    with start_worker(
        app, pool="solo", concurrency=1, perform_ping_check=False, loglevel="WARNING", queues=["llm", "io"]
    ) as worker:
        yield worker


@pytest.fixture
def webhook_secret(settings: Any) -> str:
    settings.TELEGRAM_WEBHOOK_SECRET = "test-webhook-secret_0123"
    return str(settings.TELEGRAM_WEBHOOK_SECRET)


@pytest.fixture
def no_tesseract(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The machine as it is without Tesseract: the binary is not found."""
    from agents.sources.files import ocr

    monkeypatch.setattr(ocr, "TESSERACT_CMD", "/nonexistent/tesseract")
    ocr.ocr_available.cache_clear()
    yield
    ocr.ocr_available.cache_clear()

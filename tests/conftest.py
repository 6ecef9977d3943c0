from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.conf import settings

from agents import llm
from tests.factories import ReporterFactory
from tests.fakes.anthropic import FakeAnthropic


@pytest.fixture
def fake_llm() -> Iterator[FakeAnthropic]:
    """The scripted Anthropic API; a test fails if a scripted call is left over or one was unexpected."""
    fake = FakeAnthropic()
    previous = settings.ANTHROPIC_BASE_URL
    settings.ANTHROPIC_BASE_URL = fake.base_url
    llm._client.cache_clear()
    try:
        yield fake
        fake.assert_complete()
    finally:
        settings.ANTHROPIC_BASE_URL = previous
        llm._client.cache_clear()
        fake.close()


@pytest.fixture
def reporter(db: None):  # type: ignore[no-untyped-def]
    return ReporterFactory(user__username="kim", anthropic_key="sk-ant-test-kim-0001")


@pytest.fixture
def other_reporter(db: None):  # type: ignore[no-untyped-def]
    return ReporterFactory(user__username="lee", anthropic_key="sk-ant-test-lee-0002")

from __future__ import annotations

import socket
from collections.abc import Iterator
from typing import Any

import pytest

from agents.sources import publishers
from tests.fakes.naver import FakeNaver
from tests.fakes.pages import FakePages


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


@pytest.fixture
def connections(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, int]]:
    """Records every outgoing TCP connection (host, port); loopback ones go through."""
    seen: list[tuple[str, int]] = []
    real = socket.create_connection

    def create_connection(address: tuple[str, int], *args: Any, **kwargs: Any) -> socket.socket:
        seen.append((str(address[0]), int(address[1])))
        if address[0] not in ("127.0.0.1", "::1"):
            raise AssertionError(f"test tried to connect to {address}")
        return real(address, *args, **kwargs)

    monkeypatch.setattr(socket, "create_connection", create_connection)
    return seen


@pytest.fixture(autouse=True)
def _fresh_publisher_cache() -> Iterator[None]:
    publishers.clear_cache()
    yield
    publishers.clear_cache()

from __future__ import annotations

import socket
from typing import Any

import pytest


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

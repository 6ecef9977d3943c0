"""The client's address: the peer, or behind a trusted proxy the hop that proxy saw."""

from __future__ import annotations

import logging
from typing import Any

import pytest
from django.core.exceptions import ImproperlyConfigured
from django.test import Client, RequestFactory

from newsdesk.clients import ENVIRON_KEY, client_address, trusted_proxies

PROXY = "127.0.0.1"
CLIENT = "203.0.113.7"


def address(remote: str, forwarded: str | None = None) -> str:
    extra = {"HTTP_X_FORWARDED_FOR": forwarded} if forwarded is not None else {}
    return client_address(RequestFactory().get("/", REMOTE_ADDR=remote, **extra))


def test_without_trusted_proxies_the_header_is_never_read() -> None:
    assert address(CLIENT, forwarded="192.0.2.1") == CLIENT
    assert address(PROXY, forwarded=CLIENT) == PROXY  # the default trusts no one, not even loopback


def test_a_trusted_proxy_names_the_client_as_the_last_entry(settings: Any) -> None:
    settings.NEWSDESK_TRUSTED_PROXIES = [PROXY]

    assert address(PROXY, forwarded=CLIENT) == CLIENT
    assert address(PROXY, forwarded=f"192.0.2.1, 192.0.2.2, {CLIENT}") == CLIENT  # forged entries on the left


def test_a_chain_of_trusted_proxies_is_walked_to_the_first_untrusted_hop(settings: Any) -> None:
    settings.NEWSDESK_TRUSTED_PROXIES = [PROXY, "198.51.100.0/24"]

    assert address(PROXY, forwarded=f"192.0.2.1, {CLIENT}, 198.51.100.5") == CLIENT


def test_a_request_from_an_untrusted_peer_keeps_its_own_address_whatever_it_claims(settings: Any) -> None:
    settings.NEWSDESK_TRUSTED_PROXIES = [PROXY]

    assert address(CLIENT, forwarded="198.51.100.9") == CLIENT


def test_garbage_in_the_header_falls_back_to_the_last_sure_hop(settings: Any) -> None:
    settings.NEWSDESK_TRUSTED_PROXIES = [PROXY]

    assert address(PROXY, forwarded="unknown") == PROXY
    assert address(PROXY, forwarded="") == PROXY
    assert address(PROXY, forwarded=f"{CLIENT}, not-an-address") == PROXY


def test_ipv4_mapped_addresses_read_as_ipv4() -> None:
    assert address(f"::ffff:{CLIENT}") == CLIENT


def test_a_misspelt_proxy_setting_stops_the_server(settings: Any) -> None:
    settings.NEWSDESK_TRUSTED_PROXIES = ["10.0.0.0/33"]

    with pytest.raises(ImproperlyConfigured, match="NEWSDESK_TRUSTED_PROXIES"):
        trusted_proxies()


@pytest.mark.django_db
def test_every_request_carries_its_client_for_the_access_log(settings: Any) -> None:
    settings.NEWSDESK_TRUSTED_PROXIES = [PROXY]

    response = Client().get("/accounts/login/", REMOTE_ADDR=PROXY, HTTP_X_FORWARDED_FOR=CLIENT)

    assert response.wsgi_request.META[ENVIRON_KEY] == CLIENT


@pytest.mark.django_db
def test_the_webhooks_refusal_line_names_the_real_client(
    settings: Any, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    from newsdesk.telegram import spoofing

    settings.TELEGRAM_WEBHOOK_SECRET = "right"
    settings.NEWSDESK_TRUSTED_PROXIES = [PROXY]
    monkeypatch.setattr(spoofing, "refused", spoofing._Counter())

    with caplog.at_level(logging.WARNING):
        Client().post(
            "/telegram/webhook/",
            "{}",
            content_type="application/json",
            REMOTE_ADDR=PROXY,
            HTTP_X_FORWARDED_FOR=CLIENT,
            HTTP_X_TELEGRAM_BOT_API_SECRET_TOKEN="wrong",
        )

    assert f"last from {CLIENT}" in caplog.text

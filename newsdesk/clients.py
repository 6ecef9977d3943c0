"""Who sent a request: the one place the client's address is read.

The peer of the connection (`REMOTE_ADDR`) is the client, unless it is one of the proxies named in
`NEWSDESK_TRUSTED_PROXIES` (addresses or networks; none by default). Only then is
`X-Forwarded-For` read, from the right: each proxy appends the address it received the request
from, so the entries a trusted proxy wrote are the trustworthy ones, and the first entry (from the
right) that is not itself a trusted proxy is the client. Whatever a client wrote into the header
itself sits to the left of that and is never read, so a forged header can neither hide an
attacker nor pin its failures on someone else's address.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Callable
from functools import cache

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.http import HttpRequest, HttpResponse

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address
IPNetwork = ipaddress.IPv4Network | ipaddress.IPv6Network
# Where the address is kept on the request's WSGI environ, so gunicorn's access log can print it
# (`%({newsdesk_client_address}e)s` in deploy/gunicorn.conf.py).
ENVIRON_KEY = "NEWSDESK_CLIENT_ADDRESS"
UNKNOWN = "0.0.0.0"  # noqa: S104  (a placeholder for a peer without an address, never bound)


def client_address(request: HttpRequest) -> str:
    """The client's address as text (IPv4-mapped IPv6 addresses as IPv4)."""
    known = request.META.get(ENVIRON_KEY)
    if isinstance(known, str):
        return known
    address = str(_client(request.META))
    request.META[ENVIRON_KEY] = address
    return address


def _client(meta: dict[str, object]) -> IPAddress:
    peer = _parse(meta.get("REMOTE_ADDR")) or ipaddress.IPv4Address(UNKNOWN)
    if not _trusted(peer):
        return peer
    forwarded = str(meta.get("HTTP_X_FORWARDED_FOR") or "")
    hop = peer
    for entry in reversed(forwarded.split(",")):
        sender = _parse(entry)
        if sender is None:  # garbage a trusted proxy passed on: the last sure hop is the client
            return hop
        hop = sender
        if not _trusted(hop):
            return hop
    return hop


def _parse(value: object) -> IPAddress | None:
    try:
        address = ipaddress.ip_address(str(value).strip())
    except ValueError:
        return None
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        return address.ipv4_mapped
    return address


def _trusted(address: IPAddress) -> bool:
    return any(address in network for network in trusted_proxies())


@cache
def _networks(entries: tuple[str, ...]) -> tuple[IPNetwork, ...]:
    try:
        return tuple(ipaddress.ip_network(entry, strict=False) for entry in entries)
    except ValueError as exc:
        raise ImproperlyConfigured(f"NEWSDESK_TRUSTED_PROXIES: {exc}") from exc


def trusted_proxies() -> tuple[IPNetwork, ...]:
    return _networks(tuple(settings.NEWSDESK_TRUSTED_PROXIES))


class ClientAddressMiddleware:
    """Works out every request's client address once, first, so every later reader (the login
    throttle, log lines, gunicorn's access log) sees the same one."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response
        trusted_proxies()  # a bad setting stops the server at start-up, not at the first request

    def __call__(self, request: HttpRequest) -> HttpResponse:
        client_address(request)
        return self.get_response(request)

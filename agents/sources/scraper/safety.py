"""URL vetting against SSRF: scheme, credentials and host checked, the name resolved once, and
every address refused unless public unicast (see the package docstring for the whole policy).
The caller connects to the vetted addresses only (pinning), so nothing re-resolves the name."""

from __future__ import annotations

import ipaddress
import re
import socket
from collections.abc import Iterable
from dataclasses import dataclass

import httpx

from agents.sources.scraper.errors import ScrapeFailed, UnsafeURL

_CGNAT = ipaddress.ip_network("100.64.0.0/10")
_NAT64 = ipaddress.ip_network("64:ff9b::/96")
_LOCAL_NAT64 = ipaddress.ip_network("64:ff9b:1::/48")
_NUMERIC_LABEL = re.compile(r"^(?:0x[0-9a-f]*|[0-9]+)$", re.IGNORECASE)
_FORBIDDEN_URL_CHARS = re.compile(r"[\x00-\x20\x7f\\]")

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address


@dataclass(frozen=True)
class VettedURL:
    url: httpx.URL
    host: str
    addresses: tuple[str, ...]


def vet_url(url: str, *, allow_loopback: bool = False) -> VettedURL:
    """Parses, resolves and checks a URL; the result carries the addresses it may connect to."""
    parsed = _parse(url)
    host = parsed.raw_host.decode("ascii").lower()
    port = parsed.port or (443 if parsed.scheme == "https" else 80)
    literal = _ip_literal(host)
    if literal is not None:
        addresses: tuple[IPAddress, ...] = (literal,)
    elif _looks_numeric(host):
        raise UnsafeURL(f"non-canonical numeric host {host!r}")
    else:
        addresses = _resolve(host, port)
    for address in addresses:
        reason = address_refusal(address, allow_loopback=allow_loopback)
        if reason:
            raise UnsafeURL(f"{host} resolves to {address} ({reason})")
    return VettedURL(url=parsed, host=host, addresses=tuple(str(address) for address in addresses))


def address_refusal(address: IPAddress, *, allow_loopback: bool = False) -> str:
    """Why this address must not be contacted, or "" when it is a public unicast address."""
    if allow_loopback and address.is_loopback:
        return ""  # only 127.0.0.0/8 and ::1 themselves, never their mapped forms
    for candidate in (address, *_embedded_ipv4(address)):
        reason = _refusal(candidate)
        if reason:
            return reason if candidate is address else f"embeds {candidate}: {reason}"
    return ""


def _parse(url: str) -> httpx.URL:
    if not isinstance(url, str) or not url or _FORBIDDEN_URL_CHARS.search(url):
        raise UnsafeURL("empty URL or whitespace, control characters or backslashes in it")
    try:
        # httpx's own parser, so the host we check is the host httpx would connect to.
        parsed = httpx.URL(url)
    except (httpx.InvalidURL, TypeError, ValueError) as exc:
        raise UnsafeURL(f"unparsable URL ({exc})") from exc
    if parsed.scheme not in ("http", "https"):
        raise UnsafeURL(f"scheme {parsed.scheme!r} is not http(s)")
    if parsed.userinfo:
        raise UnsafeURL("credentials in URL")  # user@host is a classic parser-confusion trick
    if not parsed.raw_host:
        raise UnsafeURL("no host")
    return parsed


def _ip_literal(host: str) -> IPAddress | None:
    try:
        return ipaddress.ip_address(host)
    except ValueError:
        return None


def _looks_numeric(host: str) -> bool:
    # Browsers (WHATWG) and inet_aton read a host whose last label is numeric as an IPv4 address
    # in decimal, octal or hex; no public name ends that way, so refuse rather than guess.
    last_label = host.rstrip(".").rsplit(".", 1)[-1]
    return bool(_NUMERIC_LABEL.match(last_label))


def _resolve(host: str, port: int) -> tuple[IPAddress, ...]:
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (OSError, UnicodeError) as exc:
        raise ScrapeFailed(f"cannot resolve {host}: {exc}") from exc
    addresses: dict[str, None] = dict.fromkeys(str(info[4][0]) for info in infos)
    if not addresses:
        raise ScrapeFailed(f"{host} has no addresses")
    parsed = []
    for text in addresses:
        try:
            parsed.append(ipaddress.ip_address(text))
        except ValueError as exc:  # e.g. a scoped link-local "fe80::1%eth0"
            raise UnsafeURL(f"{host} resolves to an unusable address {text!r}") from exc
    return tuple(parsed)


def _refusal(address: IPAddress) -> str:
    checks = (
        ("unspecified", address.is_unspecified),
        ("loopback", address.is_loopback),
        ("private", address.is_private),
        ("link-local", address.is_link_local),
        ("multicast", address.is_multicast),
        ("reserved", address.is_reserved),
        ("shared CGNAT", address in _CGNAT),
        ("site-local", isinstance(address, ipaddress.IPv6Address) and address.is_site_local),
        ("local NAT64", address in _LOCAL_NAT64),
        ("not global", not address.is_global),
    )
    return next((name for name, hit in checks if hit), "")


def _embedded_ipv4(address: IPAddress) -> Iterable[ipaddress.IPv4Address]:
    """IPv4 addresses hidden in an IPv6 one (mapped, 6to4, Teredo, NAT64)."""
    if not isinstance(address, ipaddress.IPv6Address):
        return ()
    embedded = [address.ipv4_mapped, address.sixtofour]
    if address.teredo:
        embedded.extend(address.teredo)
    if address in _NAT64:
        embedded.append(ipaddress.IPv4Address(int(address) & 0xFFFFFFFF))
    return [ip for ip in embedded if ip is not None]

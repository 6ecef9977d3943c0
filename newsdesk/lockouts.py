"""Failed logins are counted and locked out, so a password cannot be guessed.

django-axes records every failed login (desk and admin alike: both go through `authenticate`) in
the database, so every web process and machine sees the same counts, and its backend, first in
`AUTHENTICATION_BACKENDS`, refuses a locked login before any password is hashed. The policy is ours:

- an (account, address) pair is locked after `NEWSDESK_LOGIN_FAILURE_LIMIT` failures in a row;
  the account stays open from every other address, so nobody can lock a reporter out from afar;
- an address is locked for every account after `NEWSDESK_LOGIN_ADDRESS_LIMIT` failures over all
  accounts (one address trying a few passwords on many accounts);
- failures count while each comes within `NEWSDESK_LOGIN_COOLOFF_MINUTES` of the last one of its
  record; a lock ends that long after the last counted failure. Refused attempts are not counted,
  so the wait a reporter is told stays true;
- bad API bearer tokens are counted like failed logins without an account name (`API_TOKENS`),
  with their own limit, and never add to the address's login count.

The records key on the username as typed, whether or not such an account exists: an unknown name
is counted, locked and answered exactly like a known one.
"""

from __future__ import annotations

import ipaddress
import logging
import math
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from axes.handlers.database import AxesDatabaseHandler
from axes.handlers.proxy import AxesProxyHandler
from axes.helpers import get_client_username
from axes.models import AccessAttempt
from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone

from newsdesk import logs
from newsdesk import messages as msg
from newsdesk.clients import client_address

log = logging.getLogger(__name__)
# The account name bad bearer tokens are counted under. A login form always sends a name, so no
# login failure is ever counted as a bad token or the other way round.
API_TOKENS = None


def cool_off() -> timedelta:
    return timedelta(minutes=settings.NEWSDESK_LOGIN_COOLOFF_MINUTES)


def cool_off_for(request: HttpRequest | None = None) -> timedelta:
    """axes' AXES_COOLOFF_TIME: the same cool-off for every request."""
    return cool_off()


def failure_limit(request: HttpRequest | None = None, credentials: dict[str, Any] | None = None) -> int:
    """Failures of one (account, address) pair that lock it (axes' AXES_FAILURE_LIMIT)."""
    if request is None:
        return int(settings.NEWSDESK_LOGIN_FAILURE_LIMIT)
    return _pair_limit(get_client_username(request, credentials))


def _pair_limit(username: str | None) -> int:
    if username == API_TOKENS:
        return int(settings.NEWSDESK_API_TOKEN_FAILURE_LIMIT)
    return int(settings.NEWSDESK_LOGIN_FAILURE_LIMIT)


def address_key(request: HttpRequest) -> str:
    """The address failures are counted under (axes' AXES_CLIENT_IP_CALLABLE): the client's
    address, and for IPv6 its /64 network, the smallest block one subscriber is given."""
    address = client_address(request)
    if ":" in address:
        return str(ipaddress.ip_network(f"{address}/64", strict=False).network_address)
    return address


@dataclass(frozen=True)
class Lock:
    until: datetime
    whole_address: bool

    def seconds_left(self, now: datetime) -> int:
        return max(1, math.ceil((self.until - now).total_seconds()))


@dataclass(frozen=True)
class Count:
    failures: int  # of the pair
    lock: Lock | None


def count_of(*, username: str | None, address: str, now: datetime) -> Count:
    """The pair's failures and the lock on it, if any, from one query over the address's records."""
    rows = list(
        AccessAttempt.objects.filter(ip_address=address, attempt_time__gt=now - cool_off()).values_list(
            "username", "failures_since_start", "attempt_time"
        )
    )
    pair = [(when, failures) for name, failures, when in rows if name == username]
    failures = sum(failures for _, failures in pair)
    locks = []
    if pair and failures >= _pair_limit(username):
        locks.append(Lock(until=max(when for when, _ in pair) + cool_off(), whole_address=False))
    if username != API_TOKENS:
        logins = sorted((when, failures) for name, failures, when in rows if name != API_TOKENS)
        until = _address_lock_end(logins)
        if until is not None:
            locks.append(Lock(until=until, whole_address=True))
    return Count(failures=failures, lock=max(locks, key=lambda lock: lock.until, default=None))


def _address_lock_end(logins: list[tuple[datetime, int]]) -> datetime | None:
    """When the address's failures, oldest first leaving the window, fall below its limit."""
    limit = settings.NEWSDESK_LOGIN_ADDRESS_LIMIT
    total = sum(failures for _, failures in logins)
    if total < limit:
        return None
    for when, failures in logins:
        total -= failures
        if total < limit:
            return when + cool_off()
    return None


def lock_of(request: HttpRequest, credentials: dict[str, Any] | None) -> Lock | None:
    AxesProxyHandler.update_request(request)
    username = get_client_username(request, credentials)
    return count_of(username=username, address=request.axes_ip_address, now=timezone.now()).lock  # type: ignore[attr-defined]


class LockoutHandler(AxesDatabaseHandler):
    """axes' database handler with the two limits above and a success that forgives one pair."""

    def get_failures(self, request: Any, credentials: dict[str, Any] | None = None) -> int:
        # axes locks when this reaches failure_limit(): a lock of either kind reports that much.
        username = get_client_username(request, credentials)
        count = count_of(username=username, address=request.axes_ip_address, now=request.axes_attempt_time)
        return _pair_limit(username) if count.lock else count.failures

    def reset_user_attempts(self, request: Any, credentials: dict[str, Any] | None = None) -> int:
        # Only the pair: a login to one's own account must not wipe the address's failures on others.
        username = get_client_username(request, credentials)
        deleted, _ = AccessAttempt.objects.filter(
            username=username, ip_address=request.axes_ip_address
        ).delete()
        return deleted

    def user_login_failed(
        self, sender: Any, credentials: dict[str, Any], request: Any = None, **kwargs: Any
    ) -> None:
        refused = bool(getattr(request, "axes_locked_out", False))  # the backend refused it unchecked
        super().user_login_failed(sender, credentials, request, **kwargs)
        if request is not None and not refused and request.axes_locked_out:
            # One line per lock (refused attempts write none), never a line per attempt.
            log.warning(
                "%s locked for %d min after repeated failures from %s",
                "API tokens" if get_client_username(request, credentials) == API_TOKENS else "login",
                settings.NEWSDESK_LOGIN_COOLOFF_MINUTES,
                request.axes_ip_address,
            )


def wait_text(seconds: int) -> str:
    minutes = math.ceil(seconds / 60)
    hours, minutes = divmod(minutes, 60)
    if hours and minutes:
        return msg.WAIT_HOURS_MINUTES.format(hours=hours, minutes=minutes)
    if hours:
        return msg.WAIT_HOURS.format(hours=hours)
    return msg.WAIT_MINUTES.format(minutes=minutes)


def lockout_response(
    request: HttpRequest, response: HttpResponse | None = None, credentials: dict[str, Any] | None = None
) -> HttpResponse:
    """What a locked login gets (axes' AXES_LOCKOUT_CALLABLE): 429, the wait in Korean, the same
    words whichever lock it is and whether or not the account exists."""
    lock = lock_of(request, credentials)
    seconds = lock.seconds_left(timezone.now()) if lock else int(cool_off().total_seconds())
    context = {"message": msg.LOGIN_LOCKED.format(wait=wait_text(seconds)), "login_url": request.path}
    locked = render(request, "accounts/locked.html", context, status=429)
    locked["Retry-After"] = str(seconds)
    logs.mark_logged_elsewhere(request)  # the line logged when the lock engaged stands for these
    return locked


# --- the JSON API's bearer tokens ------------------------------------------------------------
_API_CREDENTIALS = {"username": API_TOKENS}


def api_token_lock(request: HttpRequest) -> Lock | None:
    """The lock on bad tokens from this request's address, checked before any token is looked up."""
    if AxesProxyHandler.is_allowed(request, _API_CREDENTIALS):
        return None
    return lock_of(request, _API_CREDENTIALS)


def api_token_failed(request: HttpRequest) -> Lock | None:
    """Counts a bad token; returns the lock it engaged, if it did."""
    AxesProxyHandler.user_login_failed(sender=__name__, credentials=_API_CREDENTIALS, request=request)
    locked = request.axes_locked_out  # type: ignore[attr-defined]
    request.axes_locked_out = False  # type: ignore[attr-defined]  # the API answers 429 in JSON itself, not axes' middleware
    return lock_of(request, _API_CREDENTIALS) if locked else None


def lockouts_clear(*, records: list[AccessAttempt]) -> int:
    """Deletes the records, and with a record whose address is locked as a whole, every login
    record of that address: what stays would keep the lock. Returns how many rows went."""
    now = timezone.now()
    doomed = {record.pk for record in records}
    for record in records:
        lock = count_of(username=record.username, address=str(record.ip_address), now=now).lock
        if lock is not None and lock.whole_address:
            doomed |= set(
                AccessAttempt.objects.filter(ip_address=record.ip_address)
                .exclude(username=API_TOKENS)
                .values_list("pk", flat=True)
            )
    _, deleted = AccessAttempt.objects.filter(pk__in=doomed).delete()
    return deleted.get(AccessAttempt._meta.label, 0)

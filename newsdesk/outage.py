"""A database or broker outage answers 503 with a Korean message and logs one line per outage.

Django turns an exception anywhere in a request (a view, or a middleware such as the session one)
into a call of `handler500` and then logs the traceback. For the errors that mean "a service we
depend on is away" that would be one traceback per request for as long as the outage lasts, and a
500 that tells a client its request was wrong. `server_error` answers those with 503 (JSON for the
API and the webhook, a short page otherwise), marks the request as logged and writes one line
when the outage starts; `OutageMiddleware` writes one line when requests succeed again.
"""

from __future__ import annotations

import logging
import sys
import threading
import time
from collections.abc import Callable

from django.db import DatabaseError, InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.template.loader import render_to_string
from kombu.exceptions import OperationalError as BrokerError

from newsdesk import logs
from newsdesk import messages as msg

log = logging.getLogger(__name__)
OUTAGE_ERRORS: tuple[type[BaseException], ...] = (OperationalError, InterfaceError, BrokerError)
JSON_PREFIXES = ("/api/", "/telegram/", "/healthz")


class _Outage:
    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.since: float | None = None
        self.refused = 0

    def started(self, exc: BaseException) -> None:
        with self.lock:
            self.refused += 1
            if self.since is None:
                self.since = time.monotonic()
                log.warning(
                    "service unavailable (%s: %s); answering 503", type(exc).__name__, _first_line(exc)
                )

    def ended(self) -> None:
        with self.lock:
            if self.since is None:
                return
            log.warning(
                "service back after %.0f s; %d request(s) were answered 503",
                time.monotonic() - self.since,
                self.refused,
            )
            self.since, self.refused = None, 0


outage = _Outage()


def _first_line(exc: BaseException) -> str:
    return (str(exc).strip().splitlines() or [""])[0][:200]


def is_outage(exc: BaseException | None) -> bool:
    return isinstance(exc, OUTAGE_ERRORS) and not _is_data_error(exc)


def _is_data_error(exc: BaseException) -> bool:
    # IntegrityError and DataError are DatabaseErrors but mean a bug or bad data, not an outage.
    return isinstance(exc, DatabaseError) and not isinstance(exc, (OperationalError, InterfaceError))


def unavailable(request: HttpRequest) -> HttpResponse:
    response: HttpResponse
    if request.path.startswith(JSON_PREFIXES) or "json" in request.headers.get("Accept", ""):
        response = JsonResponse({"detail": msg.SERVICE_UNAVAILABLE}, status=503)
    else:
        html = render_to_string("503.html", {"message": msg.SERVICE_UNAVAILABLE})
        response = HttpResponse(html, status=503)
    response["Retry-After"] = "30"
    logs.mark_logged_elsewhere(request)  # our one line per outage replaces Django's per request
    return response


def server_error(request: HttpRequest) -> HttpResponse:
    """handler500: 503 for an outage, Django's plain 500 for anything else (a bug: keep its trace)."""
    exc = sys.exc_info()[1]
    if exc is not None and is_outage(exc):
        outage.started(exc)
        return unavailable(request)
    from django.views.defaults import server_error as default

    return default(request)


class OutageMiddleware:
    """Notes the first answered request after an outage (outermost, so it sees every response)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if outage.since is not None and response.status_code < 500:
            outage.ended()
        return response

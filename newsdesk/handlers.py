"""The WSGI application: Telegram's webhook through a handler of its own, everything else through
Django's full middleware stack.

The webhook is a machine's POST, authenticated by its secret header and answered with a few bytes
of JSON, at up to hundreds a second. Of the stack in settings.MIDDLEWARE only the outage
middleware does anything for it; sessions, authentication, CSRF (the view is exempt), messages,
htmx, compression, static files and the CSP, clickjacking and HSTS headers are for browsers, and
passing through them was a fifth of the webhook's own CPU. Every other path, the desk, the API and
the admin included, goes through the full stack as before.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.core.handlers.exception import convert_exception_to_response
from django.core.handlers.wsgi import WSGIHandler
from django.http import HttpRequest
from django.http.response import HttpResponseBase
from django.urls import reverse

from newsdesk.outage import OutageMiddleware


class _WebhookHandler(WSGIHandler):
    """Django's handler (request, URL resolution, signals, handler500) with only the outage
    middleware around the view."""

    def load_middleware(self, is_async: bool = False) -> None:
        # What BaseHandler.load_middleware builds for a MIDDLEWARE of one plain middleware.
        self._view_middleware: list[Any] = []
        self._template_response_middleware: list[Any] = []
        self._exception_middleware: list[Any] = []
        view = convert_exception_to_response(self._get_response)  # type: ignore[attr-defined]
        self._middleware_chain = convert_exception_to_response(OutageMiddleware(view))  # type: ignore[arg-type]

    def get_response(self, request: HttpRequest) -> HttpResponseBase:
        response = super().get_response(request)
        if not response.streaming and not response.has_header("Content-Length"):
            # As CommonMiddleware does on the full stack: no chunked encoding for a few bytes.
            response.headers["Content-Length"] = str(len(response.content))  # type: ignore[attr-defined]
        return response


class Application:
    """Dispatches on the path before Django builds a request."""

    def __init__(self) -> None:
        self.full = WSGIHandler()
        self.webhook = _WebhookHandler()
        self.webhook_path = reverse("telegram-webhook")

    def __call__(self, environ: dict[str, Any], start_response: Any) -> Iterable[bytes]:
        if environ.get("PATH_INFO") == self.webhook_path:
            return self.webhook(environ, start_response)
        return self.full(environ, start_response)

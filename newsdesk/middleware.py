from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse

# No inline scripts, no third-party origins. htmx is vendored and loaded from 'self'.
_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'self'; "
    "form-action 'self'; frame-ancestors 'none'"
)
# The admin and the API docs ship inline styles and scripts of their own.
_RELAXED = (
    "default-src 'self'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; "
    "img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'self'; "
    "form-action 'self'; frame-ancestors 'none'"
)


class ContentSecurityPolicyMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        relaxed = request.path.startswith(("/admin/", "/api/docs"))
        response.headers.setdefault("Content-Security-Policy", _RELAXED if relaxed else _POLICY)
        return response

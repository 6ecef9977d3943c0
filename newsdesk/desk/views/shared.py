"""/desk/shared/<token>/: one draft, read-only and without a login, for Telegram-only reporters.

The token is the only credential (newsdesk.desk.sharing), so these responses are kept out of
search engines and never sent on as a Referer when the reader follows a source link.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET
from django.views.defaults import page_not_found

from agents.models import Run
from newsdesk import messages as msg
from newsdesk.desk.http import HtmxHttpRequest, long_poll
from newsdesk.desk.presenters import drafts as presenters
from newsdesk.desk.sharing import shared_run

SharedView = Callable[[HtmxHttpRequest, str], HttpResponse]
PRIVATE_HEADERS = {"X-Robots-Tag": "noindex, nofollow", "Referrer-Policy": "no-referrer"}


def private_link(view: SharedView) -> Callable[[HttpRequest, str], HttpResponse]:
    """Adds the headers to every answer, the 404 for a bad token included."""

    @wraps(view)
    def wrapper(request: HttpRequest, token: str) -> HttpResponse:
        try:
            response = view(request, token)  # type: ignore[arg-type]  # HtmxMiddleware sets .htmx
        except Http404 as exc:
            response = page_not_found(request, exc)
        for name, value in PRIVATE_HEADERS.items():
            response.headers[name] = value
        return response

    return wrapper


@never_cache
@private_link
@require_GET
def shared_page(request: HtmxHttpRequest, token: str) -> HttpResponse:
    return render(request, "desk/shared.html", _context(_run_or_404(token), token))


@never_cache
@private_link
@require_GET
def shared_status(request: HtmxHttpRequest, token: str) -> HttpResponse:
    """The polled fragment of a run still going, long-polled and ended the way the desk's is."""
    run = _run_or_404(token)
    if not request.htmx:
        return redirect(reverse("desk:shared", kwargs={"token": token}))
    run = long_poll(request, run)
    return render(request, "desk/shared.html", {**_context(run, token), "region_only": True})


def _run_or_404(token: str) -> Run:
    run = shared_run(token)
    if run is None:
        raise Http404(msg.NOT_FOUND)
    return run


def _context(run: Run, token: str) -> dict[str, Any]:
    return {"page": presenters.draft_page(reporter=run.reporter, run=run), "token": token}

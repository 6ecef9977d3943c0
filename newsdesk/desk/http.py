"""Request types and the few helpers every desk view shares."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any, Concatenate, ParamSpec

from django.contrib.auth.views import redirect_to_login
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django_htmx.middleware import HtmxDetails

from agents import selectors as agent_selectors
from agents.models import Run
from newsdesk import messages as msg
from newsdesk.desk.presenters.progress import run_after_event
from newsdesk.models import Reporter

P = ParamSpec("P")


class HtmxHttpRequest(HttpRequest):
    htmx: HtmxDetails


class ReporterRequest(HtmxHttpRequest):
    """A request from a logged-in reporter; `reporter` is set by @reporter_required."""

    reporter: Reporter


ReporterView = Callable[Concatenate[ReporterRequest, P], HttpResponse]


def reporter_required(view: ReporterView[P]) -> Callable[Concatenate[HttpRequest, P], HttpResponse]:
    """Anonymous → the login page; a user without a reporter profile → a 403 page saying so."""

    @wraps(view)
    def wrapper(request: HttpRequest, *args: P.args, **kwargs: P.kwargs) -> HttpResponse:
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        reporter = Reporter.objects.filter(user=request.user).first()
        if reporter is None:
            return render(request, "desk/no_reporter.html", {"message": msg.NOT_A_REPORTER}, status=403)
        request.reporter = reporter  # type: ignore[attr-defined]  # typed on ReporterRequest
        return view(request, *args, **kwargs)  # type: ignore[arg-type]  # now a ReporterRequest

    return wrapper


def is_partial(request: HtmxHttpRequest) -> bool:
    """An htmx swap of the main region wants the page without its frame; boosts and history restores
    replace the whole body and need the full page."""
    htmx = request.htmx
    return bool(htmx) and not htmx.boosted and not htmx.history_restore_request


def page(
    request: HtmxHttpRequest, template: str, context: dict[str, Any], *, status: int = 200
) -> HttpResponse:
    """Renders a desk page: the whole document, or only its main region for an htmx request."""
    base = "desk/partial_base.html" if is_partial(request) else "base.html"
    return render(request, template, {**context, "base_template": base}, status=status)


def own_draft(request: ReporterRequest, run_id: int) -> Run:
    """The reporter's own draft or edit run; anyone else's is "not found", never "forbidden"."""
    run = agent_selectors.draft_get(reporter=request.reporter, run_id=run_id)
    if run is None:
        raise Http404(msg.NOT_FOUND)
    return run


def see_other(url: str) -> HttpResponseRedirect:
    """303: after a POST the browser must GET the next page (a reload never re-posts)."""
    response = HttpResponseRedirect(url)
    response.status_code = 303
    return response


# Short enough that a few viewers never hold the web threads the webhook needs for long.
LONG_POLL_SECONDS = 8.0


def long_poll(request: HttpRequest, run: Run) -> Run:
    """The run as a polled status region should show it: given the last event the page shows
    (`after`), the answer waits until the run has a newer one (a stage, the end) or
    LONG_POLL_SECONDS pass, so a change is on screen ~0.1 s after it happens instead of up to a
    polling interval later. A poll without `after`, or for an ended run, answers at once."""
    after = request.GET.get("after", "")
    if after.isdigit() and not run.is_finished:
        return run_after_event(run=run, after=int(after), wait=LONG_POLL_SECONDS)
    return run

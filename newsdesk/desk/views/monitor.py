"""/desk/monitor/: the latest check and briefing, "지금 체크" / "지금 브리핑" with live progress, and
the reporter's daily schedules."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST
from django_htmx.http import reswap, retarget

from agents.models import Run
from agents.monitoring import selectors as monitor_selectors
from agents.monitoring import services as monitoring
from agents.services import InputError
from newsdesk import messages as msg
from newsdesk.desk.http import ReporterRequest, long_poll, page, reporter_required, see_other
from newsdesk.desk.presenters import monitor as presenters
from newsdesk.models import Reporter

Starter = Callable[..., Run]


def monitor_url() -> str:
    return reverse("desk:monitor")


def run_url(run: Run) -> str:
    return reverse("desk:monitor_run", kwargs={"run_id": run.pk})


# --- the page -------------------------------------------------------------------------------
@never_cache
@reporter_required
@require_GET
def monitor_home(request: ReporterRequest) -> HttpResponse:
    return page(request, "desk/monitor.html", _home_context(request.reporter))


def _home_context(reporter: Reporter, *, start_error: InputError | None = None) -> dict[str, Any]:
    return {
        "home": presenters.monitor_home(reporter=reporter),
        "reporter": reporter,
        "start_error": start_error,
    }


# --- "지금 체크" / "지금 브리핑" ----------------------------------------------------------------
@reporter_required
@require_POST
def monitor_check(request: ReporterRequest) -> HttpResponse:
    return _start(request, monitoring.check_request)


@reporter_required
@require_POST
def monitor_report(request: ReporterRequest) -> HttpResponse:
    return _start(request, monitoring.report_request)


def _start(request: ReporterRequest, start: Starter) -> HttpResponse:
    """Queues the run and shows the page with its live progress; a refusal (busy, no keywords, no
    key) is shown next to the buttons and starts nothing."""
    reporter = request.reporter
    try:
        start(reporter=reporter, channel=Run.Channel.WEB)
    except InputError as exc:
        if request.htmx:
            # 200, not the service's 409/422: htmx 2 does not swap error responses by default.
            return render(request, "desk/partials/monitor_actions.html", {"start_error": exc})
        return page(request, "desk/monitor.html", _home_context(reporter, start_error=exc))
    if not request.htmx:
        return see_other(monitor_url())
    # The buttons target themselves (for the refusal); a started run redraws the whole page.
    response = page(request, "desk/monitor.html", _home_context(reporter))
    return reswap(retarget(response, "#main"), "innerHTML")


# --- one run: its page, and the status partial it polls ---------------------------------------
@never_cache
@reporter_required
@require_GET
def monitor_run(request: ReporterRequest, run_id: int) -> HttpResponse:
    run = _own_monitor_run(request, run_id)
    context = {"single": presenters.monitor_panel(run=run), "reporter": request.reporter}
    return page(request, "desk/monitor.html", context)


@never_cache
@reporter_required
@require_GET
def monitor_run_status(request: ReporterRequest, run_id: int) -> HttpResponse:
    """The polled fragment, as a long poll like the draft's (http.long_poll); a finished run
    answers without hx-trigger, which ends the polling."""
    run = _own_monitor_run(request, run_id)
    if not request.htmx:
        return redirect(run_url(run))
    run = long_poll(request, run)
    return render(request, "desk/partials/monitor_status.html", {"panel": presenters.monitor_panel(run=run)})


def _own_monitor_run(request: ReporterRequest, run_id: int) -> Run:
    """The reporter's own check or report run; anything else is "not found", never "forbidden"."""
    run = monitor_selectors.run_get(reporter=request.reporter, run_id=run_id)
    if run is None or run.kind not in monitor_selectors.MONITOR_KINDS:
        raise Http404(msg.NOT_FOUND)
    return run


# --- schedules ------------------------------------------------------------------------------
@reporter_required
@require_POST
def monitor_schedule_add(request: ReporterRequest) -> HttpResponse:
    # The service parses and judges both fields (and words the refusal), as it does for Telegram.
    command, time = request.POST.get("command", ""), request.POST.get("time", "")
    result = monitoring.schedule_add(reporter=request.reporter, command=command, time=time)
    # A refused time stays in the field to be corrected; an accepted one is cleared.
    typed = {} if result.ok else {"command": command, "time": time}
    return _schedule_answer(request, result, typed=typed)


@reporter_required
@require_POST
def monitor_schedule_remove(request: ReporterRequest) -> HttpResponse:
    result = monitoring.schedule_remove(
        reporter=request.reporter, command=request.POST.get("command", ""), time=request.POST.get("time", "")
    )
    return _schedule_answer(request, result)


def _schedule_answer(
    request: ReporterRequest, result: monitoring.ScheduleResult, *, typed: dict[str, str] | None = None
) -> HttpResponse:
    if not request.htmx:
        (messages.success if result.ok else messages.error)(request, result.message)
        return see_other(monitor_url())
    context = {
        "schedules": presenters.schedule_rows(schedules=result.schedules),
        "result": result,
        "typed": typed or {},
    }
    return render(request, "desk/partials/monitor_schedules.html", context)

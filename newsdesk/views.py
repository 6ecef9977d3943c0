from __future__ import annotations

from django.db import connection
from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from newsdesk import workers
from newsdesk.celery import app as celery_app


@require_GET
@never_cache
def healthz(request: HttpRequest) -> JsonResponse:
    report: dict[str, object] = {"db": _check_db(), "broker": _check_broker()}
    workers = _check_workers() if report["db"] == "ok" else {}
    report["workers"] = workers
    healthy = report["db"] == report["broker"] == "ok" and all(value == "ok" for value in workers.values())
    return JsonResponse(report, status=200 if healthy else 503)


def _check_db() -> str:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
        return "ok"
    except Exception as exc:  # any driver error means "not ok"; the page says which part failed
        return f"error: {type(exc).__name__}"


_WORKER_STATE = {
    workers.LIVE: "ok",
    workers.STOPPED: "error: no live worker",
    workers.NEVER: "error: no worker has started",
}


def _check_workers() -> dict[str, str]:
    return {queue: _WORKER_STATE[state] for queue, state in workers.queue_states().items()}


def _check_broker() -> str:
    try:
        with celery_app.connection_for_write() as conn:
            conn.ensure_connection(max_retries=1, timeout=2)
        return "ok"
    except Exception as exc:
        return f"error: {type(exc).__name__}"

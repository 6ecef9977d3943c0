"""POST /telegram/webhook/: check the secret, store the update once, enqueue it, answer 200 at once.

Telegram redelivers anything that is not answered 2xx quickly, so the view does no work beyond a
single insert (the update and its outbox message, one statement); `handle_update` runs in Celery
once the row is committed, even if the broker was away at that moment (the relay sends it later).
A database that cannot store the update answers 503 (newsdesk.middleware), so Telegram retries.
Refused requests are counted (newsdesk.telegram.spoofing), never logged one by one.
"""

from __future__ import annotations

import hmac
from typing import Any, Literal

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST

from newsdesk import logs, safe_json
from newsdesk.models import TelegramUpdate
from newsdesk.telegram import queue, spoofing

SECRET_HEADER = "X-Telegram-Bot-Api-Secret-Token"  # noqa: S105 (a header name)
MAX_BODY = 256 * 1024  # a text message is a few kB; documents travel as file ids, not bytes
HANDLED_KINDS = ("message", "callback_query")  # callback_query: a tapped inline button


@csrf_exempt  # Telegram cannot send a CSRF token; the secret header authenticates it instead
@require_POST
def webhook(request: HttpRequest) -> HttpResponse:
    if not _secret_ok(request.headers.get(SECRET_HEADER, "")):
        spoofing.count_refused(request)
        refused = HttpResponse(status=403)
        logs.mark_logged_elsewhere(request)  # counted instead of Django's "Forbidden" line each
        return refused
    try:
        payload = safe_json.request_json(request, max_bytes=MAX_BODY)
    except safe_json.UnsafeJSON as exc:  # malformed, nested too deep, or too large
        return HttpResponse(status=exc.status)
    if not isinstance(payload, dict) or not isinstance(payload.get("update_id"), int):
        return HttpResponse(status=400)
    return JsonResponse({"ok": True, "result": receive_update(payload)})


def _secret_ok(given: str) -> bool:
    expected = settings.TELEGRAM_WEBHOOK_SECRET
    # No configured secret means nobody can be authenticated: refuse everything.
    return bool(expected) and hmac.compare_digest(given.encode(), expected.encode())


def receive_update(payload: dict[str, Any]) -> Literal["stored", "duplicate", "ignored"]:
    """Stores an update once by update_id and records its task; also fed by `manage.py telegram_poll`.

    Kinds we do not handle are answered but not stored (so Telegram does not retry them).
    """
    if not any(kind in payload for kind in HANDLED_KINDS):
        return "ignored"
    if queue.update_store(update=TelegramUpdate(update_id=payload["update_id"], payload=payload)):
        return "stored"
    # Stored before. If it was never processed and nothing is on its way to a worker, the first
    # answer must have failed after the insert: queue it again now.
    queue.update_requeue_if_lost(update_id=payload["update_id"])
    return "duplicate"

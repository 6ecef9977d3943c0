"""The WSGI application, ready to be loaded once and forked (gunicorn --preload).

Django imports the URLconf (every view, the API and its schemas) on the first request, i.e. in
each worker after the fork, where none of it is shared. Loading it here puts it in the parent,
with what the first requests would import lazily (`_preload_lazy_imports`); `gc.freeze()` then
moves everything loaded so far out of the collector's reach, so a worker's collections do not
write to (and copy) the pages it shares with the parent.
"""

from __future__ import annotations

import gc
import os

from django.conf import settings
from django.core.wsgi import get_wsgi_application
from django.urls import get_resolver

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "newsdesk.settings")
application = get_wsgi_application()  # sets Django up; every path goes through settings.MIDDLEWARE

from agents.work import after_response  # noqa: E402 (needs the apps loaded)


def _preload_lazy_imports() -> None:
    """Imports, without connecting to anything, what the first requests import on their own.

    /healthz checks the broker, and without NEWSDESK_RELAY_ON_NOTIFY every queued job publishes a
    Celery message: the first of either imports Celery's messaging and the broker's transport
    (with Redis: redis-py, ~110 modules, ~24 MB per worker).
    A view that answers with a message loads the messages and session storage; the template
    engines load their tag libraries. Nothing here opens a socket or a file descriptor, so the
    forked workers share all of it.
    """
    import encodings.idna  # noqa: F401 (a host name is encoded on the first broker connection)

    import celery.events.dispatcher  # noqa: F401
    from django.template import engines
    from django.utils.module_loading import import_string

    from newsdesk.celery import app

    app.amqp  # noqa: B018 (celery.app.amqp, routes, the Task class)
    app.events  # noqa: B018 (celery.app.events)
    app.backend  # noqa: B018 (the result backend's module, even when it is disabled)
    app.AsyncResult  # noqa: B018 (celery.result)
    app.connection_for_write().get_transport_cls()  # the transport's module only, no connection
    import_string(settings.MESSAGE_STORAGE)
    import_string(settings.SESSION_SERIALIZER)
    engines.all()  # creating each backend imports its template tag libraries


get_resolver().url_patterns  # noqa: B018 (imports every view now, before any fork)
_preload_lazy_imports()
# A request answers once its work is committed. On PostgreSQL the workers' relay publishes it
# (agents.work.relay); elsewhere a thread of each web worker does, after the response
# (agents.work.after_response).
if not settings.NEWSDESK_RELAY_ON_NOTIFY:
    after_response.publish_after_response()
gc.freeze()

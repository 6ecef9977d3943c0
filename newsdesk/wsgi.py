"""The WSGI application, ready to be loaded once and forked (gunicorn --preload).

Django imports the URLconf (every view, the API and its schemas) on the first request, i.e. in
each worker after the fork, where none of it is shared. Loading it here puts it in the parent;
`gc.freeze()` then moves everything loaded so far out of the collector's reach, so a worker's
collections do not write to (and copy) the pages it shares with the parent.
"""

from __future__ import annotations

import gc
import os

from django.core.wsgi import get_wsgi_application
from django.urls import get_resolver

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "newsdesk.settings")
application = get_wsgi_application()
get_resolver().url_patterns  # noqa: B018 (imports every view now, before any fork)
gc.freeze()

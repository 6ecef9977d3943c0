"""The baseline for web benches: a bare Django view (no database, no apps) in one module that is
settings, URLconf and WSGI application at once, served by the same gunicorn command."""

from __future__ import annotations

import os

from django.http import HttpRequest, HttpResponse
from django.urls import path
from django.views.decorators.csrf import csrf_exempt

SECRET_KEY = "bare-bench"  # noqa: S105 (a throwaway key for a loopback bench)
DEBUG = False
ALLOWED_HOSTS = ["*"]
ROOT_URLCONF = __name__
INSTALLED_APPS: list[str] = []
MIDDLEWARE: list[str] = []
DATABASES: dict[str, dict[str, str]] = {}
USE_TZ = True


@csrf_exempt
def ok(request: HttpRequest) -> HttpResponse:
    return HttpResponse(b'{"ok": true}', content_type="application/json")


urlpatterns = [path("telegram/webhook/", ok), path("healthz", ok)]

os.environ.setdefault("DJANGO_SETTINGS_MODULE", __name__)
from django.core.wsgi import get_wsgi_application  # noqa: E402

application = get_wsgi_application()

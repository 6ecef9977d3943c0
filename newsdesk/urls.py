from __future__ import annotations

from django.contrib import admin
from django.urls import include, path
from django.views.generic import RedirectView

from newsdesk import views
from newsdesk.api import api
from newsdesk.desk import accounts
from newsdesk.telegram.webhook import webhook as telegram_webhook

handler500 = "newsdesk.outage.server_error"

urlpatterns = [
    path("healthz", views.healthz, name="healthz"),
    path("admin/", admin.site.urls),
    path("api/", api.urls),
    path("telegram/webhook/", telegram_webhook, name="telegram-webhook"),
    path("accounts/login/", accounts.login, name="login"),
    path("accounts/logout/", accounts.logout, name="logout"),
    path("desk/", include("newsdesk.desk.urls")),
    path("", RedirectView.as_view(pattern_name="desk:new", permanent=False)),
]

from __future__ import annotations

from django.contrib import admin
from django.urls import path

from newsdesk import views
from newsdesk.api import api

urlpatterns = [
    path("healthz", views.healthz, name="healthz"),
    path("admin/", admin.site.urls),
    path("api/", api.urls),
]

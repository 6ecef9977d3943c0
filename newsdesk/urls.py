from __future__ import annotations

from django.contrib import admin
from django.urls import path

from newsdesk import views

urlpatterns = [
    path("healthz", views.healthz, name="healthz"),
    path("admin/", admin.site.urls),
]

from __future__ import annotations

from django.apps import AppConfig


class NewsdeskConfig(AppConfig):
    name = "newsdesk"
    verbose_name = "기자"

from __future__ import annotations

from django.apps import AppConfig


class StylesConfig(AppConfig):
    name = "styles"
    verbose_name = "작성 스타일"

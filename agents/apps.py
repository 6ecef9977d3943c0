from __future__ import annotations

from django.apps import AppConfig


class AgentsConfig(AppConfig):
    name = "agents"
    verbose_name = "에이전트 실행"

    def ready(self) -> None:
        from agents.llm import startup  # noqa: F401  (registers the startup checks)

from __future__ import annotations

from typing import Any

from django.apps import AppConfig


class NewsdeskConfig(AppConfig):
    name = "newsdesk"
    verbose_name = "기자"

    def ready(self) -> None:
        # agents sits below this app and never imports it: the Telegram face plugs itself in here.
        from agents.drafting import attachments
        from agents.work import runs
        from newsdesk.telegram import attachments as telegram_attachments

        attachments.register_fetcher("telegram", telegram_attachments.fetch)
        runs.add_listener(_on_run_event)


def _on_run_event(run: Any, event: Any) -> None:
    # Imported on the first event: progress pulls in the Telegram client (python-telegram-bot),
    # which the web process, where runs are only created, never needs.
    from newsdesk.telegram import progress

    progress.on_run_event(run, event)

from __future__ import annotations

from django.apps import AppConfig


class NewsdeskConfig(AppConfig):
    name = "newsdesk"
    verbose_name = "기자"

    def ready(self) -> None:
        # agents sits below this app and never imports it: the Telegram face plugs itself in here.
        from agents import attachments, runs
        from newsdesk.telegram import attachments as telegram_attachments
        from newsdesk.telegram import progress

        attachments.register_fetcher("telegram", telegram_attachments.fetch)
        runs.add_listener(progress.on_run_event)

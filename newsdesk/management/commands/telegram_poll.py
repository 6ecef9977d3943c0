"""`manage.py telegram_poll`: development without a public URL.

Removes the webhook (Telegram refuses getUpdates while one is set), then long-polls and hands each
raw update to the same function the webhook view uses (`newsdesk.telegram.webhook.receive_update`),
so storage, deduplication and the Celery hand-off are exactly the production path. Run a Celery
worker alongside (`make run` does). Run `set_telegram_webhook` again to go back to webhook mode.
"""

from __future__ import annotations

import contextlib
import time
from collections import Counter
from collections.abc import Callable
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from newsdesk.telegram import client

Handler = Callable[[dict[str, Any]], str]
ERROR_PAUSE = 5.0  # seconds between rounds after a transient error (unless Telegram says otherwise)


def load_handler() -> Handler:
    """The webhook's handler, imported lazily (it pulls in the models and the task stack)."""
    from newsdesk.telegram.webhook import receive_update

    return receive_update


class Command(BaseCommand):
    help = "Development: deletes the webhook and long-polls Telegram, feeding updates to the webhook handler."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--once", action="store_true", help="one polling round, then exit")
        parser.add_argument("--timeout", type=int, default=30, help="long-polling timeout in seconds")

    def handle(self, *args: Any, **options: Any) -> None:
        handler = load_handler()
        once: bool = options["once"]
        timeout: int = max(0, options["timeout"])
        try:
            client.delete_webhook()
        except client.TelegramError as exc:
            raise CommandError(f"could not delete the webhook: {exc.description}") from None
        self.stdout.write("Webhook deleted; polling for updates" + ("." if once else " (Ctrl-C to stop)."))
        self.offset: int | None = None  # update_id + 1 of the last update handed over
        seen: Counter[str] = Counter()
        try:
            while True:
                self._round(handler, timeout, seen)
                if once:
                    break
        except KeyboardInterrupt:
            self.stdout.write("Stopping.")
        finally:
            self._confirm(self.offset)
        summary = ", ".join(f"{count} {result}" for result, count in sorted(seen.items())) or "no updates"
        self.stdout.write(f"Done: {summary}.")

    def _round(self, handler: Handler, timeout: int, seen: Counter[str]) -> None:
        try:
            updates = client.get_updates(offset=self.offset, timeout=timeout)
        except client.TelegramError as exc:
            if exc.permanent:
                raise CommandError(f"getUpdates refused: {exc.description}") from None
            pause = exc.retry_after or ERROR_PAUSE
            self.stderr.write(f"getUpdates failed ({exc.description}); retrying in {pause:g} s")
            time.sleep(pause)
            return
        for update in updates:
            update_id = update.get("update_id")
            try:
                result = handler(update)
            except Exception as exc:
                # Leave the offset before this update: it comes again next round (the handler dedups).
                self.stderr.write(f"update {update_id}: handler failed: {type(exc).__name__}: {exc}")
                time.sleep(1)
                return
            seen[result] += 1
            self.stdout.write(f"update {update_id}: {result}")
            if isinstance(update_id, int):
                self.offset = update_id + 1

    def _confirm(self, offset: int | None) -> None:
        """Tells Telegram that everything before `offset` is handled, so a restart does not refetch it."""
        if offset is None:
            return
        # Best effort: the handler dedups redelivered updates anyway.
        with contextlib.suppress(client.TelegramError, KeyboardInterrupt):
            client.get_updates(offset=offset, timeout=0)

"""`manage.py set_telegram_webhook URL`: point Telegram at our webhook, with the secret header, and
register the Korean command menu (setMyCommands)."""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import urlsplit

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser

from newsdesk.telegram import client, replies

# Telegram's rule for secret_token (setWebhook): 1-256 characters of A-Z a-z 0-9 _ -
SECRET_PATTERN = re.compile(r"[A-Za-z0-9_-]{1,256}")
ALLOWED_UPDATES = ["message", "callback_query"]  # the kinds the bot acts on (newsdesk.telegram.webhook)
WEBHOOK_PATH = "/telegram/webhook/"


class Command(BaseCommand):
    help = (
        "Registers URL as the bot's webhook with TELEGRAM_WEBHOOK_SECRET as its secret token "
        f"(Telegram sends it back in every request). URL normally ends with {WEBHOOK_PATH}"
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "url", help=f"public https URL of the webhook, e.g. https://example.org{WEBHOOK_PATH}"
        )
        parser.add_argument(
            "--allow-http",
            action="store_true",
            help="accept an http:// URL (local testing against a fake or a local Bot API server only)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        url: str = options["url"].strip()
        secret: str = getattr(settings, "TELEGRAM_WEBHOOK_SECRET", "") or ""
        if not secret:
            raise CommandError(
                "TELEGRAM_WEBHOOK_SECRET is not set: without it the webhook refuses every update."
            )
        if not SECRET_PATTERN.fullmatch(secret):
            raise CommandError(
                "TELEGRAM_WEBHOOK_SECRET must be 1-256 characters of A-Z a-z 0-9 _ - (Telegram's rule)."
            )
        parts = urlsplit(url)
        if parts.scheme not in ("https", "http") or not parts.hostname:
            raise CommandError("URL must be an absolute https:// URL.")
        if parts.scheme == "http" and not options["allow_http"]:
            raise CommandError("Telegram only delivers to https:// URLs (use --allow-http for local tests).")
        shown = url.replace(secret, "[secret]")
        if not parts.path.endswith(WEBHOOK_PATH):
            self.stderr.write(
                f"Warning: {shown} does not end with {WEBHOOK_PATH}, where our webhook listens."
            )
        try:
            client.set_webhook(url=url, secret=secret, allowed_updates=ALLOWED_UPDATES)
        except client.TelegramError as exc:
            raise CommandError(f"Telegram refused the webhook: {exc.description}") from None
        try:
            client.set_commands(commands=replies.COMMAND_MENU)
        except client.TelegramError as exc:
            raise CommandError(
                f"Webhook set, but Telegram refused the command menu: {exc.description}"
            ) from None
        self.stdout.write(
            f"Webhook set to {shown} with the secret token from TELEGRAM_WEBHOOK_SECRET; "
            f"updates: {', '.join(ALLOWED_UPDATES)}; command menu: {len(replies.COMMAND_MENU)} commands."
        )

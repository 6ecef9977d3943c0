from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from newsdesk import crypto
from newsdesk.models import Reporter


class Command(BaseCommand):
    help = (
        "Re-encrypts every stored Anthropic key with the first key of NEWSDESK_ENCRYPTION_KEYS. "
        "Run after prepending a new key; drop the old key only when this reports 0 unreadable."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        rotated = unreadable = 0
        for reporter in Reporter.objects.exclude(anthropic_key_encrypted="").only(
            "pk", "anthropic_key_encrypted"
        ):
            try:
                token = crypto.rotate(reporter.anthropic_key_encrypted)
            except crypto.KeyUnreadable:
                unreadable += 1
                continue
            # Compare-and-swap: a key changed meanwhile by its reporter is left as they set it.
            rotated += Reporter.objects.filter(
                pk=reporter.pk, anthropic_key_encrypted=reporter.anthropic_key_encrypted
            ).update(anthropic_key_encrypted=token)
        self.stdout.write(f"rotated {rotated}, unreadable {unreadable}")

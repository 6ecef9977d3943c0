"""Deletes messages past the three-day window. Level-triggered and idempotent: safe to run late,
twice, or twice at once; reads hide expired rows anyway (see selectors.visible)."""

from __future__ import annotations

from django.utils import timezone

from conversations.models import Message
from conversations.selectors import RETENTION


def purge_messages() -> int:
    deleted, _ = Message.objects.filter(created_at__lt=timezone.now() - RETENTION).delete()
    return deleted

"""Retention: what is deleted when. Every read path also hides expired rows on its own."""

from __future__ import annotations

from datetime import timedelta

from django.utils import timezone

from agents.models import Upload

UPLOAD_BYTES_TTL = timedelta(hours=1)


def purge_all() -> dict[str, int]:
    return {"upload_bytes": purge_upload_bytes()}


def purge_upload_bytes() -> int:
    """Bytes of uploads nobody parsed (worker down) are not kept longer than an hour."""
    cutoff = timezone.now() - UPLOAD_BYTES_TTL
    return Upload.objects.filter(created_at__lt=cutoff, content__isnull=False).update(content=None)

"""Retention: what is deleted when. Every read path also hides expired rows on its own."""

from __future__ import annotations

from datetime import timedelta

from django.utils import timezone

from agents.models import MONITOR_RETENTION, MonitorItem, MonitorResult, ReportCache, Upload
from agents.monitoring.locks import purge_expired_locks

UPLOAD_BYTES_TTL = timedelta(hours=1)


def purge_all() -> dict[str, int]:
    return {"upload_bytes": purge_upload_bytes(), **purge_monitoring()}


def purge_upload_bytes() -> int:
    """Bytes of uploads nobody parsed (worker down) are not kept longer than an hour."""
    cutoff = timezone.now() - UPLOAD_BYTES_TTL
    return Upload.objects.filter(created_at__lt=cutoff, content__isnull=False).update(content=None)


def purge_monitoring() -> dict[str, int]:
    """/check and /report history older than 5 days (v1 kept 5 days too); expired job locks.

    The runs themselves stay (their LLM calls are the cost record); only what they found goes.
    Idempotent: a second pass, or two at once, deletes nothing more.
    """
    now = timezone.now()
    cutoff = now - MONITOR_RETENTION
    items, _ = MonitorItem.objects.filter(created_at__lt=cutoff).delete()
    results, _ = MonitorResult.objects.filter(created_at__lt=cutoff).delete()
    # A day's briefing lives as long as its last use; its items go with it (cascade).
    _, by_model = ReportCache.objects.filter(updated_at__lt=cutoff).delete()
    locks = purge_expired_locks()
    return {
        "monitor_items": items,
        "monitor_results": results,
        "report_caches": by_model.get("agents.ReportCache", 0),
        "report_items": by_model.get("agents.ReportItem", 0),
        "job_locks": locks,
    }

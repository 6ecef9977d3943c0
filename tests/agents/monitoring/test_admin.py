"""Monitoring records in the admin: listed and readable, never edited by hand."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone

from agents.models import JobLock, ReportCache, ReportItem
from tests.factories import MonitorItemFactory, MonitorResultFactory, RunFactory

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("model", ["monitoritem", "monitorresult", "reportcache", "joblock"])
def test_each_monitoring_changelist_and_record_page_renders_read_only(
    admin_client: Client, reporter: Any, model: str
) -> None:
    now = timezone.now()
    run = RunFactory(reporter=reporter, kind="report", status="done")
    result = MonitorResultFactory(run=run, window_start=now - timedelta(hours=3), window_end=now)
    cache = ReportCache.objects.create(reporter=reporter, day=now.date())
    report_item = ReportItem.objects.create(cache=cache, title="브리핑 항목", summary="요약")
    item = MonitorItemFactory(run=run, category="important", title="항목", report_item=report_item)
    lock = JobLock.objects.create(reporter=reporter, run=run, acquired_at=now, expires_at=now)
    records = {"monitoritem": item, "monitorresult": result, "reportcache": cache, "joblock": lock}
    pk = records[model].pk

    listing = admin_client.get(f"/admin/agents/{model}/")
    page = admin_client.get(f"/admin/agents/{model}/{pk}/change/")

    assert listing.status_code == 200 and page.status_code == 200
    assert admin_client.get(f"/admin/agents/{model}/add/").status_code == 403

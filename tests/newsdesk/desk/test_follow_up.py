"""The desk's "후속 기사" button on each monitor item, and the form it opens."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from agents.models import Run
from tests.factories import MonitorResultFactory
from tests.fixtures.followup import OUTLET, SUMMARY, TITLE, competitor_item
from tests.newsdesk.desk.html import parse

pytestmark = pytest.mark.django_db


def test_each_reported_monitor_item_links_to_a_follow_up_form_naming_the_article(
    desk: Client, reporter: Any
) -> None:
    item = competitor_item(reporter)
    competitor_item(reporter, run=item.run, category="skip", title="스킵한 기사", position=1)
    MonitorResultFactory(run=item.run, analysed=2)

    monitor = parse(desk.get(f"/desk/monitor/runs/{item.run_id}/"))
    (button,) = monitor.select(".monitor-items a.follow-up")  # the skipped item has none
    form = parse(desk.get(button["href"]))

    assert button["href"] == f"/desk/?follow_up={item.pk}"
    box = form.select_one(".follow-up-box")
    assert OUTLET in box.get_text() and TITLE in box.get_text() and SUMMARY in box.get_text()
    assert form.select_one('input[name="follow_up"]')["value"] == str(item.pk)


def test_the_form_queues_the_follow_up_with_the_reporters_instruction(desk: Client, reporter: Any) -> None:
    item = competitor_item(reporter)

    response = desk.post("/desk/", {"follow_up": item.pk, "instruction": "피해자 반응 중심으로"})

    run = Run.objects.get(kind="draft")
    assert response.status_code == 303 and response["Location"] == f"/desk/drafts/{run.pk}/"
    assert run.input["follow_up"]["item"] == item.pk and run.input["instruction"] == "피해자 반응 중심으로"


def test_another_reporters_item_is_not_found_on_the_desk(desk: Client, other_reporter: Any) -> None:
    theirs = competitor_item(other_reporter)

    assert desk.get(f"/desk/?follow_up={theirs.pk}").status_code == 404
    page = parse(desk.post("/desk/", {"follow_up": theirs.pk}))
    assert "찾을 수 없습니다" in page.get_text()
    assert not Run.objects.filter(kind="draft").exists()

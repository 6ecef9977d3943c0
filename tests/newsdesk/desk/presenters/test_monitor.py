"""A monitored article as the page shows it: tags once, a safe link, and the run's panel."""

from __future__ import annotations

from datetime import datetime

import pytest

from agents.models import MonitorItem
from newsdesk.desk.presenters.monitor import monitor_panel, monitor_row
from newsdesk.telegram.formatters import KST
from tests.factories import MonitorItemFactory, MonitorResultFactory

pytestmark = pytest.mark.django_db
TODAY = datetime(2026, 3, 2, 12, 0, tzinfo=KST)


def test_an_exclusive_title_carries_its_tag_once_and_a_javascript_url_is_no_link(reporter) -> None:
    item = MonitorItemFactory(
        run__reporter=reporter,
        category=MonitorItem.Category.EXCLUSIVE,
        action=MonitorItem.Action.MODIFIED,
        title="[단독] 경찰, 구청장 소환",
        originallink="javascript:alert(1)",
        pub_time=TODAY.replace(hour=9, minute=15),
    )

    row = monitor_row(item=item, today=TODAY.date())

    assert row.title == "경찰, 구청장 소환"
    assert row.tags == [("exclusive", "[단독]"), ("modified", "[수정]")]
    assert (row.url, row.time) == ("", "09:15")


def test_a_checks_panel_lists_what_it_reported_and_folds_what_it_skipped(reporter) -> None:
    result = MonitorResultFactory(run__reporter=reporter)
    MonitorItemFactory(run=result.run, title="보도")
    MonitorItemFactory(run=result.run, title="건너뜀", category=MonitorItem.Category.SKIP)

    panel = monitor_panel(run=result.run)

    assert [row.title for row in panel.items] == ["보도"]
    assert [row.title for row in panel.collapsed] == ["건너뜀"]
    assert panel.listed == 2 and not panel.expired

"""In the browser: an embargo banner on an open draft page goes at its moment, without a reload
(the page's clock is moved on; the server still sees the embargo in force)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.utils import timezone
from playwright.sync_api import Page, expect

from agents.facts.embargo import KST
from tests.e2e.test_desk import Watch, log_in
from tests.factories import ArticleFactory


def test_the_banner_of_an_open_page_goes_when_the_embargo_ends(
    page: Page, live_server: Any, reporter
) -> None:
    until = (timezone.now() + timedelta(hours=1)).astimezone(KST).replace(microsecond=0)
    run = ArticleFactory(reporter=reporter, embargo={"until": until.isoformat(), "text": "보도시점"}).run
    watch = Watch(page, live_server.url)
    page.clock.install()
    log_in(page, live_server.url)
    page.goto(f"{live_server.url}/desk/drafts/{run.pk}/")
    banner = page.locator(".notice.embargo")
    expect(banner).to_contain_text("보도 가능:")

    page.clock.fast_forward("01:00:05")

    expect(banner).to_have_count(0)
    watch.assert_clean()

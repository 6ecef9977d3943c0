"""Every desk page answers a browser with the whole document and htmx navigation with its main region."""

from __future__ import annotations

import pytest
from django.test import Client

from agents.models import Run
from tests.newsdesk.desk.conftest import HTMX
from tests.newsdesk.desk.html import parse

pytestmark = pytest.mark.django_db
PAGES = {
    "/desk/": "새 기사",
    "/desk/drafts/": "내 기사",
    "/desk/drafts/{id}/": "서울시, 청년 월세",
    "/desk/verify/": "기사 검증",
    "/desk/profile/": "프로필",
}


@pytest.mark.parametrize(("path", "title"), PAGES.items())
def test_a_page_is_a_whole_document_for_a_browser(desk: Client, done_run: Run, path: str, title: str) -> None:
    response = desk.get(path.format(id=done_run.pk))

    soup = parse(response)
    assert response.status_code == 200 and response["Cache-Control"].startswith("max-age=0")
    assert soup.select_one("header.topbar nav") and soup.select_one("main#main")
    assert title in soup.title.get_text()
    assert soup.body["hx-headers"].startswith('{"X-CSRFToken": "')


@pytest.mark.parametrize(("path", "title"), PAGES.items())
def test_a_page_is_its_main_region_for_htmx_navigation(
    desk: Client, done_run: Run, path: str, title: str
) -> None:
    response = desk.get(path.format(id=done_run.pk), **HTMX)

    body = response.content.decode()
    assert response.status_code == 200
    assert "<html" not in body and "topbar" not in body and "<h1>" in body
    assert body.lstrip().startswith("<title>") and title in parse(response).title.get_text()


@pytest.mark.parametrize("header", ["HTTP_HX_BOOSTED", "HTTP_HX_HISTORY_RESTORE_REQUEST"])
def test_boosted_and_history_restore_requests_get_the_whole_document(desk: Client, header: str) -> None:
    response = desk.get("/desk/drafts/", **HTMX, **{header: "true"})

    assert "<html" in response.content.decode()


def test_the_site_root_leads_to_the_desk(desk: Client) -> None:
    response = desk.get("/")

    assert response.status_code == 302 and response["Location"] == "/desk/"

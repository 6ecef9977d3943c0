"""Every desk URL: anonymous → login, another reporter's object → 404, a POST without CSRF → 403."""

from __future__ import annotations

import json

import pytest
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver

from agents.models import Run
from tests.factories import RunFactory
from tests.fixtures.press import PRESS_RELEASE
from tests.newsdesk.desk.conftest import HTMX
from tests.newsdesk.desk.html import one

pytestmark = pytest.mark.django_db

# (url name, method, path); {id} is a finished draft of reporter "kim".
WITH_ID = [
    ("draft", "get", "/desk/drafts/{id}/"),
    ("draft_status", "get", "/desk/drafts/{id}/status/"),
    ("draft_edit", "post", "/desk/drafts/{id}/edits/"),
    ("draft_add_fact", "post", "/desk/drafts/{id}/facts/add/"),
    ("draft_retry", "post", "/desk/drafts/{id}/retry/"),
    ("draft_verify", "post", "/desk/drafts/{id}/verify/"),
    ("draft_download", "get", "/desk/drafts/{id}/download.txt"),
    ("draft_download", "get", "/desk/drafts/{id}/download.docx"),
    # A draft id on the monitoring URLs is "not found" too (check/report runs: test_monitor.py).
    ("monitor_run", "get", "/desk/monitor/runs/{id}/"),
    ("monitor_run_status", "get", "/desk/monitor/runs/{id}/status/"),
]
WITHOUT_ID = [
    ("new", "get", "/desk/"),
    ("new", "post", "/desk/"),
    ("drafts", "get", "/desk/drafts/"),
    ("verify", "get", "/desk/verify/"),
    ("verify", "post", "/desk/verify/"),
    ("profile", "get", "/desk/profile/"),
    ("profile", "post", "/desk/profile/"),
    ("key_test", "post", "/desk/profile/key-test/"),
    ("monitor", "get", "/desk/monitor/"),
    ("monitor_check", "post", "/desk/monitor/check/"),
    ("monitor_report", "post", "/desk/monitor/report/"),
    ("monitor_schedule_add", "post", "/desk/monitor/schedules/add/"),
    ("monitor_schedule_remove", "post", "/desk/monitor/schedules/remove/"),
]
# Read-only and login-free by design: the signed token is the credential (test_shared.py).
LOGIN_FREE = {"shared", "shared_status"}
POSTS = [row for row in WITH_ID + WITHOUT_ID if row[1] == "post"]


def desk_url_names() -> set[str]:
    include = next(
        p for p in get_resolver().url_patterns if isinstance(p, URLResolver) and p.namespace == "desk"
    )
    return {p.name for p in include.url_patterns if isinstance(p, URLPattern) and p.name}


def test_the_tables_here_cover_every_desk_url() -> None:
    assert desk_url_names() - LOGIN_FREE == {name for name, _, _ in WITH_ID + WITHOUT_ID}


@pytest.mark.parametrize(("name", "method", "path"), WITH_ID + WITHOUT_ID)
@pytest.mark.parametrize("headers", [{}, HTMX], ids=["page", "htmx"])
def test_anonymous_visitors_are_sent_to_the_login_page(
    client: Client, reporter, name: str, method: str, path: str, headers: dict
) -> None:
    run = RunFactory(reporter=reporter, kind="draft")
    url = path.format(id=run.pk)

    response = getattr(client, method)(url, **headers)

    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/login/?next=")


@pytest.mark.parametrize(("name", "method", "path"), WITH_ID)
@pytest.mark.parametrize("headers", [{}, HTMX], ids=["page", "htmx"])
def test_another_reporters_draft_is_not_found_at_every_url(
    other_desk: Client, done_run: Run, name: str, method: str, path: str, headers: dict
) -> None:
    runs_before = Run.objects.count()

    response = getattr(other_desk, method)(
        path.format(id=done_run.pk), {"instruction": "제목 바꿔줘"}, **headers
    )

    assert response.status_code == 404
    assert Run.objects.count() == runs_before


def test_another_reporters_revision_never_shows_in_my_history(other_desk: Client, done_run: Run) -> None:
    response = other_desk.get("/desk/drafts/")

    assert done_run.article.headline not in response.content.decode()


@pytest.mark.parametrize(("name", "method", "path"), POSTS)
@pytest.mark.parametrize("headers", [{}, HTMX], ids=["form", "htmx"])
def test_a_post_without_a_csrf_token_is_refused(
    reporter, name: str, method: str, path: str, headers: dict
) -> None:
    run = RunFactory(reporter=reporter, kind="draft", status="failed")
    browser = Client(enforce_csrf_checks=True)
    browser.force_login(reporter.user)
    runs_before = Run.objects.count()

    response = browser.post(
        path.format(id=run.pk), {"press_release": PRESS_RELEASE, "instruction": "제목 바꿔줘"}, **headers
    )

    assert response.status_code == 403
    assert Run.objects.count() == runs_before


def test_login_and_logout_need_the_csrf_token_too(reporter) -> None:
    browser = Client(enforce_csrf_checks=True)
    assert browser.post("/accounts/login/", {"username": "kim", "password": "x"}).status_code == 403
    browser.force_login(reporter.user)
    assert browser.post("/accounts/logout/").status_code == 403


def test_an_htmx_post_with_the_pages_csrf_header_is_accepted(reporter, done_run: Run) -> None:
    browser = Client(enforce_csrf_checks=True)
    browser.force_login(reporter.user)
    page = browser.get(f"/desk/drafts/{done_run.pk}/")
    token = json.loads(one(page, "body")["hx-headers"])["X-CSRFToken"]

    response = browser.post(
        f"/desk/drafts/{done_run.pk}/edits/", {"instruction": "제목 바꿔줘"}, HTTP_X_CSRFTOKEN=token, **HTMX
    )

    assert response.status_code == 200 and Run.objects.filter(kind="edit").exists()


@pytest.mark.parametrize(
    "path", ["/desk/", "/desk/drafts/", "/desk/verify/", "/desk/profile/", "/accounts/login/"]
)
def test_desk_pages_forbid_inline_scripts_and_third_party_origins(desk: Client, path: str) -> None:
    csp = desk.get(path)["Content-Security-Policy"]

    assert "default-src 'self'" in csp and "script-src 'self';" in csp and "style-src 'self';" in csp
    assert "unsafe-inline" not in csp and "img-src 'self'" in csp

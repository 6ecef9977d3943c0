"""Under "빠진 핵심 사실" each fact has an "추가" button that makes an edit inserting only that fact."""

from __future__ import annotations

import json

import pytest
from django.test import Client

from agents.models import Article, Run
from tests.newsdesk.desk.conftest import HTMX
from tests.newsdesk.desk.html import one, parse

pytestmark = pytest.mark.django_db

RULE = "지원 대상자는 소득과 재산 기준을 충족해야 하며"


def test_each_missing_fact_has_an_add_button_posting_its_number_with_the_csrf_token(
    desk: Client, done_run: Run
) -> None:
    page = parse(desk.get(f"/desk/drafts/{done_run.pk}/"))

    forms = page.select(".missing-facts form.add-fact")
    assert len(forms) == 1
    form = forms[0]
    assert form["hx-post"] == f"/desk/drafts/{done_run.pk}/facts/add/" and form["method"] == "post"
    assert form.select_one("input[name=fact]")["value"] == "1"
    assert form.select_one("input[name=csrfmiddlewaretoken]") is not None
    assert form.select_one("button").get_text() == "추가"


def test_add_makes_an_edit_naming_the_fact_and_swaps_in_its_page(reporter, done_run: Run) -> None:
    browser = Client(enforce_csrf_checks=True)
    browser.force_login(reporter.user)
    token = json.loads(one(browser.get(f"/desk/drafts/{done_run.pk}/"), "body")["hx-headers"])["X-CSRFToken"]

    response = browser.post(
        f"/desk/drafts/{done_run.pk}/facts/add/", {"fact": "1"}, HTTP_X_CSRFTOKEN=token, **HTMX
    )

    edit = Run.objects.get(kind=Run.Kind.EDIT)
    assert response.status_code == 200
    assert response["HX-Retarget"] == "#main" and response["HX-Push-Url"] == f"/desk/drafts/{edit.pk}/"
    assert edit.parent_article == Article.objects.get(run=done_run)
    assert RULE in edit.input["instruction"]


def test_without_htmx_add_redirects_to_the_new_revision(desk: Client, done_run: Run) -> None:
    response = desk.post(f"/desk/drafts/{done_run.pk}/facts/add/", {"fact": "1"})

    edit = Run.objects.get(kind=Run.Kind.EDIT)
    assert response.status_code == 303 and response["Location"] == f"/desk/drafts/{edit.pk}/"


@pytest.mark.parametrize("number", ["2", "0", "abc", ""])
def test_a_fact_the_article_does_not_list_makes_no_edit_and_says_why(
    desk: Client, done_run: Run, number: str
) -> None:
    response = desk.post(f"/desk/drafts/{done_run.pk}/facts/add/", {"fact": number}, follow=True)

    assert not Run.objects.filter(kind=Run.Kind.EDIT).exists()
    assert "목록에 없습니다" in response.content.decode()


def test_another_reporters_fact_is_not_found(other_desk: Client, done_run: Run) -> None:
    response = other_desk.post(f"/desk/drafts/{done_run.pk}/facts/add/", {"fact": "1"}, **HTMX)

    assert response.status_code == 404 and not Run.objects.filter(kind=Run.Kind.EDIT).exists()

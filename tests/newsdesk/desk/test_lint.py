"""The lint list under the article: each hit with its rule, where it is and the fix, and a
"고쳐줘" button that posts the fixing edit."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from agents.models import Run
from tests.factories import ArticleFactory
from tests.newsdesk.desk.html import parse

pytestmark = pytest.mark.django_db


def finished(reporter, body: str) -> Run:
    article = ArticleFactory(
        reporter=reporter,
        department="테크부",
        headline="제목",
        draft_body=body,
        body=body,
        verdict="pass",
        length=len(body),
    )
    return article.run


def test_the_result_lists_each_lint_hit_with_position_and_fix_and_offers_fix_it(
    desk: Client, reporter
) -> None:
    run = finished(reporter, "업계 리스크가 커졌다.\n\n정부에 의해 발표됐다.")

    soup = parse(desk.get(f"/desk/drafts/{run.pk}/"))

    rows = [li.get_text(" ", strip=True) for li in soup.select(".lint-list li")]
    assert len(rows) == 2
    assert "리스크" in rows[0] and "1문단 4번째 글자" in rows[0] and "'위험'" in rows[0]
    assert "에 의해" in rows[1] and "2문단" in rows[1]
    form = soup.select_one(".lint form")
    assert form["action"] == reverse("desk:draft_edit", args=[run.pk])
    assert form.select_one("input[name=instruction]")["value"] == "고쳐줘"


def test_a_clean_article_says_nothing_was_found(desk: Client, reporter) -> None:
    run = finished(reporter, "서울시는 3일 예산을 발표했다.")

    soup = parse(desk.get(f"/desk/drafts/{run.pk}/"))

    assert (
        soup.select(".lint-list li") == [] and "걸린 표현이 없습니다" in soup.select_one(".lint").get_text()
    )

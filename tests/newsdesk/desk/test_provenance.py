"""The draft page shows where each sentence comes from, and the release's facts the article lacks."""

from __future__ import annotations

import pytest
from django.test import Client

from agents.models import Article, Run
from tests.fixtures.press import PRESS_RELEASE
from tests.newsdesk.desk.html import parse

pytestmark = pytest.mark.django_db


def test_each_sentence_names_the_source_spans_marked_in_the_source_panel(desk: Client, done_run: Run) -> None:
    page = parse(desk.get(f"/desk/drafts/{done_run.pk}/"))

    sentences = page.select(".provenance button.traced")
    article = Article.objects.get(run=done_run)
    assert [b.get_text() for b in sentences] == [row["text"] for row in article.provenance]
    keys = sentences[0]["data-spans"].split()
    assert keys, "the first sentence rests on the release"
    mark = page.select_one(f'.source-panel mark[data-span="{keys[0]}"]')
    assert mark is not None and mark.get_text() in PRESS_RELEASE


def test_a_sentence_without_a_span_is_marked_and_missing_facts_are_listed(
    desk: Client, done_run: Run
) -> None:
    article = Article.objects.get(run=done_run)
    article.provenance = [*article.provenance, {"text": "근거 없는 문장이다.", "spans": []}]
    article.missing_facts = [{"fact": "담당부서: 주택정책과", "source_text": "담당부서 : 주택정책과"}]
    article.save()

    page = parse(desk.get(f"/desk/drafts/{done_run.pk}/"))

    unmarked = page.select(".provenance button.traced.no-span")
    assert [b.get_text() for b in unmarked] == ["근거 없는 문장이다."]
    assert "근거를 찾지 못한 문장 1개" in page.select_one(".provenance h3").get_text()
    section = page.select_one(".missing-facts")
    assert "빠진 핵심 사실" in section.get_text() and "담당부서: 주택정책과" in section.get_text()


def test_the_source_panel_names_each_sources_kind_and_an_articles_outlet(desk: Client, done_run: Run) -> None:
    article = Article.objects.get(run=done_run)
    article.source_material = [
        *article.source_material,
        {"kind": "article", "title": "청년 월세 확대", "text": "예산은 480억 원이다.", "outlet": "한국일보"},
    ]
    span = {"source": 1, "start": 0, "end": 12, "text": "예산은 480억 원이다."}
    article.provenance = [*article.provenance, {"text": "예산은 480억 원이다.", "spans": [span]}]
    article.save()

    page = parse(desk.get(f"/desk/drafts/{done_run.pk}/"))

    headings = [h.get_text(" ", strip=True) for h in page.select(".source-panel .source-doc h4")]
    assert headings[0].startswith("자료 0 보도자료")
    assert headings[-1] == "자료 1 타사 기사 한국일보 · 청년 월세 확대"

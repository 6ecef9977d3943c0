"""A draft's result page data: safe source links, cost in readable units, the revision chain."""

from __future__ import annotations

from decimal import Decimal

import pytest

from agents.models import Run
from newsdesk.desk.presenters.drafts import cost_of, draft_rows, revisions_of, source_links
from tests.factories import ArticleFactory, LLMCallFactory, RunFactory


def test_only_http_and_https_sources_become_links_and_junk_entries_are_skipped() -> None:
    links = source_links(
        sources=[
            {"title": "연합뉴스", "url": "https://www.yna.co.kr/view/1"},
            {"title": "악성", "url": "javascript:alert(1)"},
            {"url": "http://example.com/a"},
            "not a source",
        ]
    )

    assert [(link.title, link.url) for link in links] == [
        ("연합뉴스", "https://www.yna.co.kr/view/1"),
        ("악성", ""),
        ("http://example.com/a", "http://example.com/a"),
    ]


@pytest.mark.django_db
def test_the_cost_adds_the_runs_model_calls_and_keeps_tenths_of_a_cent(reporter) -> None:
    article = ArticleFactory(reporter=reporter)
    article.run.timings = {"draft_seconds": 12.4, "verify_seconds": 0.42}
    for cost in ("0.0002", "0.0003"):
        LLMCallFactory(run=article.run, reporter=reporter, cost_usd=Decimal(cost), status="ok")

    cost = cost_of(run=article.run)

    assert (cost.mode, cost.draft_seconds, cost.verify_seconds) == ("draft", "12", "0.4")
    assert (cost.llm_calls, cost.cost_usd) == (2, "0.0005")


@pytest.mark.django_db
def test_every_revision_of_an_article_is_listed_with_an_edit_under_way(reporter, other_reporter) -> None:
    first = ArticleFactory(reporter=reporter)
    second = ArticleFactory(reporter=reporter, parent=first, revision=2, instruction="제목 바꿔줘")
    RunFactory(reporter=reporter, kind=Run.Kind.EDIT, parent_article=second, input={"instruction": "줄여줘"})
    ArticleFactory(reporter=other_reporter, parent=first, revision=2)  # never someone else's

    links = revisions_of(reporter=reporter, article=second)

    assert [(link.revision, link.instruction, link.current, link.pending) for link in links] == [
        (1, "", False, False),
        (2, "제목 바꿔줘", True, False),
        (3, "줄여줘", False, True),
    ]


@pytest.mark.django_db
def test_the_draft_list_shows_only_the_reporters_drafts_and_edits_with_their_articles(
    reporter, other_reporter
) -> None:
    article = ArticleFactory(reporter=reporter)
    RunFactory(reporter=reporter, kind=Run.Kind.CHECK)
    RunFactory(reporter=other_reporter)

    rows = draft_rows(reporter=reporter)

    assert [(row.run, row.mode, row.article) for row in rows] == [(article.run, "draft", article)]

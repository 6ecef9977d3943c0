"""Fixtures shared by the agent tests."""

from __future__ import annotations

import pytest

from agents import tasks
from agents.models import Article
from agents.services import draft_create
from tests.agents.draft_script import submit, verify_pass
from tests.fakes.anthropic import FakeAnthropic
from tests.fakes.naver import FakeNaver, item
from tests.fakes.pages import FakePages, generic_article_html
from tests.fixtures.press import PRESS_RELEASE, RELATED_ARTICLE


@pytest.fixture
def news(fake_naver: FakeNaver, pages: FakePages) -> FakeNaver:
    """Three whitelisted articles on '청년 월세' (one from a non-whitelisted outlet) with pages to scrape."""
    pages.add_page("/a1", generic_article_html("서울시 청년 월세 확대", [RELATED_ARTICLE]))
    pages.add_page("/a2", generic_article_html("청년 주거비 부담 여전", [RELATED_ARTICLE]))
    fake_naver.add(
        "청년 월세",
        [
            item(
                "서울시 청년 월세 지원 확대",
                "https://www.yna.co.kr/view/1",
                pages.url("/a1"),
                "서울시가 청년 월세",
            ),
            item("청년 주거비 부담 여전", "https://www.hani.co.kr/arti/2", pages.url("/a2"), "주거비 부담"),
            item("[포토] 청년 주거 박람회", "https://www.donga.com/news/3", pages.url("/a3"), "사진"),
            item("블로그 청년 월세 정리", "https://blog.example.com/4", pages.url("/a4"), "블로그"),
        ],
    )
    return fake_naver


@pytest.fixture
def article(reporter, fake_llm: FakeAnthropic) -> Article:
    """A draft of the fixture release, finished through the real task with a clean model pass."""
    submit(fake_llm)
    verify_pass(fake_llm)
    run = draft_create(reporter=reporter, press_release=PRESS_RELEASE)
    tasks.draft_run.apply(args=[run.pk])
    return Article.objects.get(run=run)

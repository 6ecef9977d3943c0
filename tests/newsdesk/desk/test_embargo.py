"""An embargoed release: the draft page, the share page and both downloads open with "보도 가능: …"
while the embargo holds, and drop it once the moment has passed."""

from __future__ import annotations

import io
from collections.abc import Callable
from datetime import datetime

import docx
import pytest
import time_machine
from django.test import Client

from agents import tasks
from agents.facts.embargo import KST
from agents.models import Run
from newsdesk.desk.sharing import share_path
from tests.factories import ArticleFactory
from tests.fakes.anthropic import FakeAnthropic
from tests.fixtures.press import PRESS_RELEASE
from tests.newsdesk.desk.html import parse, text

pytestmark = pytest.mark.django_db

HEADER = "보도자료\n보도시점: 2026. 12. 1.(화) 06:00 이후 / 배포: 2026. 11. 30.(월)\n"
NOTICE = "보도 가능: 12월 1일(화) 06:00 이후"
BEFORE = datetime(2026, 12, 1, 5, 59, tzinfo=KST)
AFTER = datetime(2026, 12, 1, 6, 0, tzinfo=KST)


@pytest.fixture
def embargoed(finish_draft: Callable[..., Run]) -> Run:
    run = finish_draft(press_release=HEADER + PRESS_RELEASE)
    assert run.status == Run.Status.DONE, run.error
    return run


def test_the_draft_stores_the_embargo_read_from_its_release(embargoed: Run) -> None:
    assert embargoed.article.embargo == {
        "until": "2026-12-01T06:00:00+09:00",
        "text": "보도시점: 2026. 12. 1.(화) 06:00 이후 / 배포: 2026. 11. 30.(월)",
    }


def test_the_banner_shows_until_the_moment_and_then_goes(desk: Client, embargoed: Run) -> None:
    with time_machine.travel(BEFORE, tick=False):
        before = parse(desk.get(f"/desk/drafts/{embargoed.pk}/"))
    with time_machine.travel(AFTER, tick=False):
        after = parse(desk.get(f"/desk/drafts/{embargoed.pk}/"))

    assert text(before, ".notice.embargo") == NOTICE
    assert after.select(".notice.embargo") == []


def test_the_share_page_opens_with_the_embargo_line(client: Client, embargoed: Run) -> None:
    with time_machine.travel(BEFORE, tick=False):
        soup = parse(client.get(share_path(embargoed)))

    assert text(soup, ".notice.embargo") == NOTICE


def test_the_txt_download_starts_with_the_line_only_while_embargoed(desk: Client, embargoed: Run) -> None:
    path = f"/desk/drafts/{embargoed.pk}/download.txt"
    with time_machine.travel(BEFORE, tick=False):
        before = desk.get(path).content.decode("utf-8-sig")
    with time_machine.travel(AFTER, tick=False):
        after = desk.get(path).content.decode("utf-8-sig")

    assert before.startswith(NOTICE + "\n\n" + embargoed.article.headline)
    assert after.startswith(embargoed.article.headline)


def test_the_docx_download_starts_with_the_line_while_embargoed(desk: Client, embargoed: Run) -> None:
    with time_machine.travel(BEFORE, tick=False):
        response = desk.get(f"/desk/drafts/{embargoed.pk}/download.docx")

    paragraphs = [p for p in docx.Document(io.BytesIO(response.content)).paragraphs if p.text]
    assert paragraphs[0].text == NOTICE and paragraphs[0].runs[0].bold
    assert paragraphs[1].text == embargoed.article.headline


def test_a_release_for_immediate_publication_has_no_embargo_and_no_banner(
    desk: Client, finish_draft: Callable[..., Run]
) -> None:
    run = finish_draft(press_release="보도시점: 배포 즉시\n" + PRESS_RELEASE)

    assert run.article.embargo is None
    assert parse(desk.get(f"/desk/drafts/{run.pk}/")).select(".notice.embargo") == []


def test_an_edit_keeps_the_embargo_of_the_release(
    desk: Client, embargoed: Run, fake_llm: FakeAnthropic
) -> None:
    fake_llm.tool(
        "edit_article", {"headline": "새 제목", "body": embargoed.article.body, "changes_made": "제목"}
    )
    desk.post(f"/desk/drafts/{embargoed.pk}/edits/", {"instruction": "제목 바꿔줘"})
    revision = Run.objects.get(kind="edit")
    tasks.edit_run.apply(args=[revision.pk])

    revision.refresh_from_db()
    assert revision.article.embargo == embargoed.article.embargo


def test_a_stored_embargo_that_cannot_be_read_shows_nothing_and_escapes_its_text(
    desk: Client, reporter
) -> None:
    run = ArticleFactory(reporter=reporter, embargo={"until": "<script>x</script>", "text": "<b>x</b>"}).run

    response = desk.get(f"/desk/drafts/{run.pk}/")

    assert response.status_code == 200
    assert parse(response).select(".notice.embargo") == []
    assert b"<script>x</script>" not in response.content


def test_a_release_whose_embargo_line_cannot_be_read_is_drafted_without_one(
    finish_draft: Callable[..., Run],
) -> None:
    run = finish_draft(press_release="보도시점: 추후 공지 (일정 미정)\n" + PRESS_RELEASE)

    assert run.status == Run.Status.DONE and run.article.embargo is None

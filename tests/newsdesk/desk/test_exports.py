"""Downloads: the headline and the final body as .txt (UTF-8 with BOM) and .docx."""

from __future__ import annotations

import io
from urllib.parse import unquote

import docx
import pytest
from django.test import Client

from agents.models import Article, Run
from newsdesk.desk.exports import file_name
from tests.factories import RunFactory

pytestmark = pytest.mark.django_db


def test_the_txt_download_is_the_headline_and_the_final_body(desk: Client, done_run: Run) -> None:
    response = desk.get(f"/desk/drafts/{done_run.pk}/download.txt")

    article = done_run.article
    assert response.status_code == 200 and response["Content-Type"] == "text/plain; charset=utf-8"
    assert response["Content-Disposition"].startswith("attachment;")
    text = response.content.decode("utf-8-sig")
    assert text == f"{article.headline}\n\n{article.body}\n"


def test_the_docx_download_has_a_heading_and_one_paragraph_per_paragraph(desk: Client, done_run: Run) -> None:
    response = desk.get(f"/desk/drafts/{done_run.pk}/download.docx")

    article = done_run.article
    document = docx.Document(io.BytesIO(response.content))
    paragraphs = [p for p in document.paragraphs if p.text]
    assert paragraphs[0].text == article.headline and paragraphs[0].style.name == "Heading 1"
    assert [p.text for p in paragraphs[1:]] == article.body.split("\n\n")


def test_the_file_is_named_after_the_headline_in_korean(desk: Client, done_run: Run) -> None:
    disposition = desk.get(f"/desk/drafts/{done_run.pk}/download.docx")["Content-Disposition"]

    assert "filename*=utf-8''" in disposition
    assert unquote(disposition.split("''", 1)[1]) == f"{done_run.article.headline}.docx"


def test_file_names_drop_characters_no_file_system_accepts() -> None:
    article = Article(headline='정부 "발표" / 2차: 결과?', revision=3)

    assert file_name(article, "txt") == "정부 발표 2차 결과_3판.txt"


def test_control_characters_from_the_model_do_not_break_the_docx(desk: Client, done_run: Run) -> None:
    Article.objects.filter(pk=done_run.article.pk).update(headline="제목\x07끝", body="본문\x0b입니다.")

    response = desk.get(f"/desk/drafts/{done_run.pk}/download.docx")

    assert docx.Document(io.BytesIO(response.content)).paragraphs[0].text == "제목끝"


def test_an_unfinished_draft_or_unknown_format_has_nothing_to_download(
    desk: Client, reporter, done_run
) -> None:
    queued = RunFactory(reporter=reporter, kind="draft")

    assert desk.get(f"/desk/drafts/{queued.pk}/download.txt").status_code == 404
    assert desk.get(f"/desk/drafts/{done_run.pk}/download.pdf").status_code == 404

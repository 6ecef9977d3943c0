"""The reads a face needs from deeper down: which pipeline a run goes through, its stages, and a
body's sentences numbered as verification numbers them."""

from __future__ import annotations

import pytest

from agents import selectors, services
from agents.models import Run, Upload
from tests.factories import RunFactory

pytestmark = pytest.mark.django_db


def test_a_verify_only_check_is_a_draft_run_that_goes_through_verification_alone(reporter) -> None:
    verify = RunFactory(reporter=reporter, kind=Run.Kind.DRAFT, input={"mode": "verify"})
    draft = RunFactory(reporter=reporter, kind=Run.Kind.DRAFT, input={})
    edit = RunFactory(reporter=reporter, kind=Run.Kind.EDIT, input={})

    assert [selectors.run_mode(run=run) for run in (verify, draft, edit)] == ["verify", "draft", "edit"]
    assert selectors.run_stages(run=verify) == ["verify", "done"]
    assert selectors.run_stages(run=edit) == ["write", "done"]
    assert selectors.run_stages(run=draft) == ["analyze", "search", "write", "verify", "done"]


def test_sentences_are_numbered_from_one_across_paragraphs_of_the_normalised_body() -> None:
    body = "  첫 문장이다.   둘째 문장이다.\n\n\n셋째 문장이다.  "

    assert selectors.body_normalized(body=body) == "첫 문장이다. 둘째 문장이다.\n\n셋째 문장이다."
    assert [(s.index, s.paragraph, s.text) for s in selectors.body_sentences(body=body)] == [
        (1, 0, "첫 문장이다."),
        (2, 0, "둘째 문장이다."),
        (3, 1, "셋째 문장이다."),
    ]


def test_an_uploads_page_breaks_become_paragraph_breaks_when_it_is_a_source(reporter) -> None:
    upload = Upload(reporter_id=reporter.pk, text="1쪽 내용\n\f\n2쪽 내용")

    assert services.upload_as_source(upload=upload) == "1쪽 내용\n\n2쪽 내용"

"""Run inputs are typed models, and the JSON they store keeps the shape rows already have."""

from __future__ import annotations

import pytest

from agents import tasks
from agents.models import Run
from agents.services import draft_create, verify_create
from agents.work.run_inputs import DraftRunInput, EditRunInput, MonitorRunInput, VerifyRunInput
from tests.agents.draft_script import submit, verify_pass
from tests.factories import RunFactory
from tests.fakes.anthropic import FakeAnthropic
from tests.fixtures.press import BODY, PRESS_RELEASE

# A draft row as the first version stored it: the request fields and the upload, nothing later.
OLD_DRAFT = {
    "press_release": PRESS_RELEASE,
    "department": "사회부",
    "length": None,
    "style_hint": "",
    "search_news": False,
    "keywords": [],
    "upload_id": None,
}
# A verify-only row from before the department and headline were kept.
OLD_VERIFY = {"mode": "verify", "article": BODY, "sources": [PRESS_RELEASE]}


def run_task(run: Run) -> Run:
    tasks.draft_run.apply(args=[run.pk])
    run.refresh_from_db()
    return run


@pytest.mark.django_db
def test_a_draft_stores_the_same_keys_and_values_as_before_the_models(reporter) -> None:
    run = draft_create(reporter=reporter, press_release=PRESS_RELEASE, pages="2-3", notes=["뒷부분 생략"])

    assert run.input == {
        "press_release": PRESS_RELEASE.strip(),
        "department": reporter.department,
        "length": None,
        "style_hint": "",
        "search_news": False,
        "keywords": [],
        "upload_id": None,
        "attachments": [],
        "topic": "",
        "context": "",
        "pages": [2, 3],
        "notes": ["뒷부분 생략"],
        "instruction": "",
        "follow_up": None,
    }
    assert DraftRunInput.model_validate(run.input).pages == (2, 3)


@pytest.mark.django_db
def test_a_verify_run_stores_the_same_keys_as_before(reporter) -> None:
    run = verify_create(reporter=reporter, article=BODY, sources=[PRESS_RELEASE], headline=" 제목 ")

    assert run.input == {
        "mode": "verify",
        "headline": "제목",
        "article": BODY,
        "sources": [PRESS_RELEASE],
        "department": reporter.department,
        "source_meta": [],
        "listed": [],
    }


def test_old_rows_load_with_defaults_for_keys_added_later_and_unknown_keys_ignored() -> None:
    draft = DraftRunInput.model_validate({**OLD_DRAFT, "retired_key": 1})
    assert (draft.attachments, draft.topic, draft.context, draft.pages, draft.notes) == ([], "", "", None, [])
    verify = VerifyRunInput.model_validate(OLD_VERIFY)
    assert (verify.headline, verify.department, verify.source_meta, verify.listed) == ("", "", [], [])
    assert (draft.instruction, draft.follow_up) == ("", None)
    assert MonitorRunInput.model_validate({}).keywords == []
    edit = {"instruction": "제목 바꿔줘"}
    assert EditRunInput.model_validate(edit).stored() == edit


@pytest.mark.django_db
def test_a_draft_row_stored_in_the_old_shape_still_runs(reporter, fake_llm: FakeAnthropic) -> None:
    submit(fake_llm)
    verify_pass(fake_llm)
    run = RunFactory(reporter=reporter, kind=Run.Kind.DRAFT, input=OLD_DRAFT)

    run = run_task(run)

    assert run.status == Run.Status.DONE, run.error
    assert run.article.department == "사회부"
    assert run.article.warnings == []


@pytest.mark.django_db
def test_a_verify_row_stored_in_the_old_shape_takes_the_reporters_department(
    reporter, fake_llm: FakeAnthropic
) -> None:
    verify_pass(fake_llm)
    run = RunFactory(reporter=reporter, kind=Run.Kind.DRAFT, input=OLD_VERIFY)

    run = run_task(run)

    assert run.status == Run.Status.DONE, run.error
    assert run.article.department == reporter.department
    assert run.article.headline

"""The Reporter model carries every member agents reads through `ReporterLike`.

mypy checks this at each call site; this test keeps it true at run time too, so renaming a
Reporter field or method fails here and not in a worker."""

from __future__ import annotations

import inspect

import pytest

from agents.reporters import ReporterLike
from agents.selectors import runs_of
from agents.services import draft_create
from tests.fixtures.press import PRESS_RELEASE

MEMBERS = sorted(
    set(ReporterLike.__annotations__)
    | {name for name, value in vars(ReporterLike).items() if inspect.isfunction(value) and name[0] != "_"}
)


def test_the_protocol_names_the_fields_and_the_key_agents_read() -> None:
    assert MEMBERS == ["anthropic_key", "department", "keywords", "llm_model", "pk", "publisher_style"]


@pytest.mark.django_db
def test_a_reporter_row_has_every_member_of_the_protocol(reporter) -> None:
    missing = [name for name in MEMBERS if not hasattr(reporter, name)]
    assert missing == []
    assert reporter.anthropic_key() == "sk-ant-test-kim-0001"


@pytest.mark.django_db
def test_a_run_queued_for_a_reporter_belongs_to_that_reporter_only(reporter, other_reporter) -> None:
    run = draft_create(reporter=reporter, press_release=PRESS_RELEASE)
    assert run.reporter == reporter
    assert list(runs_of(reporter=reporter)) == [run]
    assert list(runs_of(reporter=other_reporter)) == []

"""A two-call draft (submit, then verify) costs few database round trips: one LLMCall write per
call, one INSERT per progress event."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from agents import tasks
from agents.models import LLMCall, Run, RunEvent
from agents.services import draft_create
from tests.agents.draft_script import submit, verify_pass
from tests.fakes.anthropic import FakeAnthropic
from tests.fixtures.press import PRESS_RELEASE

QUERY_BUDGET = 15  # was 26, then 17; the rest: claim, run, style, 2 stages (run + event each), 2 calls,
# the final transaction (begin, article, issues, run, done event, commit): no savepoint around its event


@pytest.mark.django_db(transaction=True)  # outside a test transaction, as in the worker
def test_a_two_call_draft_stays_within_its_query_budget(reporter, fake_llm: FakeAnthropic) -> None:
    submit(fake_llm)
    verify_pass(fake_llm)
    run = draft_create(reporter=reporter, press_release=PRESS_RELEASE)

    with CaptureQueriesContext(connection) as queries:
        tasks.draft_run.apply(args=[run.pk])

    run.refresh_from_db()
    assert run.status == Run.Status.DONE, run.error
    sql = [q["sql"] for q in queries.captured_queries]
    assert len(sql) <= QUERY_BUDGET, "\n".join(sql)
    assert sum('INTO "agents_llmcall"' in q for q in sql) == 2
    assert not any('UPDATE "agents_llmcall"' in q for q in sql)
    assert [e.seq for e in RunEvent.objects.filter(run=run)] == [1, 2, 3, 4]
    assert all(c.status == LLMCall.Status.OK for c in LLMCall.objects.filter(run=run))

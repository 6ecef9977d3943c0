"""The `llm` worker as `make run` starts it (a pool of 32 threads in one process) holds 32 drafts
at once, each with its own reporter's key, result and LLMCall rows."""

from __future__ import annotations

import json
import re
import time
from typing import Any

import pytest

from agents.models import Article, LLMCall, Run
from agents.services import draft_create
from tests.factories import ReporterFactory
from tests.fakes.anthropic import FakeAnthropic, Recorded, tool_use
from tests.fixtures.press import BODY, HEADLINE, PRESS_RELEASE

pytestmark = [
    pytest.mark.integration,
    pytest.mark.xdist_group("worker"),
    pytest.mark.django_db(transaction=True),
]
DRAFTS, REPORTERS = 32, 4
MARK = re.compile(r"관리 표식: ([가-힣]+)")


def marker(number: int) -> str:
    """A digit-free tag (the code guard checks numbers) that tells the drafts apart."""
    return "".join(chr(0xAC00 + (number * 379 + k * 1013) % 11172) for k in range(3))


def answer(request: Recorded) -> list[dict[str, Any]]:
    """The model for any of the drafts: submit on the loop turn, pass on verification."""
    if request.forced_tool == "verify_article":
        verdict = {"thinking": "확인", "verdict": "pass", "issues": [], "revisions": []}
        return [tool_use("verify_article", verdict)]
    found = MARK.search(json.dumps(request.messages[0], ensure_ascii=False))
    headline = f"{HEADLINE} {found.group(1) if found else '표식없음'}"
    return [tool_use("submit_article", {"headline": headline, "body": BODY, "source_indices": []})]


def wait_all(runs: list[Run], timeout: float) -> None:
    deadline = time.monotonic() + timeout
    pks = [run.pk for run in runs]
    while time.monotonic() < deadline:
        if not Run.objects.filter(pk__in=pks, status__in=[Run.Status.QUEUED, Run.Status.RUNNING]).exists():
            return
        time.sleep(0.2)
    raise AssertionError("drafts still unfinished after the timeout")


def test_thirty_two_drafts_run_at_once_in_one_thread_pool_worker(
    thread_worker, fake_llm: FakeAnthropic
) -> None:
    fake_llm.latency = 1.0  # a slow model: the drafts must overlap to finish in time
    fake_llm.otherwise(answer)
    reporters = [ReporterFactory(anthropic_key=f"sk-ant-test-pool-{n:04d}") for n in range(REPORTERS)]
    runs = [
        draft_create(
            reporter=reporters[n % REPORTERS], press_release=f"{PRESS_RELEASE}\n관리 표식: {marker(n)}"
        )
        for n in range(DRAFTS)
    ]

    wait_all(runs, timeout=60)

    assert fake_llm.peak_in_flight >= DRAFTS // 2, "the drafts did not overlap"
    for n, run in enumerate(runs):
        run.refresh_from_db()
        assert run.status == Run.Status.DONE, run.error
        article = Article.objects.get(run=run)
        assert article.headline.endswith(marker(n))
        calls = list(LLMCall.objects.filter(run=run).order_by("id"))
        assert [c.status for c in calls] == [LLMCall.Status.OK] * 2
        assert {c.reporter_id for c in calls} == {run.reporter_id}
        assert all(c.input_tokens > 0 and c.output_tokens > 0 for c in calls)
    keys = sorted(r.api_key for r in fake_llm.requests)
    assert keys == sorted(f"sk-ant-test-pool-{n % REPORTERS:04d}" for n in range(DRAFTS) for _ in (1, 2))
    assert not fake_llm.problems

"""The writing deadline (NEWSDESK_WRITING_DEADLINE_SECONDS): what a slow model costs the reporter
in waiting, with and without it, and what bounding each call costs a fast one.

1. A slow model: every writing turn answers after SLOW seconds and the model only submits when
   forced on the last turn. "no deadline" is the old behaviour (five full turns); "deadline" ends
   the loop at DEADLINE seconds of model time and asks once for the article. Reported: seconds
   until the article is saved (median of ROUNDS), LLM calls, and whether it was verified.
2. A fast model (loopback, no delay): the median latency of one loop step with no timeout of its
   own (the shared SDK client) and with one (a copy of it with the time left, no SDK retry).

    flock <timing lock> uv run python bench/writing_deadline.py
"""

from __future__ import annotations

import logging
import statistics
import time

from _django import setup

setup()

from django.conf import settings  # noqa: E402

from agents import tasks  # noqa: E402
from agents.drafting.tools import SubmitArticleInput  # noqa: E402
from agents.llm import client as llm  # noqa: E402
from agents.models import LLMCall, Run  # noqa: E402
from agents.services import draft_create  # noqa: E402
from tests.factories import ReporterFactory  # noqa: E402
from tests.fakes.anthropic import FakeAnthropic, text, tool_use  # noqa: E402
from tests.fixtures.press import BODY, HEADLINE, PRESS_RELEASE  # noqa: E402

SLOW = 2.0  # seconds each writing turn takes
DEADLINE = 3
ROUNDS = 3
CALLS = 40
SUBMIT = {"headline": HEADLINE, "body": BODY, "source_indices": []}
VERIFY = {"thinking": "확인", "verdict": "pass", "issues": [], "revisions": []}


def slow_draft(fake: FakeAnthropic, *, deadline: int) -> tuple[float, int, str]:
    settings.NEWSDESK_WRITING_DEADLINE_SECONDS = deadline
    turns = (DEADLINE // SLOW + 1) if deadline == DEADLINE else 4
    for _ in range(int(turns)):
        fake.reply(text("자료를 더 검토하겠습니다."), expect="loop", delay=SLOW)
    fake.tool("submit_article", SUBMIT, delay=SLOW)
    fake.tool("verify_article", VERIFY)
    reporter = ReporterFactory(anthropic_key="sk-ant-bench-deadline-0001")
    run = draft_create(reporter=reporter, press_release=PRESS_RELEASE)
    started = time.monotonic()
    tasks.draft_run.apply(args=[run.pk])
    took = time.monotonic() - started
    run.refresh_from_db()
    assert run.status == Run.Status.DONE, run.error
    fake.steps.clear()  # a turn the deadline never asked for
    return took, LLMCall.objects.filter(run=run).count(), run.article.verdict


def step_latency(*, timeout: float | None) -> float:
    started = time.perf_counter()
    llm.loop_step(
        ctx=llm.CallContext(api_key="sk-ant-bench-deadline-0002"),
        purpose="bench",
        system="s",
        messages=[{"role": "user", "content": "x"}],
        tools=[llm.Tool("submit_article", "제출", SubmitArticleInput)],
        timeout=timeout,
    )
    return (time.perf_counter() - started) * 1000


def main() -> None:
    logging.disable(logging.WARNING)
    llm.preload_sdk()
    fake = FakeAnthropic()
    settings.ANTHROPIC_BASE_URL = fake.base_url
    try:
        print(f"slow model: {SLOW:.0f} s a turn, submits only when forced; median of {ROUNDS}")
        print(f"{'':<12} {'seconds':>8} {'calls':>6} {'verdict':>8}")
        for label, deadline in (("no deadline", 10_000), (f"deadline {DEADLINE}s", DEADLINE)):
            results = [slow_draft(fake, deadline=deadline) for _ in range(ROUNDS)]
            took = statistics.median(r[0] for r in results)
            print(f"{label:<12} {took:>8.1f} {results[0][1]:>6} {results[0][2]:>8}")
        fake.otherwise(lambda req: [tool_use("submit_article", SUBMIT)])
        print(f"\nfast model: one loop step, median of {CALLS} (ms)")
        step_latency(timeout=None)  # warm the shared client and its connection
        plain, bounded = [], []
        for _ in range(CALLS):
            plain.append(step_latency(timeout=None))
            bounded.append(step_latency(timeout=60))
        print(f"{'no own timeout':<16} {statistics.median(plain):>7.1f}")
        print(f"{'own timeout':<16} {statistics.median(bounded):>7.1f}")
        print(f"{'ratio':<16} {statistics.median(bounded) / statistics.median(plain):>7.2f}")
    finally:
        fake.close()


if __name__ == "__main__":
    main()

"""Prompt caching on a draft from a 10-page PDF with news search: before and after.

Runs the real draft task body (upload extraction, writing loop, Naver search, scraping,
verification) against the fake Anthropic, which counts cache reads and writes the way the API
does (breakpoints, 20-block lookback, per-model minimum prefix, per-key caches). Reported: LLM
calls, the share of turn 2+ input tokens read from the cache, and dollars per draft.

"before" reproduces the old request shape (markers on the tools and the system prompt only) and
the old extra turn (code had searched, but the model was still offered `fetch_articles` and
searched again); "after" is the current code (markers on the material and on the last message,
the model's repeat search refused). The model's choices are scripted, so the call counts show
what each version allows, not what a real model would pick.

    uv run python bench/prompt_cache.py
"""

from __future__ import annotations

import logging
from decimal import Decimal
from typing import Any

from _django import setup

setup()

import pymupdf  # noqa: E402
from django.conf import settings  # noqa: E402
from draft import serve_news  # noqa: E402

from agents import tasks  # noqa: E402
from agents.llm import caching  # noqa: E402
from agents.llm import client as llm  # noqa: E402
from agents.models import LLMCall, Run  # noqa: E402
from agents.services import draft_create, upload_receive  # noqa: E402
from newsdesk.models import Reporter  # noqa: E402
from tests.factories import ReporterFactory  # noqa: E402
from tests.fakes.anthropic import FakeAnthropic  # noqa: E402
from tests.fakes.naver import FakeNaver  # noqa: E402
from tests.fakes.pages import FakePages, korean_paragraphs  # noqa: E402
from tests.fixtures.press import BODY, HEADLINE, PRESS_RELEASE  # noqa: E402

PAGES = 10
NEW_MARKERS = llm._with_cache_markers


def old_markers(params: dict[str, Any], *, cache_messages: bool) -> dict[str, Any]:
    """The request shape before: system and last tool marked, messages never."""
    params["system"] = [{**params["system"][-1], "cache_control": caching.EPHEMERAL}]
    if params.get("tools"):
        params["tools"] = [*params["tools"][:-1], {**params["tools"][-1], "cache_control": caching.EPHEMERAL}]
    return params


def ten_page_pdf() -> bytes:
    """A 10-page Korean release: the fixture release, then pages of Korean prose."""
    document = pymupdf.open()
    for page_number in range(PAGES):
        page = document.new_page()
        body = "\n".join(korean_paragraphs(page_number, chars=1600))
        text = f"{PRESS_RELEASE}\n{body}" if page_number == 0 else body
        spare = page.insert_textbox(
            pymupdf.Rect(40, 40, page.rect.width - 40, page.rect.height - 40),
            text,
            fontname="korea",
            fontsize=8,
        )
        assert spare >= 0, "the page text did not fit"
    return document.tobytes()


def script(fake: FakeAnthropic, *, repeat_search: bool) -> None:
    if repeat_search:
        fake.tool("fetch_articles", {"keywords": ["청년 월세"]}, forced=False)
    fake.tool("select_articles", {"selected_indices": [1, 2, 3]}, forced=False)
    fake.tool("submit_article", {"headline": HEADLINE, "body": BODY, "source_indices": [1]}, forced=False)
    fake.tool("verify_article", {"thinking": "확인", "verdict": "pass", "issues": [], "revisions": []})


def one_draft(reporter: Reporter, fake: FakeAnthropic, pdf: bytes, *, before: bool) -> Run:
    llm._with_cache_markers = old_markers if before else NEW_MARKERS  # type: ignore[assignment]
    script(fake, repeat_search=before)
    if before:  # the old code let the model search again after code had searched
        from agents.drafting import writing

        writing._refusal = lambda state, use: None  # type: ignore[assignment]
    upload = upload_receive(reporter=reporter, file_name="release.pdf", mime_type="application/pdf", data=pdf)
    tasks.extract_upload.apply(args=[upload.pk])
    run = draft_create(reporter=reporter, upload=upload, search_news=True, keywords=["청년 월세"])
    tasks.draft_run.apply(args=[run.pk])
    run.refresh_from_db()
    assert run.status == Run.Status.DONE, run.error
    return run


def report(label: str, run: Run) -> None:
    calls = list(LLMCall.objects.filter(run=run).order_by("id"))
    turns = [c for c in calls if c.purpose.startswith("writing_turn_")][1:]
    read = sum(c.cache_read_input_tokens for c in turns)
    total = sum(c.cache_read_input_tokens + c.cache_creation_input_tokens + c.input_tokens for c in turns)
    dollars = sum((c.cost_usd for c in calls), Decimal(0))
    tokens = sum(c.cache_read_input_tokens + c.cache_creation_input_tokens + c.input_tokens for c in calls)
    share = read / total if total else 0
    print(f"{label:<8} {len(calls):>5} {tokens:>12,} {share:>17.0%} {float(dollars):>10.4f}")


def main() -> None:
    logging.disable(logging.INFO)
    fake, naver, pages = FakeAnthropic(), FakeNaver(), FakePages()
    settings.ANTHROPIC_BASE_URL = fake.base_url
    settings.NAVER_API_BASE_URL = naver.base_url
    settings.NAVER_CLIENT_ID, settings.NAVER_CLIENT_SECRET = naver.client_id, naver.client_secret
    settings.NEWSDESK_SCRAPE_ALLOW_PRIVATE = True
    serve_news(naver, pages)
    pdf = ten_page_pdf()
    original_refusal = __import__("agents.drafting.writing", fromlist=["_refusal"])._refusal
    try:
        for model in ("claude-haiku-4-5-20251001", "claude-sonnet-4-5-20250929"):
            settings.NEWSDESK_LLM_MODEL = model
            print(f"\n{model}: draft from a {PAGES}-page PDF ({len(pdf) // 1024} KB) with news search")
            print(f"{'':<8} {'calls':>5} {'input tokens':>12} {'turn 2+ from cache':>17} {'$ / draft':>10}")
            for label, before in (("before", True), ("after", False)):
                from agents.drafting import writing

                writing._refusal = original_refusal  # type: ignore[assignment]
                reporter = ReporterFactory(anthropic_key=f"sk-ant-bench-{model[:12]}-{label}")
                report(label, one_draft(reporter, fake, pdf, before=before))
        fake.assert_complete()
    finally:
        fake.close()
        naver.close()
        pages.close()


if __name__ == "__main__":
    main()

"""What a reporter's style and model choice cost: the style block's size, and a draft's price per model.

Runs the real draft task (writing loop with news search, verification) against the scripted fake
Anthropic, once per model of NEWSDESK_LLM_MODELS and once more with a publisher style carrying
three example articles. Token counts are the fake's estimates from the requests (the real API's
tokenizer differs by model), priced with the table's own prices, so the figures compare choices
rather than predict an invoice.

    uv run python bench/style_model.py
"""

from __future__ import annotations

from _django import setup

setup()

from django.conf import settings  # noqa: E402
from draft import one_draft, serve_news  # noqa: E402

from agents.llm import catalog  # noqa: E402
from agents.llm import client as llm  # noqa: E402
from agents.models import LLMCall  # noqa: E402
from newsdesk.models import Reporter  # noqa: E402
from styles.models import WritingStyle  # noqa: E402
from styles.selectors import style_for  # noqa: E402
from tests.factories import ReporterFactory  # noqa: E402
from tests.fakes.anthropic import FakeAnthropic, tokens  # noqa: E402
from tests.fakes.naver import FakeNaver  # noqa: E402
from tests.fakes.pages import FakePages, korean_paragraphs  # noqa: E402

PUBLISHER = "한겨레"


def curate_publisher_style() -> None:
    examples = ["\n\n".join(korean_paragraphs(n)) for n in (1, 2, 3)]  # clipped to 1,500 chars each
    WritingStyle.objects.create(
        scope="publisher",
        publisher=PUBLISHER,
        guide={"lead": "핵심 사실을 첫 문장에", "structure": "리드 → 사실 → 배경", "tone": "건조체"},
        example_articles=examples,
    )


def style_block_sizes(department: str) -> None:
    for label, publisher in (("department default", ""), ("publisher + 3 examples", PUBLISHER)):
        block = style_for(department=department, publisher=publisher).prompt_block(department)
        print(f"style block, {label}: {len(block):,} chars, ~{tokens(block):,} tokens")


def draft_cost(reporter: Reporter, fake: FakeAnthropic, model: str, publisher: str = "") -> None:
    Reporter.objects.filter(pk=reporter.pk).update(llm_model=model, publisher_style=publisher)
    reporter.refresh_from_db()
    _, run = one_draft(reporter, fake, with_keywords=True)
    calls = list(LLMCall.objects.filter(run=run))
    sent = {r.body["model"] for r in fake.requests[-len(calls) :]}
    fresh = sum(c.input_tokens for c in calls)
    written = sum(c.cache_creation_input_tokens for c in calls)
    read = sum(c.cache_read_input_tokens for c in calls)
    style = f", style {run.article.style}" if publisher else ""
    out = sum(c.output_tokens for c in calls)
    print(
        f"draft on {model}{style}: {len(calls)} calls sent as {sorted(sent)}, "
        f"input {fresh + written + read:,} tokens ({written:,} cache-written, {read:,} cache-read) "
        f"+ {out:,} out, ${sum(c.cost_usd for c in calls):.4f}"
    )


def main() -> None:
    fake, naver, pages = FakeAnthropic(), FakeNaver(), FakePages()
    settings.ANTHROPIC_BASE_URL = fake.base_url
    settings.NAVER_API_BASE_URL = naver.base_url
    settings.NAVER_CLIENT_ID, settings.NAVER_CLIENT_SECRET = naver.client_id, naver.client_secret
    llm._new_client.cache_clear()
    serve_news(naver, pages)
    curate_publisher_style()
    reporter = Reporter.objects.get(
        pk=ReporterFactory(user__username="bench", anthropic_key="sk-ant-bench-0000", department="경제부").pk
    )
    try:
        style_block_sizes(reporter.department)
        for spec in catalog.model_choices():
            draft_cost(reporter, fake, spec.id)
        draft_cost(reporter, fake, settings.NEWSDESK_LLM_MODEL, publisher=PUBLISHER)
        fake.assert_complete()
    finally:
        fake.close()
        naver.close()
        pages.close()


if __name__ == "__main__":
    main()

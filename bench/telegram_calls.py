"""LLM calls the Telegram face makes before a job starts, per kind of message.

Targets: 0 for commands and files without a caption; at most 2 (context + router) for
plain-Korean requests, and 1 when the reporter has fewer than four logged messages.

    uv run python bench/telegram_calls.py
"""

from __future__ import annotations

from _django import setup

setup()

from django.conf import settings  # noqa: E402

from agents.llm import client as llm  # noqa: E402
from agents.models import LLMCall, Run  # noqa: E402
from conversations.services import message_log  # noqa: E402
from newsdesk.models import Reporter  # noqa: E402
from tests.factories import ReporterFactory  # noqa: E402
from tests.fakes.anthropic import FakeAnthropic  # noqa: E402
from tests.fakes.telegram import FakeTelegram  # noqa: E402
from tests.newsdesk.telegram.chat import send, send_file  # noqa: E402

CHAT = 777


def calls_for(label: str, action, fake: FakeAnthropic) -> None:  # type: ignore[no-untyped-def]
    before = LLMCall.objects.count()
    action()
    made = LLMCall.objects.count() - before  # counted before the runs go: their calls go with them
    Run.objects.all().delete()  # one job at a time: clear the way for the next scenario
    print(f"{label:<58} {made} LLM calls before the job starts")


def main() -> None:
    fake, telegram = FakeAnthropic(), FakeTelegram()
    settings.ANTHROPIC_BASE_URL = fake.base_url
    settings.TELEGRAM_BOT_TOKEN = telegram.token
    settings.TELEGRAM_API_BASE_URL = telegram.base_url
    settings.TELEGRAM_FILE_BASE_URL = telegram.file_base_url
    llm._new_client.cache_clear()
    reporter: Reporter = ReporterFactory(
        user=None, telegram_id=CHAT, keywords=["서울시"], anthropic_key="sk-ant-bench-tg-0000"
    )
    route = {"tool": "check", "reason": "타사 체크 요청", "extracted_params": {}}
    try:
        calls_for("/check (a command)", lambda: send("/check", chat=CHAT), fake)
        calls_for(
            "a PDF without a caption",
            lambda: send_file("보도자료.pdf", "application/pdf", 90_000, chat=CHAT),
            fake,
        )
        reporter.messages.all().delete()  # a short log: context selection has nothing to choose from
        fake.tool("route_to_tool", route)
        calls_for(
            "'타사 체크 해줘' with no earlier messages", lambda: send("타사 체크 해줘", chat=CHAT), fake
        )
        for n in range(6):
            message_log(reporter=reporter, role="user", content=f"이전 대화 {n}")
        fake.tool("select_conversations", {"selected_indices": [1, 2]})
        fake.tool("route_to_tool", route)
        calls_for(
            "'타사 체크 해줘' after 6+ logged messages", lambda: send("타사 체크 해줘", chat=CHAT), fake
        )
        fake.assert_complete()
    finally:
        fake.close()
        telegram.close()


if __name__ == "__main__":
    main()

"""What the bot tells a new reporter, and what the conversation prompt knows, cover today's features."""

from __future__ import annotations

import pytest

from agents import prompts
from newsdesk.telegram import replies

MENU = [name for name, _ in replies.COMMAND_MENU]


@pytest.mark.parametrize("command", [name for name in MENU if name not in ("check", "report", "schedule")])
def test_the_welcome_after_registration_names_every_settings_command_and_help(command: str) -> None:
    assert f"/{command}" in replies.REGISTERED


@pytest.mark.parametrize("command", MENU)
def test_the_conversation_prompt_knows_every_command(command: str) -> None:
    assert f"/{command}" in prompts.load("conversation_system")


@pytest.mark.parametrize("feature", ["사진", "HEIC", "스캔", "제목 바꿔줘", "직접 쓴 기사", "스타일", "모델"])
def test_the_conversation_prompt_and_the_welcome_describe_photos_styles_models_edits_and_verify_only(
    feature: str,
) -> None:
    assert feature in prompts.load("conversation_system")
    assert feature in replies.REGISTERED

"""What happens to one stored Telegram update. Code decides every clear case before any model call:
/start and commands, pending settings answers, and files sent without a caption."""

from __future__ import annotations

import logging
from typing import Any

from agents.services import UserFacingError, upload_precheck
from newsdesk.models import Reporter
from newsdesk.telegram import (  # noqa: F401 (modules whose buttons register on import)
    callbacks,
    commands,
    followup,
    paste,
    profile,
    replies,
    reverify,
)
from newsdesk.telegram.incoming import Incoming, parse
from newsdesk.telegram.sender import say

log = logging.getLogger(__name__)
Step = Reporter.RegistrationStep


def handle(payload: dict[str, Any]) -> None:
    if "callback_query" in payload:  # a tapped inline button (handlers register in their modules)
        callbacks.handle(payload)
        return
    incoming = parse(payload)
    if incoming is None or not incoming.is_private:
        return  # edits, channel posts and group chats are not ours to answer
    reporter = Reporter.objects.filter(telegram_id=incoming.user_id).first()
    if incoming.command == "start":
        profile.start(incoming, reporter)
        return
    if reporter is None:
        say(chat_id=incoming.chat_id, text=replies.REGISTER_FIRST)
        return
    logged = profile.log_incoming(incoming, reporter)
    step = reporter.registration_step
    if incoming.command == "cancel":
        commands.run_command(incoming, reporter)
    elif step in profile.REGISTRATION and incoming.command:
        say(chat_id=incoming.chat_id, text=replies.FINISH_REGISTRATION, reporter=reporter)
    elif step and not incoming.command:
        profile.answer(incoming, reporter)
    elif incoming.command:
        if step:  # a new command abandons the question that was waiting for an answer
            profile.set_step(reporter, Step.DONE)
        commands.run_command(incoming, reporter)
    elif incoming.file_only:
        file_hint(incoming, reporter)
    else:  # free text: routed once the chat is quiet, joined with the other parts of a split paste
        paste.collect(incoming, reporter, logged)


def file_hint(incoming: Incoming, reporter: Reporter) -> None:
    """A file without a caption: check what can be checked from its metadata and ask what to do."""
    meta = incoming.attachment or {}
    try:
        upload_precheck(
            file_name=str(meta.get("file_name") or ""),
            mime_type=str(meta.get("mime_type") or ""),
            size=int(meta.get("file_size") or 0),
        )
    except UserFacingError as exc:
        say(chat_id=incoming.chat_id, text=exc.user_message, reporter=reporter)
        return
    say(chat_id=incoming.chat_id, text=replies.FILE_RECEIVED, reporter=reporter)

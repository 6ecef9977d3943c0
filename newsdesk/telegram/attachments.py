"""The Telegram downloader the writing agent uses for `analyze_attachment` (registered at start-up)."""

from __future__ import annotations

from agents import messages as agent_msg
from agents.attachments import AttachmentRef, AttachmentUnavailable
from agents.sources.files import MAX_FILE_BYTES


def fetch(ref: AttachmentRef) -> bytes:
    # The client (python-telegram-bot) loads here, in the worker: every process registers this
    # fetcher at start, and the web process must not pay for PTB to do so.
    from newsdesk.telegram import client

    try:
        return client.download_file(file_id=ref.file_id, max_bytes=MAX_FILE_BYTES)
    except client.TelegramError as exc:
        # An expired or unknown file_id cannot come back; anything else is worth a retry by hand.
        raise AttachmentUnavailable(
            agent_msg.ATTACHMENT_EXPIRED if exc.permanent else agent_msg.LLM_UNAVAILABLE
        ) from exc

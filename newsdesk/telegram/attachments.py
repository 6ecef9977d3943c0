"""The Telegram downloader the writing agent uses for `analyze_attachment` (registered at start-up)."""

from __future__ import annotations

from agents.services import MAX_FILE_BYTES, AttachmentRef, attachment_unavailable


def fetch(ref: AttachmentRef) -> bytes:
    # The client (python-telegram-bot) loads here, in the worker: every process registers this
    # fetcher at start, and the web process must not pay for PTB to do so.
    from newsdesk.telegram import client

    try:
        return client.download_file(file_id=ref.file_id, max_bytes=MAX_FILE_BYTES)
    except client.TelegramError as exc:
        raise attachment_unavailable(permanent=exc.permanent) from exc

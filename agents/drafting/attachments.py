"""Fetching attachments that live elsewhere (Telegram files) without importing the face.

`agents` sits below `newsdesk`, so the Telegram face registers its downloader here when the
app starts; the writing agent only knows "give me the bytes of attachment X".
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from agents import messages as msg
from agents.errors import UserFacingError


class AttachmentUnavailable(UserFacingError):
    """A file the reporter sent that can no longer be fetched (expired, or Telegram unreachable)."""


@dataclass(frozen=True)
class AttachmentRef:
    """Metadata of a file sent in a conversation (id, name, type, size): enough to download it later."""

    file_id: str
    file_name: str
    mime_type: str
    file_size: int
    source: str = "telegram"

    @classmethod
    def from_meta(cls, meta: dict[str, Any]) -> AttachmentRef:
        return cls(
            file_id=str(meta.get("file_id", "")),
            file_name=str(meta.get("file_name") or "첨부파일"),
            mime_type=str(meta.get("mime_type") or ""),
            file_size=int(meta.get("file_size") or 0),
            source=str(meta.get("source") or "telegram"),
        )

    def label(self) -> str:
        return f"{self.file_name} ({self.file_size / 1_048_576:.1f}MB)"


Fetcher = Callable[[AttachmentRef], bytes]
_FETCHERS: dict[str, Fetcher] = {}


def register_fetcher(source: str, fetcher: Fetcher) -> None:
    _FETCHERS[source] = fetcher


def unavailable(*, permanent: bool) -> AttachmentUnavailable:
    """The refusal for a file its source would not hand over: an expired or unknown file cannot come
    back (send it again); anything else is worth a retry later."""
    return AttachmentUnavailable(msg.ATTACHMENT_EXPIRED if permanent else msg.LLM_UNAVAILABLE)


def fetch(ref: AttachmentRef) -> bytes:
    """Downloads an attachment; raises AttachmentUnavailable with a message for the reporter."""
    fetcher = _FETCHERS.get(ref.source)
    if fetcher is None:
        raise AttachmentUnavailable(msg.ATTACHMENT_MISSING)
    return fetcher(ref)

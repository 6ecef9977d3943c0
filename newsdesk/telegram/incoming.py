"""The parts of a Telegram update we act on, parsed once into a plain value."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from agents.services import MAX_FILE_BYTES


@dataclass(frozen=True)
class Incoming:
    update_id: int
    chat_id: int
    chat_type: str
    user_id: int
    message_id: int
    name: str
    text: str  # the text, or a document's/photo's caption
    kind: str  # text | command | document | photo
    command: str = ""  # "check" for "/check@newsdesk_bot 09:00"
    args: str = ""
    attachment: dict[str, Any] | None = None  # {file_id, file_name, mime_type, file_size}

    @property
    def is_private(self) -> bool:
        return self.chat_type == "private"

    @property
    def file_only(self) -> bool:
        return self.attachment is not None and not self.text.strip()


def parse(payload: dict[str, Any]) -> Incoming | None:
    """None for updates without a message from a user (edits, channel posts, callbacks)."""
    message = payload.get("message")
    if not isinstance(message, dict) or not isinstance(message.get("from"), dict):
        return None
    chat, sender = message.get("chat") or {}, message["from"]
    text = str(message.get("text") or message.get("caption") or "")
    attachment = _attachment(message)
    command, args = _command(message, text)
    kind = (
        "command" if command else ("document" if "document" in message else "photo" if attachment else "text")
    )
    return Incoming(
        update_id=int(payload["update_id"]),
        chat_id=int(chat.get("id") or sender["id"]),
        chat_type=str(chat.get("type") or "private"),
        user_id=int(sender["id"]),
        message_id=int(message.get("message_id") or 0),
        name=str(sender.get("first_name") or sender.get("username") or ""),
        text=text,
        kind=kind,
        command=command,
        args=args,
        attachment=attachment,
    )


def _command(message: dict[str, Any], text: str) -> tuple[str, str]:
    """A bot command is an entity at offset 0 (Telegram marks it); '/check@bot args' → ('check', 'args')."""
    entities = message.get("entities") or []
    starts_command = any(e.get("type") == "bot_command" and e.get("offset") == 0 for e in entities)
    if not (starts_command or (text.startswith("/") and "entities" not in message and len(text) > 1)):
        return "", ""
    head, _, rest = text.partition(" ")
    name = head[1:].split("@", 1)[0].lower()
    return (name, rest.strip()) if name.replace("_", "").isalnum() else ("", "")


def _attachment(message: dict[str, Any]) -> dict[str, Any] | None:
    if isinstance(message.get("document"), dict):
        doc = message["document"]
        return {
            "file_id": doc.get("file_id", ""),
            "file_name": doc.get("file_name") or "첨부파일",
            "mime_type": doc.get("mime_type") or "",
            "file_size": int(doc.get("file_size") or 0),
        }
    photos = [p for p in message.get("photo") or [] if isinstance(p, dict)]
    if photos:
        largest = _largest_photo(photos)
        return {
            "file_id": largest.get("file_id", ""),
            "file_name": "photo.jpg",
            "mime_type": "image/jpeg",
            "file_size": int(largest.get("file_size") or 0),
        }
    return None


def _largest_photo(photos: list[dict[str, Any]]) -> dict[str, Any]:
    """The largest size we may download (≤ 3 MB); the smallest if none fits, to be refused by size.

    Telegram lists sizes smallest first; the biggest reads best under OCR.
    """
    fitting = [p for p in photos if int(p.get("file_size") or 0) <= MAX_FILE_BYTES]
    return fitting[-1] if fitting else photos[0]

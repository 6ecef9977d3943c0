"""Reads of the conversation log. Every read hides messages past the three-day retention window,
so an expired message is invisible even before the hourly purge deletes it."""

from __future__ import annotations

from datetime import timedelta
from typing import Any, Protocol

from django.db.models import QuerySet
from django.utils import timezone

from conversations.models import Message

RETENTION = timedelta(days=3)
SUMMARY_CHARS = 80


class ReporterRef(Protocol):
    """The reporter whose log it is: any row with its primary key (the `newsdesk.Reporter` the faces
    pass). conversations is a leaf and imports neither newsdesk nor agents (agents.reporters)."""

    pk: Any


def visible(*, reporter: ReporterRef) -> QuerySet[Message]:
    return Message.objects.filter(reporter_id=reporter.pk, created_at__gte=timezone.now() - RETENTION)


def recent_messages(*, reporter: ReporterRef, limit: int = 50) -> list[Message]:
    """The last `limit` visible messages, oldest first (what context selection chooses from)."""
    newest = visible(reporter=reporter).order_by("-created_at", "-id")[:limit]
    return list(reversed(newest))


def attachment_tag(meta: dict[str, Any] | None) -> str:
    if not meta:
        return ""
    name = meta.get("file_name") or "파일"
    size_mb = (meta.get("file_size") or 0) / 1_048_576
    return f" [첨부: {name} {size_mb:.1f}MB]"


def numbered_summaries(messages: list[Message]) -> str:
    """'[n] role MM-DD HH:MM | "first 80 characters" [첨부: name 1.2MB]', one line per message."""
    lines = []
    for number, message in enumerate(messages, start=1):
        text = " ".join(message.content.split())[:SUMMARY_CHARS]
        when = timezone.localtime(message.created_at).strftime("%m-%d %H:%M")
        lines.append(f'[{number}] {message.role} {when} | "{text}"{attachment_tag(message.attachment_meta)}')
    return "\n".join(lines)


def last_article_id(messages: list[Message]) -> int | None:
    """The article most recently delivered in these messages (bot replies carry its id)."""
    for message in reversed(messages):
        article_id = message.meta.get("article_id") if message.meta else None
        if article_id:
            return int(article_id)
    return None

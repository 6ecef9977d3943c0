"""Follow-ups: a draft that starts from a competitor's article a /check or /report item reported.

The request only names the item; the article page is read later, by the worker that writes the
draft (agents.drafting.followup). Asking twice for the same item while its draft is still queued
or being written (a button tapped again, a request sent twice) gives back that draft: one
follow-up per item at a time, decided under a lock on the item's row.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction

from agents import messages as msg
from agents.drafting.material import is_source_material
from agents.models import MonitorItem, Run
from agents.monitoring.selectors import item_get
from agents.reporters import ReporterLike
from agents.services.common import InputError
from agents.services.drafts import draft_create
from agents.work.run_inputs import FollowUpInput

ACTIVE = (Run.Status.QUEUED, Run.Status.RUNNING)


def follow_up_item(*, reporter: ReporterLike, item_id: int) -> MonitorItem:
    """The reporter's own item, or InputError 404 (the same answer for another reporter's item)."""
    item = item_get(reporter=reporter, item_id=item_id)
    if item is None:
        raise InputError(msg.FOLLOW_UP_NOT_FOUND, field="follow_up", status=404)
    return item


def follow_up_create(*, reporter: ReporterLike, item_id: int, **draft: Any) -> Run:
    """Queues the follow-up draft of an item (with the usual draft fields), or returns the one
    already queued or running for it."""
    with transaction.atomic():
        item = follow_up_item(reporter=reporter, item_id=item_id)
        MonitorItem.objects.select_for_update().filter(pk=item.pk).first()  # one request at a time
        running = follow_up_active(reporter=reporter, item_id=item.pk)
        if running is not None:
            return running
        return draft_create(reporter=reporter, follow_up=follow_up_input(item), **draft)


def follow_up_from_chat(*, reporter: ReporterLike, item_id: int, text: str, channel: str) -> Run:
    """A follow-up asked for in a chat: text with facts in it is a release, anything shorter an
    instruction ("반론 넣어서 600자로")."""
    text = text.strip()
    if text and is_source_material(text):
        return follow_up_create(reporter=reporter, item_id=item_id, press_release=text, channel=channel)
    return follow_up_create(reporter=reporter, item_id=item_id, instruction=text[:500], channel=channel)


def follow_up_active(*, reporter: ReporterLike, item_id: int) -> Run | None:
    active = Run.objects.filter(reporter_id=reporter.pk, kind=Run.Kind.DRAFT, status__in=ACTIVE)
    for run in active.order_by("-pk"):
        if (run.input.get("follow_up") or {}).get("item") == item_id:
            return run
    return None


def follow_up_input(item: MonitorItem) -> FollowUpInput:
    return FollowUpInput(
        item=item.pk,
        title=item.title,
        outlet=item.publisher,
        url=item.originallink or item.url,
        scrape_url=item.url or item.originallink,
        summary=item.summary,
    )

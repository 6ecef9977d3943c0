"""One input from a split paste.

The Telegram client splits a text over 4096 characters into several messages and sends them within
about a second; each arrives as its own update, possibly in different worker processes. Routing each
part alone would make a 7,500-character release two unrelated requests. So free text is not routed
at once: each part is stored (`PendingText`) and a `flush_text` task is scheduled; the task waits
until the chat has been quiet for the window (a debounce: it reschedules itself while parts keep
coming), then the first worker to claim the waiting parts, in one UPDATE, routes them joined, in
message order, as one input with one reply. Other workers' claims find nothing and stop.

A part that arrives after its batch was taken still joins it when it plainly continues it (it came
within seconds of a part long enough to have been split off): while the batch is being routed the
part waits; once the batch's draft is queued the part is appended to that draft's press release.

A batch is never lost with the worker routing it: the job it queues is tied to it in the job's own
transaction, and its replies go through a reply log kept on its rows (newsdesk.telegram.once). A
batch still unrouted after the task time limit (the worker died or the database failed mid-way) is
released by the sweeper and routed again: it does not queue its job twice nor repeat a reply the
reporter saw, and after MAX_ATTEMPTS the reporter is told to send it again (the text stays in the
conversation log).
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Sequence
from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import F, QuerySet
from django.utils import timezone

from agents.models import Run
from agents.services import draft_extend_queued, runs_tied_to
from conversations.models import Message
from conversations.services import message_log
from newsdesk.models import PendingText, Reporter
from newsdesk.telegram import once, queue, replies
from newsdesk.telegram.incoming import Incoming
from newsdesk.telegram.orchestrate import handle_text
from newsdesk.telegram.sender import say

log = logging.getLogger(__name__)
SPLIT_PART_MIN = 3000  # the client splits at 4096 UTF-16 units: a part this long likely has a sequel
LATE_JOIN = timedelta(seconds=10)  # how late a sequel may come and still join its batch
ROUTING_STALE = timedelta(seconds=90)  # a batch routing longer than this has died: stop waiting on it
SENTENCE_END = (".", "!", "?", "다", "요", ")", "]", "”", '"', ":")
MAX_ATTEMPTS = 3  # routings of one batch before the reporter is asked to send it again
RETRY_AFTER = 30.0  # seconds before a batch whose routing failed is routed again


def quiet_seconds(part: str) -> float:
    """How long the chat must be quiet after `part`; longer after a part that looks split off."""
    base = settings.NEWSDESK_PASTE_QUIET_MS / 1000
    return base * 2 if len(part) >= SPLIT_PART_MIN else base


def collect(incoming: Incoming, reporter: Reporter, logged: Message) -> None:
    """Stores one text message and schedules the flush that will route it (with its neighbours).

    An update handled again after its worker died brings the same message: it is collected once."""
    if (
        incoming.message_id
        and PendingText.objects.filter(
            reporter=reporter, chat_id=incoming.chat_id, telegram_message_id=incoming.message_id
        ).exists()
    ):
        return
    PendingText.objects.create(
        reporter=reporter,
        chat_id=incoming.chat_id,
        message=logged,
        telegram_message_id=incoming.message_id,
        text=incoming.text,
    )
    schedule_flush(reporter_id=reporter.pk, wait=quiet_seconds(incoming.text))


def schedule_flush(*, reporter_id: int, wait: float) -> None:
    queue.flush_queue(reporter_id=reporter_id, wait=max(wait, 0.05))


def join_parts(parts: Sequence[str]) -> str:
    """The parts as one text: a part ending a sentence starts a new line, else a space joins them."""
    joined = ""
    for part in (p.strip() for p in parts):
        if not part:
            continue
        if joined:
            joined += "\n" if joined.endswith(SENTENCE_END) else " "
        joined += part
    return joined


def flush(*, reporter_id: int, now: datetime | None = None) -> float | None:
    """Routes the chat's waiting parts as one input once it is quiet.

    Returns the seconds to wait before trying again, or None when nothing is left to do here.
    """
    now = now or timezone.now()
    pending = list(
        PendingText.objects.filter(reporter_id=reporter_id, batch="").order_by("received_at", "pk")
    )
    if not pending:
        return None
    newest = max(pending, key=lambda p: p.received_at)
    wait = quiet_seconds(newest.text) - (now - newest.received_at).total_seconds()
    if wait > 0:
        return wait
    previous = _previous_part(reporter_id, pending[0])
    if previous is not None and _continues(previous, pending[0]):
        if previous.routed_at is None and previous.claimed_at and now - previous.claimed_at < ROUTING_STALE:
            return quiet_seconds("")  # its batch is being routed: join whatever it becomes
        if _join_queued_run(previous, pending, now):
            return None
    token = uuid.uuid4().hex
    taken = PendingText.objects.filter(pk__in=[p.pk for p in pending], batch="").update(
        batch=token, claimed_at=now, attempts=F("attempts") + 1
    )
    if taken:
        _route(token)
    return None


def _previous_part(reporter_id: int, first: PendingText) -> PendingText | None:
    earlier = PendingText.objects.filter(reporter_id=reporter_id, received_at__lte=first.received_at)
    return earlier.exclude(batch="").order_by("-received_at", "-pk").first()


def _continues(previous: PendingText, part: PendingText) -> bool:
    return len(previous.text) >= SPLIT_PART_MIN and part.received_at - previous.received_at <= LATE_JOIN


def _route(token: str) -> None:
    parts = list(
        PendingText.objects.filter(batch=token)
        .select_related("reporter", "message")
        .order_by("telegram_message_id", "received_at", "pk")
    )
    reporter, last = parts[0].reporter, parts[-1]
    if max(p.attempts for p in parts) > MAX_ATTEMPTS:
        _give_up(token, parts)
        return
    text = join_parts([p.text for p in parts])
    logged = _merge_messages(parts, text)
    incoming = Incoming(
        update_id=0,
        chat_id=last.chat_id,
        chat_type="private",
        user_id=int(reporter.telegram_id or last.chat_id),
        message_id=int(last.telegram_message_id),
        name=reporter.display_name,
        text=text,
        kind="text",
        # A captioned document or photo keeps its file: "이걸로 기사 써줘" refers to it.
        attachment=logged.attachment_meta or None,
    )
    batch = PendingText.objects.filter(batch=token, routed_at__isnull=True)
    reply_log = _reply_log(token, parts)
    try:
        with runs_tied_to(lambda run: _tie(batch, run)), once.replies_of(reply_log):
            run = handle_text(incoming, reporter, logged)
    except Exception:  # a database or broker failure mid-way: route it again shortly
        log.exception("routing paste batch %s failed; it will be routed again", token)
        _retry(token, reporter_id=reporter.pk, now=timezone.now(), wait=RETRY_AFTER)
        return
    batch.update(routed_at=timezone.now(), replies=reply_log.entries, **({"run": run} if run else {}))


def _tie(batch: QuerySet[PendingText], run: Run) -> None:
    batch.update(run=run)


def _reply_log(token: str, parts: list[PendingText]) -> once.ReplyLog:
    """The batch's replies so far, saved on its rows while the batch is still this routing's."""

    def save(entries: list[once.Entry]) -> bool:
        return PendingText.objects.filter(batch=token, routed_at__isnull=True).update(replies=entries) > 0

    return once.ReplyLog(entries=list(parts[0].replies or []), save=save)


def _give_up(token: str, parts: list[PendingText]) -> None:
    log.error(
        "paste batch %s failed %d routings; the reporter is asked to send it again", token, MAX_ATTEMPTS
    )
    PendingText.objects.filter(batch=token).update(routed_at=timezone.now())
    say(chat_id=parts[-1].chat_id, text=replies.PASTE_FAILED, reporter=parts[0].reporter)


def recover(*, now: datetime) -> int:
    """Batches whose routing died with its worker, released to be routed again (or tied to the job
    they had queued). Returns how many were released; idempotent, and safe beside a live routing,
    which cannot outlive the task time limit."""
    dead = now - timedelta(seconds=settings.CELERY_TASK_TIME_LIMIT + 60)
    unrouted = PendingText.objects.filter(routed_at__isnull=True, claimed_at__lt=dead).exclude(batch="")
    released = 0
    for token, reporter_id in unrouted.values_list("batch", "reporter_id").distinct()[:100]:
        log.warning("paste batch %s died while routing", token)
        released += _retry(token, reporter_id=reporter_id, now=now, wait=0, claimed_before=dead)
    return released


def _retry(
    token: str, *, reporter_id: int, now: datetime, wait: float, claimed_before: datetime | None = None
) -> bool:
    """Releases an unfinished batch to be routed again, unless the job it asked for was queued
    (then it is done: the job's result reaches the chat whatever happened to the routing).

    Every UPDATE repeats the condition the batch was chosen by (still this claim's token, still
    unrouted, and for the sweeper still claimed before `claimed_before`): a routing that finished
    since the sweeper's select keeps its batch, and is not routed a second time."""
    rows = PendingText.objects.filter(batch=token, routed_at__isnull=True)
    if claimed_before is not None:
        rows = rows.filter(claimed_at__lt=claimed_before)
    if rows.filter(run__isnull=False).exists():
        rows.update(routed_at=now)
        return False
    if not rows.update(batch="", claimed_at=None):
        return False
    schedule_flush(reporter_id=reporter_id, wait=wait)
    return True


def _merge_messages(parts: list[PendingText], text: str) -> Message:
    """The conversation log keeps the paste as one message, as the reporter meant it."""
    logged = [p.message for p in parts if p.message is not None]
    if not logged:
        return message_log(
            reporter=parts[0].reporter,
            role=Message.Role.USER,
            content=text,
            telegram_chat_id=parts[0].chat_id,
        )
    first = logged[0]
    if len(parts) > 1:
        Message.objects.filter(pk=first.pk).update(content=text)
        Message.objects.filter(pk__in=[m.pk for m in logged[1:]]).delete()
        first.content = text
    return first


def _join_queued_run(previous: PendingText, pending: list[PendingText], now: datetime) -> bool:
    """Appends late parts to the draft their batch queued, if no worker has started it yet."""
    if previous.run_id is None:
        return False
    ordered = sorted(pending, key=lambda p: (p.telegram_message_id, p.pk))
    with transaction.atomic():
        run = draft_extend_queued(
            run_id=previous.run_id, join=lambda release: join_parts([release, *(p.text for p in ordered)])
        )
        if run is None:
            return False
        PendingText.objects.filter(pk__in=[p.pk for p in pending], batch="").update(
            batch=previous.batch, claimed_at=now, routed_at=now, run=run
        )
        batch_message = (
            Message.objects.filter(pk=previous.message_id).first() if previous.message_id else None
        )
        if batch_message is not None:
            batch_message.content = join_parts([batch_message.content, *(p.text for p in ordered)])
            batch_message.save(update_fields=["content"])
            Message.objects.filter(pk__in=[p.message_id for p in pending if p.message_id]).delete()
    log.info("late part(s) of a paste joined queued run %s", run.pk)
    return True

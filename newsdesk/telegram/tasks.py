"""Celery tasks of the Telegram face: process one stored update; deliver a finished run's result."""

from __future__ import annotations

import contextlib
import logging
from datetime import timedelta

from celery import Task, shared_task
from django.db.models import F, Q, QuerySet
from django.utils import timezone

from agents.models import Run
from agents.services import work
from conversations.models import Message
from conversations.services import message_log
from newsdesk.models import PendingText, TelegramDelivery, TelegramUpdate
from newsdesk.telegram import client, dispatch, once, paste, queue, replies, reverify
from newsdesk.telegram.delivery import Outgoing, result_messages

log = logging.getLogger(__name__)
MAX_ATTEMPTS = 3


@shared_task(bind=True)
def handle_update(self: Task, update_pk: int, owner: str = "", resume: int | None = None) -> None:
    """Processes an update once: claimed with a heartbeat; replies are never retried blindly.

    `owner` is given only by a retry after a database blip: the row is still this delivery's, and
    `resume` is the reply whose claim the blip interrupted (it never went out)."""
    retrying, owner = bool(owner), owner or work.owner_new()
    beat = not self.request.is_eager
    held: list[int | None] = [resume]  # until this try reaches that reply, it is still unsent
    try:
        if retrying and work.owner_reclaim(
            model=TelegramUpdate, pk=update_pk, base=_UNPROCESSED, owner=owner
        ):
            # Nobody else held the row since our claim, so nobody else wrote the held entry.
            handle_owned(update_pk=update_pk, owner=owner, heartbeat=beat, resume=resume, held=held)
        else:
            held[0] = None  # another owner came between: the entry may be theirs, never resumed
            if _claim(update_pk, self.request.id or "", owner):
                handle_owned(
                    update_pk=update_pk, owner=owner, heartbeat=beat, held=held, first_try=not retrying
                )
    except work.DB_ERRORS as exc:
        retry = work.retry_after_db_error(task=self, exc=exc, owner=owner, resume=held[0])
        raise retry from exc


def handle_owned(
    *,
    update_pk: int,
    owner: str,
    heartbeat: bool = True,
    resume: int | None = None,
    held: list[int | None] | None = None,
    first_try: bool = False,
) -> None:
    """The work of a claimed update: dispatch with its replies logged, then marked done while ours.

    `resume`: a reply this owner claimed and never sent (see once); `held[0]` is set to the reply
    whose claim a database error interrupted, for the retry to resume. `first_try`: claimed by a
    first delivery of the task, not a retry; with the row's first attempt, nothing of it was written."""
    update = TelegramUpdate.objects.get(pk=update_pk)
    ours = TelegramUpdate.objects.filter(pk=update_pk, owner=owner, processed_at__isnull=True)
    if update.attempts > MAX_ATTEMPTS:  # its worker keeps dying: stop instead of looping
        ours.update(processed_at=timezone.now(), error="too many attempts", payload={})
        return
    error = ""
    reply_log = _reply_log(update, owner)
    reply_log.resume = resume
    reply_log.first_try = first_try and update.attempts == 1 and not reply_log.entries
    try:
        with (
            work.owner_heartbeat(model=TelegramUpdate, pk=update_pk, owner=owner, enabled=heartbeat),
            once.replies_of(reply_log),
        ):
            dispatch.handle(update.payload)
    except work.DB_ERRORS:
        if held is not None:
            held[0] = reply_log.unsent_claim()
        raise  # the database is away, not the update's fault: retried in seconds (handle_update)
    except Exception as exc:  # a reply may already be out: retrying could answer twice
        log.exception("telegram update %s failed", update.update_id)
        error = type(exc).__name__
    # Only update_id is needed from now on (to refuse redeliveries); the payload may carry an API key
    # or three days' worth of private text, so it is not kept. The last reply's outcome goes with it.
    # Only while the update is still ours: a worker that took it over (ours went silent) answers it,
    # and marking it done here would leave that worker nothing to do and its replies unsent.
    if not ours.update(processed_at=timezone.now(), error=error, payload={}, replies=reply_log.entries):
        log.warning("telegram update %s was taken over by another worker; left to it", update.update_id)


def _reply_log(update: TelegramUpdate, owner: str) -> once.ReplyLog:
    """The update's replies so far (read with the row, no query of its own), saved while ours."""

    def save(entries: list[once.Entry]) -> bool:
        return TelegramUpdate.objects.filter(pk=update.pk, owner=owner).update(replies=entries) == 1

    return once.ReplyLog(entries=list(update.replies or []), save=save)


@shared_task
def flush_text(reporter_id: int) -> None:
    """Routes a chat's waiting text parts as one input once the chat is quiet (see paste.py)."""
    wait = paste.flush(reporter_id=reporter_id)
    if wait is not None:
        paste.schedule_flush(reporter_id=reporter_id, wait=wait)


_UNPROCESSED = Q(processed_at__isnull=True)


def _claim(update_pk: int, task_id: str, owner: str) -> bool:
    now = timezone.now()
    fields = {"task_id": task_id, "attempts": F("attempts") + 1}
    if TelegramUpdate.objects.filter(_UNPROCESSED, work.owner_silent_q(now=now), pk=update_pk).update(
        owner=owner, heartbeat_at=now, **fields
    ):
        return True
    return work.owner_take_over(model=TelegramUpdate, pk=update_pk, base=_UNPROCESSED, owner=owner, **fields)


@shared_task(bind=True, max_retries=5)
def deliver_run(self: Task, run_id: int, owner: str = "", sent: int = 0) -> None:
    """Sends a finished run's result to its chat once, resuming after the parts already sent.

    `owner` and `sent` come from a retry after a database blip: the delivery is still this
    delivery's, and its first `sent` parts went out (the row may not say so: the blip hit the write)."""
    retrying, owner = bool(owner), owner or work.owner_new()
    progress = [sent]  # parts this owner knows it sent
    try:
        run = Run.objects.select_related("reporter").get(pk=run_id)
        delivery = _delivery_of(run)
        if delivery is None:
            return
        if retrying and work.owner_reclaim(model=TelegramDelivery, pk=delivery.pk, base=_OPEN, owner=owner):
            TelegramDelivery.objects.filter(pk=delivery.pk, owner=owner, sent_parts__lt=sent).update(
                sent_parts=sent
            )
            deliver_owned(self, run=run, delivery=delivery, owner=owner, progress=progress)
        else:
            progress[0] = 0  # another owner came between: the row's own count is the truth
            if _claim_delivery(delivery.pk, owner):
                deliver_owned(self, run=run, delivery=delivery, owner=owner, progress=progress)
    except work.DB_ERRORS as exc:
        raise work.retry_after_db_error(task=self, exc=exc, owner=owner, sent=progress[0]) from exc


def deliver_owned(
    task: Task, *, run: Run, delivery: TelegramDelivery, owner: str, progress: list[int] | None = None
) -> None:
    """The parts of a claimed delivery not sent yet, each while ours; then the delivery marked done.
    `progress[0]` follows the parts sent, for a retry after a database error."""
    delivery.refresh_from_db()
    messages = result_messages(run)
    ours = TelegramDelivery.objects.filter(pk=delivery.pk, owner=owner, delivered_at__isnull=True)
    try:
        with work.owner_heartbeat(
            model=TelegramDelivery, pk=delivery.pk, owner=owner, enabled=not task.request.is_eager
        ):
            if not _send_parts(ours, delivery, messages, progress if progress is not None else [0]):
                log.warning("result of run %s was taken over by another worker; left to it", run.pk)
                return
    except client.TelegramError as exc:
        if exc.permanent:
            ours.update(error=exc.description[:300])
            log.warning("result of run %s not deliverable: %s", run.pk, exc.description)
            return
        countdown = exc.retry_after or 10
        ours.update(owner="", heartbeat_at=timezone.now() + timedelta(seconds=countdown))
        released = {**(task.request.kwargs or {}), "owner": "", "sent": 0}  # the row is let go
        raise task.retry(countdown=countdown, exc=exc, kwargs=released) from exc
    if _finish(run, delivery, messages, ours=ours):
        reverify.offer(run=run, chat_id=delivery.chat_id)


def _send_parts(
    ours: QuerySet[TelegramDelivery],
    delivery: TelegramDelivery,
    messages: list[Outgoing],
    progress: list[int],
) -> bool:
    """Sends the parts not sent yet, each only while the delivery is still ours (one conditional
    UPDATE that also beats its heartbeat, so the sweeper cannot find it stale mid-part); False
    when another worker took it over. `progress[0]` is raised as soon as a part is out, before the
    write that records it (which a database blip may cut)."""
    for index in range(delivery.sent_parts, len(messages)):
        if not ours.filter(sent_parts=index).update(heartbeat_at=timezone.now()):
            return False
        _send(delivery.chat_id, messages[index])
        progress[0] = index + 1
        if not ours.update(sent_parts=index + 1):
            return False
    return True


def _delivery_of(run: Run) -> TelegramDelivery | None:
    """The run's delivery row. A chat run may finish before its status message was recorded, and a
    scheduled one has none: both go to the reporter's private chat."""
    delivery = TelegramDelivery.objects.filter(run=run).first()
    chat_run = run.channel in (Run.Channel.SCHEDULE, Run.Channel.TELEGRAM)
    if delivery is None and chat_run and run.reporter.telegram_id:
        delivery, _ = TelegramDelivery.objects.get_or_create(
            run=run, defaults={"chat_id": run.reporter.telegram_id}
        )
    return delivery


_OPEN = Q(delivered_at__isnull=True, error="")


def _claim_delivery(pk: int, owner: str) -> bool:
    now = timezone.now()
    if TelegramDelivery.objects.filter(_OPEN, work.owner_silent_q(now=now), pk=pk).update(
        owner=owner, heartbeat_at=now
    ):
        return True
    return work.owner_take_over(model=TelegramDelivery, pk=pk, base=_OPEN, owner=owner)


def _send(chat_id: int, message: Outgoing) -> None:
    if message.html:
        client.send_html(chat_id=chat_id, html=message.text, buttons=message.buttons)
    else:
        client.send_text(chat_id=chat_id, text=message.text)


def _finish(
    run: Run,
    delivery: TelegramDelivery,
    messages: list[Outgoing],
    *,
    ours: QuerySet[TelegramDelivery],
) -> bool:
    """Marks the delivery done and logs it in the conversation, once: False (nothing done) when
    another worker took the delivery over, which finishes it instead."""
    if not ours.update(delivered_at=timezone.now()):
        return False
    article = getattr(run, "article", None) if run.status == Run.Status.DONE else None
    meta = {"run_id": run.pk, **({"article_id": article.pk} if article is not None else {})}
    message_log(
        reporter=run.reporter,
        role=Message.Role.ASSISTANT,
        content="\n\n".join(message.text for message in messages),
        telegram_chat_id=delivery.chat_id,
        meta=meta,
    )
    if delivery.status_message_id:
        label = replies.RUN_LABELS.get(run.kind, "")
        done = replies.STATUS_DONE if run.status == Run.Status.DONE else replies.STATUS_FAILED
        with contextlib.suppress(client.TelegramError):  # the result is out; a stale status is harmless
            client.edit_text(
                chat_id=delivery.chat_id,
                message_id=delivery.status_message_id,
                text=replies.STATUS_LINE.format(label=label, message=done),
            )
    return True


UPDATE_RETENTION = timedelta(days=3)  # Telegram gives up redelivering after a day


@shared_task
def purge_updates() -> int:
    """Hourly, idempotent: forgets updates old enough that Telegram will never send them again, and
    the routed paste parts they brought (kept as long, so a handling run again collects no part twice)."""
    old = timezone.now() - UPDATE_RETENTION
    deleted, _ = TelegramUpdate.objects.filter(received_at__lt=old).delete()
    parts, _ = PendingText.objects.filter(received_at__lt=old, routed_at__isnull=False).delete()
    return deleted + parts


@shared_task
def sweep_telegram() -> int:
    """Beat, every NEWSDESK_SWEEP_SECONDS: updates and results the broker lost or a dead worker left."""
    return queue.sweep() + paste.recover(now=timezone.now())

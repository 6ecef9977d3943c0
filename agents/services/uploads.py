"""Uploads: cheap checks in the web process, text extraction in the worker, bytes dropped after.

OCR (photos, scanned PDFs) runs only in the `io` worker (`tasks.extract_upload`): the web process
prechecks, and an `llm` worker that meets a file needing OCR (a Telegram attachment, or an upload
the `io` worker has not finished) hands it over and waits, rather than reading it itself. One OCR
job per reporter runs at a time: a second is refused before any work starts.
"""

from __future__ import annotations

import time
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from agents import messages as msg
from agents.models import Upload
from agents.reporters import ReporterLike
from agents.services.common import InputError
from agents.sources import files
from agents.work import handoff, outbox

# An OCR claim older than this belongs to a worker that died; the reporter may start another.
OCR_STALE = timedelta(seconds=files.OCR_PAGE_SECONDS * files.MAX_OCR_PAGES + 60)
MAX_FILE_BYTES = files.MAX_FILE_BYTES  # upload_receive refuses more, with FILE_TOO_LARGE
FILE_TOO_LARGE = files.MSG_TOO_LARGE
# The caution of the OCR warning (its sentence after "read by OCR"), for forms that take photos:
# the same words the draft, Telegram and the API give once a photo is read.
OCR_CAUTION = files.WARN_OCR.split(". ", 1)[-1]


def upload_precheck(*, file_name: str, mime_type: str, size: int) -> None:
    """Refuses, before any download, a file whose name, type or size says we cannot read it.

    Raises FileRejected (a UserFacingError) with the reason in the reporter's words.
    """
    files.precheck_metadata(file_name=file_name, mime_type=mime_type, size=size)


def upload_receive(
    *,
    reporter: ReporterLike,
    file_name: str,
    mime_type: str,
    data: bytes,
    photo: bool = False,
) -> Upload:
    """Stores an upload after the cheap checks and queues text extraction in the worker.

    With `photo` (a form's camera field) the bytes must be a photo, whatever the name says."""
    try:
        kind = files.precheck(data=data, file_name=file_name, mime_type=mime_type)
    except files.FileRejected as exc:
        raise InputError(exc.user_message, field="file") from exc
    if photo and kind != "image":
        raise InputError(msg.UPLOAD_NOT_A_PHOTO, field="file")
    if kind == "image" and _ocr_running(reporter_id=reporter.pk, queued=True):
        raise InputError(files.MSG_OCR_BUSY, field="file")
    with transaction.atomic():
        upload = Upload.objects.create(
            reporter_id=reporter.pk,
            file_name=file_name[:255],
            mime_type=mime_type[:120],
            size=len(data),
            content=data,
            ocr=kind == "image",
        )
        outbox.enqueue(task="agents.tasks.extract_upload", args=[upload.pk], key=_key(upload.pk))
    return upload


def upload_as_source(*, upload: Upload) -> str:
    """A parsed upload's text as a source to verify against: its page breaks become paragraph breaks."""
    return upload.text.replace(f"\n{files.PAGE_BREAK}\n", "\n\n")


def upload_await(*, upload: Upload, timeout: float) -> Upload:
    """Waits for the worker to extract the text; raises InputError if the file was rejected.

    With the broker known to be away nobody can extract it now: the request does not wait, and the
    draft's own task reads the file when it runs (upload_ensure_parsed).
    """
    upload = _await(upload, timeout, stop_when_broker_down=True)
    if upload.status == Upload.Status.FAILED:
        raise InputError(upload.error, field="file")
    return upload


def upload_ensure_parsed(*, upload_id: int) -> Upload:
    """The upload's text, extracted here if nobody has yet; raises files.FileRejected on a bad file.

    A file that needs OCR is left to the io worker (queued when it was received) and waited for.
    """
    upload = Upload.objects.get(pk=upload_id)
    if upload.status == Upload.Status.PENDING and not upload.ocr:
        upload_extract(upload=upload, ocr=False)
    if upload.status == Upload.Status.PENDING:
        upload = _await(upload, settings.NEWSDESK_OCR_WAIT_SECONDS)
    if upload.status == Upload.Status.PENDING:
        raise files.FileRejected(files.MSG_OCR_TIMEOUT, "ocr_timeout")
    if upload.status == Upload.Status.FAILED:
        raise files.FileRejected(upload.error, "upload")
    return upload


def upload_extract(*, upload: Upload, ocr: bool = True) -> None:
    """Reads the file. `ocr=True` only in the io worker; elsewhere an OCR file stays pending."""
    try:
        extracted = _extract(upload, ocr=False)
        if extracted is None and ocr:
            extracted = _extract_with_ocr(upload)
    except files.FileRejected as exc:
        _save(upload, error=exc.user_message)
        return
    if extracted is None:  # needs OCR, which is the io worker's job
        Upload.objects.filter(pk=upload.pk).update(ocr=True)
        upload.ocr = True
        return
    _save(upload, extracted=extracted)


def upload_read_elsewhere(
    *, reporter_id: int, file_name: str, mime_type: str, data: bytes
) -> files.Extracted:
    """A file read for the writing loop (llm worker): here if cheap, by the io worker if it needs OCR."""

    try:
        return files.extract_text(data=data, file_name=file_name, mime_type=mime_type, ocr=False)
    except files.FileRejected as exc:
        if exc.code != files.NEEDS_OCR:
            raise
    if _ocr_running(reporter_id=reporter_id, queued=True):
        raise files.FileRejected(files.MSG_OCR_BUSY, "ocr_busy")
    with transaction.atomic():
        upload = Upload.objects.create(
            reporter_id=reporter_id,
            file_name=file_name[:255],
            mime_type=mime_type[:120],
            size=len(data),
            content=data,
            ocr=True,
        )
        outbox.enqueue(task="agents.tasks.extract_upload", args=[upload.pk], key=_key(upload.pk))
    upload = upload_ensure_parsed(upload_id=upload.pk)
    return files.Extracted(
        text=upload.text,
        kind="pdf" if upload.page_count else "image",
        page_count=upload.page_count,
        warnings=list(upload.warnings),
        ocr=True,
        trusted_text=upload.trusted_text,
    )


# --- helpers ----------------------------------------------------------------------------------
def _extract(upload: Upload, *, ocr: bool) -> files.Extracted | None:
    try:
        return files.extract_text(
            data=bytes(upload.content or b""), file_name=upload.file_name, mime_type=upload.mime_type, ocr=ocr
        )
    except files.FileRejected as exc:
        if exc.code == files.NEEDS_OCR:
            return None
        raise


def _extract_with_ocr(upload: Upload) -> files.Extracted | None:
    if not _claim_ocr(upload):
        raise files.FileRejected(files.MSG_OCR_BUSY, "ocr_busy")
    return _extract(upload, ocr=True)


def _claim_ocr(upload: Upload) -> bool:
    """Marks this upload as the reporter's one running OCR job; False if another one runs."""
    now = timezone.now()
    with transaction.atomic():
        # Locking the reporter's pending uploads serialises two io workers claiming at once.
        list(
            Upload.objects.select_for_update()
            .filter(reporter_id=upload.reporter_id, status=Upload.Status.PENDING)
            .values_list("pk", flat=True)
        )
        if _ocr_running(reporter_id=upload.reporter_id, exclude=upload.pk, now=now):
            return False
        Upload.objects.filter(pk=upload.pk).update(ocr=True, ocr_started_at=now)
    return True


def _ocr_running(
    *, reporter_id: int, exclude: int | None = None, now: Any = None, queued: bool = False
) -> bool:
    """An OCR job of this reporter is running (or, with `queued`, also waiting for the io worker)."""
    cutoff = (now or timezone.now()) - OCR_STALE
    active = Q(ocr_started_at__gt=cutoff)
    if queued:
        active |= Q(ocr_started_at__isnull=True, created_at__gt=cutoff)
    running = Upload.objects.filter(active, reporter_id=reporter_id, status=Upload.Status.PENDING, ocr=True)
    return running.exclude(pk=exclude).exists() if exclude else running.exists()


def _save(upload: Upload, *, extracted: files.Extracted | None = None, error: str = "") -> None:
    if extracted is not None:
        upload.status, upload.text, upload.page_count = (
            Upload.Status.PARSED,
            extracted.text,
            extracted.page_count,
        )
        upload.ocr, upload.warnings = extracted.ocr, list(extracted.warnings)
        upload.trusted_text = extracted.trusted_text if extracted.ocr else ""
    else:
        upload.status, upload.error = Upload.Status.FAILED, error[:300]
    upload.content = None  # the bytes are not kept once read: a file is deleted as soon as its text is out
    upload.parsed_at = timezone.now()
    upload.save(
        update_fields=[
            "status",
            "text",
            "page_count",
            "error",
            "content",
            "parsed_at",
            "ocr",
            "warnings",
            "trusted_text",
        ]
    )


def _await(upload: Upload, timeout: float, *, stop_when_broker_down: bool = False) -> Upload:
    started = time.monotonic()
    while upload.status == Upload.Status.PENDING and time.monotonic() < started + timeout:
        if stop_when_broker_down and _not_handed_over(upload, waited=time.monotonic() - started):
            break
        time.sleep(0.1)
        upload.refresh_from_db()
    return upload


def _not_handed_over(upload: Upload, *, waited: float) -> bool:
    """Whether the upload's message is known not to reach a worker soon: the broker refused this
    process a moment ago, or (where the workers' relays publish) it is still unsent after two of
    their intervals."""
    if handoff.broker.down_since is not None:
        return True
    patience = 2 * settings.NEWSDESK_OUTBOX_RELAY_SECONDS
    return settings.NEWSDESK_RELAY_ON_NOTIFY and waited > patience and outbox.pending(_key(upload.pk))


def _key(upload_id: int) -> str:
    return f"upload:{upload_id}"

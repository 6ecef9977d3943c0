"""Uploads: cheap checks in the web process, text extraction in the worker, bytes dropped after."""

from __future__ import annotations

import time
from typing import Any

from django.db import transaction
from django.utils import timezone

from agents import outbox
from agents.models import Upload
from agents.services.common import InputError
from agents.sources import files


def upload_receive(*, reporter: Any, file_name: str, mime_type: str, data: bytes) -> Upload:
    """Stores an upload after the cheap checks and queues text extraction in the worker."""
    try:
        files.precheck(data=data, file_name=file_name, mime_type=mime_type)
    except files.FileRejected as exc:
        raise InputError(exc.user_message, field="file") from exc
    with transaction.atomic():
        upload = Upload.objects.create(
            reporter=reporter,
            file_name=file_name[:255],
            mime_type=mime_type[:120],
            size=len(data),
            content=data,
        )
        outbox.enqueue(task="agents.tasks.extract_upload", args=[upload.pk], key=f"upload:{upload.pk}")
    return upload


def upload_await(*, upload: Upload, timeout: float) -> Upload:
    """Waits for the worker to extract the text; raises InputError if the file was rejected.

    With the broker known to be away nobody can extract it now: the request does not wait, and the
    draft's own task reads the file when it runs (upload_ensure_parsed).
    """
    deadline = time.monotonic() + timeout
    while upload.status == Upload.Status.PENDING and time.monotonic() < deadline:
        if outbox.broker.down_since is not None:
            break
        time.sleep(0.1)
        upload.refresh_from_db(fields=["status", "error", "page_count"])
    if upload.status == Upload.Status.FAILED:
        raise InputError(upload.error, field="file")
    return upload


def upload_ensure_parsed(*, upload_id: int) -> Upload:
    """Extracts the text if nobody has yet (idempotent); raises files.FileRejected on a bad file."""
    upload = Upload.objects.get(pk=upload_id)
    if upload.status == Upload.Status.PENDING:
        upload_extract(upload=upload)
    if upload.status == Upload.Status.FAILED:
        raise files.FileRejected(upload.error, "upload")
    return upload


def upload_extract(*, upload: Upload) -> None:
    try:
        extracted = files.extract_text(
            data=bytes(upload.content or b""), file_name=upload.file_name, mime_type=upload.mime_type
        )
        upload.status, upload.text, upload.page_count = (
            Upload.Status.PARSED,
            extracted.text,
            extracted.page_count,
        )
    except files.FileRejected as exc:
        upload.status, upload.error = Upload.Status.FAILED, exc.user_message[:300]
    upload.content = None  # the bytes are not kept once read (seed 3.2: delete at once)
    upload.parsed_at = timezone.now()
    upload.save(update_fields=["status", "text", "page_count", "error", "content", "parsed_at"])

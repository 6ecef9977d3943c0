"""A browser upload handed to the worker, exactly as the API does it: the web process never parses."""

from __future__ import annotations

from django.conf import settings
from django.core.files.uploadedfile import UploadedFile

from agents import services
from agents.models import Upload
from newsdesk.models import Reporter
from newsdesk.workers import uploads_readable


def upload_from_browser(*, reporter: Reporter, uploaded: UploadedFile, photo: bool = False) -> Upload:
    """Stores the file, queues its extraction and waits a little for it; InputError if it is refused.

    One byte past the limit is read so the size check can tell "too large" from "exactly 3 MB".
    `photo`: it came from the camera field, so its bytes must be a photo.
    """
    upload = services.upload_receive(
        reporter=reporter,
        file_name=uploaded.name or "upload",
        mime_type=uploaded.content_type or "",
        data=uploaded.read(services.MAX_FILE_BYTES + 1),
        photo=photo,
    )
    # With the file worker known to be gone nobody reads it now: answer at once (the draft's own
    # task reads a plain file; an OCR file waits, stored, for the worker's return).
    wait = settings.NEWSDESK_UPLOAD_WAIT_SECONDS if uploads_readable() else 0
    return services.upload_await(upload=upload, timeout=wait)

"""A queued draft's stored input turned into the writing loop's request (in the worker)."""

from __future__ import annotations

from functools import partial

from agents.drafting.attachments import AttachmentRef
from agents.drafting.followup import Competitor
from agents.drafting.writing import DraftRequest
from agents.models import Run
from agents.services.uploads import upload_ensure_parsed, upload_read_elsewhere
from agents.sources import files
from agents.work.run_inputs import DraftRunInput, FollowUpInput


def draft_request(*, run: Run, data: DraftRunInput) -> DraftRequest:
    """What the writing loop is given: the stored input with its upload read and pages picked."""
    name, text, trusted, warnings = "", "", "", list[str]()
    pages = files.PageRange(*data.pages) if data.pages else None
    if data.upload_id:
        upload = upload_ensure_parsed(upload_id=data.upload_id)
        name = upload.file_name
        text, cut = files.pick_pages(upload.text, pages=pages)
        warnings = [*upload.warnings, *cut]
        if upload.ocr:
            trusted, _ = files.pick_pages(upload.trusted_text, pages=pages)
    return DraftRequest(
        pages=pages,
        warnings=tuple(warnings),
        department=data.department,
        press_release=data.press_release,
        length=data.length,
        style_hint=data.style_hint,
        search_news=data.search_news,
        keywords=tuple(data.keywords),
        topic=data.topic,
        context=data.context,
        attachment_name=name,
        attachment_text=text,
        attachment_trusted_text=trusted,
        attachments=tuple(AttachmentRef.from_meta(m) for m in data.attachments),
        read_file=partial(_read_in_worker, reporter_id=run.reporter_id),
        instruction=data.instruction,
        follow_up=competitor_of(data.follow_up) if data.follow_up else None,
    )


def competitor_of(ref: FollowUpInput) -> Competitor:
    return Competitor(
        title=ref.title, outlet=ref.outlet, url=ref.url, scrape_url=ref.scrape_url, summary=ref.summary
    )


def _read_in_worker(data: bytes, ref: AttachmentRef, *, reporter_id: int) -> files.Extracted:
    """Attachments needing OCR are read by the io worker, not in this llm task (services.uploads)."""
    return upload_read_elsewhere(
        reporter_id=reporter_id, file_name=ref.file_name, mime_type=ref.mime_type, data=data
    )

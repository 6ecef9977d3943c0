"""Entry points the faces (web desk, API, Telegram, admin) call to start and run drafting work.

With the selectors, the models, `agents.errors` and `agents.messages`, this package is the only
part of agents a face imports (tests/newsdesk/test_face_imports.py): what a face needs from deeper
down (a limit, a result type, the plumbing its own tasks share) is named here on purpose.
"""

from __future__ import annotations

from agents.drafting.attachments import AttachmentRef
from agents.drafting.attachments import unavailable as attachment_unavailable
from agents.errors import UserFacingError
from agents.services.common import InputError, require_api_key, run_requeue, runs_tied_to
from agents.services.drafts import (
    MAX_LENGTH,
    MIN_LENGTH,
    PRESS_RELEASE_LIMIT,
    DraftInput,
    draft_create,
    draft_execute,
    draft_extend_queued,
    edit_create,
    edit_execute,
    run_retry,
    validate_draft_input,
    validate_edit,
    validate_pages,
)
from agents.services.facts import add_fact_instruction, fact_add_create
from agents.services.followups import follow_up_create, follow_up_from_chat, follow_up_item
from agents.services.uploads import (
    FILE_TOO_LARGE,
    MAX_FILE_BYTES,
    OCR_CAUTION,
    upload_as_source,
    upload_await,
    upload_ensure_parsed,
    upload_extract,
    upload_precheck,
    upload_read_elsewhere,
    upload_receive,
)
from agents.services.verification import (
    VERIFY_ARTICLE_LIMIT,
    VERIFY_SOURCES_CHARS,
    VERIFY_SOURCES_LIMIT,
    VERIFY_UNFINISHED,
    verification_again,
    verify_by_code,
    verify_create,
    verify_execute,
    verify_material,
)
from agents.verification.verify import Verification

__all__ = [
    "FILE_TOO_LARGE",
    "MAX_FILE_BYTES",
    "MAX_LENGTH",
    "MIN_LENGTH",
    "OCR_CAUTION",
    "PRESS_RELEASE_LIMIT",
    "VERIFY_ARTICLE_LIMIT",
    "VERIFY_SOURCES_CHARS",
    "VERIFY_SOURCES_LIMIT",
    "VERIFY_UNFINISHED",
    "AttachmentRef",
    "DraftInput",
    "InputError",
    "UserFacingError",
    "Verification",
    "add_fact_instruction",
    "attachment_unavailable",
    "draft_create",
    "draft_execute",
    "draft_extend_queued",
    "edit_create",
    "edit_execute",
    "fact_add_create",
    "follow_up_create",
    "follow_up_from_chat",
    "follow_up_item",
    "require_api_key",
    "run_requeue",
    "run_retry",
    "runs_tied_to",
    "upload_as_source",
    "upload_await",
    "upload_ensure_parsed",
    "upload_extract",
    "upload_precheck",
    "upload_read_elsewhere",
    "upload_receive",
    "validate_draft_input",
    "validate_edit",
    "validate_pages",
    "verification_again",
    "verify_by_code",
    "verify_create",
    "verify_execute",
    "verify_material",
]

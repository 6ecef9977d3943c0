"""Drafts and edits: validate, queue, and the pipelines their tasks run."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Sequence
from typing import Any

from django.utils import timezone
from pydantic import BaseModel, Field, ValidationError, field_validator

from agents import messages as msg
from agents.drafting.edit import edit_article, lint_fix
from agents.drafting.material import MAX_LENGTH, MIN_LENGTH, LengthTarget, SourceDoc, article_length
from agents.drafting.writing import Draft, write_draft
from agents.facts.embargo import release_embargo
from agents.llm import client as llm
from agents.models import Article, Run, RunEvent, Upload
from agents.reporters import ReporterLike
from agents.selectors import article_lint
from agents.services.common import InputError, done_message, queue_run, require_api_key, save_issues
from agents.services.draft_request import draft_request
from agents.services.tracing import outlets_credited, traced, with_key_facts
from agents.services.uploads import upload_ensure_parsed
from agents.services.verification import VERIFY_UNFINISHED, verify_execute
from agents.sources import files
from agents.verification.verify import Verification, verify_article
from agents.work import runs
from agents.work.run_inputs import DraftRunInput, EditRunInput, FollowUpInput, is_verify
from styles.departments import DEPARTMENTS
from styles.lint import is_fix_request
from styles.selectors import style_for

log = logging.getLogger(__name__)
PRESS_RELEASE_LIMIT = 20_000


class DraftInput(BaseModel):
    press_release: str = ""
    department: str
    length: int | None = None
    style_hint: str = Field(default="", max_length=200)
    instruction: str = Field(default="", max_length=500)
    search_news: bool = False
    keywords: list[str] = Field(default_factory=list, max_length=5)

    @field_validator("keywords")
    @classmethod
    def _short_keywords(cls, value: list[str]) -> list[str]:
        cleaned = [k.strip() for k in value if k.strip()]
        if any(len(k) > 30 for k in cleaned):
            raise ValueError("keyword too long")
        return cleaned


# --- drafts ---------------------------------------------------------------------------------
def draft_create(
    *,
    reporter: ReporterLike,
    press_release: str = "",
    department: str | None = None,
    length: int | None = None,
    style_hint: str = "",
    search_news: bool = False,
    keywords: Sequence[str] = (),
    upload: Upload | None = None,
    attachments: Sequence[dict[str, Any]] = (),
    topic: str = "",
    context: str = "",
    channel: str = Run.Channel.WEB,
    pages: str = "",
    notes: Sequence[str] = (),
    instruction: str = "",
    follow_up: FollowUpInput | None = None,
) -> Run:
    """Validates a draft request and queues it. Raises InputError (nothing queued) on bad input.

    `pages` ("3-10", "3~10쪽") picks the pages of a long PDF that go to the model; `follow_up`
    (services.followups) makes it a follow-up of a competitor's article."""
    page_range = validate_pages(pages=pages)
    data = validate_draft_input(
        press_release=press_release,
        department=department or reporter.department,
        length=length,
        style_hint=style_hint,
        search_news=search_news,
        keywords=list(keywords),
        has_file=upload is not None or bool(attachments) or bool(context.strip()) or follow_up is not None,
        instruction=instruction,
    )
    require_api_key(reporter=reporter)
    stored = DraftRunInput(
        **data.model_dump(),
        upload_id=upload.pk if upload else None,
        attachments=list(attachments),
        topic=topic[:200],
        context=context[:6000],
        pages=(page_range.first, page_range.last) if page_range else None,
        notes=list(notes),  # said under the article (e.g. how much of a long paste was left out)
        follow_up=follow_up,
    )
    return queue_run(reporter=reporter, kind=Run.Kind.DRAFT, channel=channel, input=stored.stored())


def validate_pages(*, pages: str) -> files.PageRange | None:
    try:
        return files.parse_page_range(pages)
    except ValueError as exc:
        raise InputError(str(exc), field="pages") from exc


def validate_draft_input(
    *,
    press_release: str,
    department: str,
    length: int | None,
    style_hint: str,
    search_news: bool,
    keywords: list[str],
    has_file: bool,
    instruction: str = "",
) -> DraftInput:
    text = press_release.strip()
    if not text and not has_file and not (search_news and keywords):
        raise InputError(msg.EMPTY_PRESS_RELEASE, field="press_release")
    if len(text) > PRESS_RELEASE_LIMIT:
        raise InputError(
            msg.PRESS_RELEASE_TOO_LONG.format(limit=PRESS_RELEASE_LIMIT, length=len(text)),
            field="press_release",
        )
    if department not in DEPARTMENTS:
        raise InputError(msg.UNKNOWN_DEPARTMENT.format(department=department), field="department")
    if length is not None and not MIN_LENGTH <= length <= MAX_LENGTH:
        raise InputError(msg.LENGTH_OUT_OF_RANGE.format(low=MIN_LENGTH, high=MAX_LENGTH), field="length")
    try:
        return DraftInput(
            press_release=text,
            department=department,
            length=length,
            style_hint=style_hint.strip(),
            search_news=search_news,
            keywords=keywords,
            instruction=instruction.strip(),
        )
    except ValidationError as exc:
        field = str(exc.errors()[0]["loc"][0])
        message = {"style_hint": msg.STYLE_HINT_TOO_LONG, "instruction": msg.DRAFT_INSTRUCTION_TOO_LONG}.get(
            field, msg.TOO_MANY_KEYWORDS
        )
        raise InputError(message, field=field) from exc


def run_retry(*, run: Run) -> Run:
    """A new run with the same input (the "다시 시도" button)."""
    if run.kind not in (Run.Kind.DRAFT, Run.Kind.EDIT):
        raise InputError("이 작업은 다시 시도할 수 없습니다.")
    require_api_key(reporter=run.reporter)
    return queue_run(
        reporter=run.reporter,
        kind=run.kind,
        channel=run.channel,
        input=dict(run.input),
        retry_of=run,
        parent_article=run.parent_article,
    )


def draft_execute(*, run: Run) -> Article:
    """The pipeline a draft task runs: writing loop → verification → one atomic save."""
    if is_verify(run.input):
        return verify_execute(run=run)
    data = DraftRunInput.model_validate(run.input)
    reporter = run.reporter
    ctx = llm.reporter_context(reporter=reporter, run_id=run.pk)
    request = draft_request(run=run, data=data)
    style = style_for(
        department=request.department, reporter_id=reporter.pk, publisher=reporter.publisher_style
    )
    started = time.monotonic()
    draft = write_draft(
        ctx=ctx,
        request=request,
        style=style,
        on_stage=lambda stage, text: runs.stage_set(run=run, stage=stage, message=text),
    )
    drafted = time.monotonic()
    if draft.deadline_note:  # said now, not only with the result: the reporter waited long enough
        runs.event_add(run=run, kind=RunEvent.Kind.WARNING, message=draft.deadline_note)
    runs.stage_set(run=run, stage="verify", message=msg.STAGE_VERIFY)
    check = _verify_or_keep(ctx=ctx, run=run, draft=draft)
    run.timings = {
        "draft_seconds": round(drafted - started, 2),
        "verify_seconds": round(time.monotonic() - drafted, 2),
        "turns": draft.turns,
    }
    material = with_key_facts(material=[doc.to_json() for doc in draft.material], listed=draft.key_facts)
    check.body = outlets_credited(body=check.body, material=material, warnings=check.warnings)

    def save() -> Article:
        article = Article.objects.create(
            run=run,
            reporter=reporter,
            department=request.department,
            headline=check.headline or draft.headline,
            draft_body=draft.body,
            body=check.body,
            verdict=check.verdict,
            sources=draft.sources,
            source_material=material,
            length=article_length(check.body),
            target_length=draft.target.to_json(),
            warnings=[*data.notes, *draft.warnings, *check.warnings],
            model=ctx.model,
            style=style.label,
            embargo=release_embargo(
                request.press_release, request.attachment_text, reference=timezone.localdate()
            ),
            **traced(
                headline=check.headline or draft.headline,
                body=check.body,
                material=material,
            ),
        )
        save_issues(article, check.issues)
        return article

    return runs.finish_with(run=run, message=done_message(check.verdict, check.issues), save=save)


VERIFY_ATTEMPTS = 2
VERIFY_RETRY_WAIT = 4.0  # seconds; tests set 0


def _verify_or_keep(*, ctx: llm.CallContext, run: Run, draft: Draft) -> Verification:
    """Verification, retried once; if it still fails the written draft is kept, never rewritten.

    The draft then goes out with the code guard applied, marked "검증 미완료" (verdict skipped,
    Run.error_code VERIFY_UNFINISHED) and a way to check it again (services.verification_again).
    Retrying the whole task instead would pay for the draft twice and could lose it.
    """
    for attempt in range(1, VERIFY_ATTEMPTS + 1):
        try:
            return verify_article(
                ctx=ctx,
                headline=draft.headline,
                body=draft.body,
                material=draft.material,
                reference=timezone.localdate(),
            )
        except llm.LLMError as exc:
            log.warning("verification of run %s failed (attempt %s): %s", run.pk, attempt, exc)
            error = exc
            if exc.transient and attempt < VERIFY_ATTEMPTS:
                runs.event_add(run=run, kind="retry", message=msg.VERIFY_RETRYING)
                time.sleep(VERIFY_RETRY_WAIT)
                continue
            break
    check = verify_article(
        ctx=None,
        headline=draft.headline,
        body=draft.body,
        material=draft.material,
        reference=timezone.localdate(),
    )
    run.error_code = VERIFY_UNFINISHED
    Run.objects.filter(pk=run.pk).update(error_code=VERIFY_UNFINISHED)
    check.verdict = Article.Verdict.SKIPPED
    check.warnings.insert(0, msg.VERIFY_UNFINISHED.format(reason=error.user_message))
    return check


# --- edits ----------------------------------------------------------------------------------
INSTRUCTION_LIMIT = 500  # characters of an edit instruction


def draft_extend_queued(*, run_id: int, join: Callable[[str], str]) -> Run | None:
    """Gives a draft no worker has started a longer press release, join(release); None (nothing
    changed) when the run has started, is no draft, or the release would pass the limit. Call
    inside the caller's transaction: the run stays locked until it commits."""
    run = (
        Run.objects.select_for_update()
        .filter(pk=run_id, status=Run.Status.QUEUED, kind=Run.Kind.DRAFT)
        .first()
    )
    release = str(run.input.get("press_release") or "") if run else ""
    if run is None or not release:
        return None
    joined = join(release)
    if len(joined) > PRESS_RELEASE_LIMIT:
        return None
    run.input = {**run.input, "press_release": joined}
    run.save(update_fields=["input"])
    return run


def edit_create(
    *,
    reporter: ReporterLike,
    article: Article,
    instruction: str,
    channel: str = Run.Channel.WEB,
    upload: Upload | None = None,
) -> Run:
    """Queues an edit; `upload` (a file or photo sent with it) joins the article's material."""
    instruction = validate_edit(reporter=reporter, instruction=instruction)
    stored = EditRunInput(instruction=instruction, upload_id=upload.pk if upload else None)
    return queue_run(
        reporter=reporter, kind=Run.Kind.EDIT, channel=channel, input=stored.stored(), parent_article=article
    )


def validate_edit(*, reporter: ReporterLike, instruction: str) -> str:
    """The instruction, stripped; InputError (nothing stored) for a blank or long one or no key."""
    instruction = instruction.strip()
    if not instruction:
        raise InputError(msg.EMPTY_INSTRUCTION, field="instruction")
    if len(instruction) > INSTRUCTION_LIMIT:
        raise InputError(msg.INSTRUCTION_TOO_LONG, field="instruction")
    require_api_key(reporter=reporter)
    return instruction


def edit_execute(*, run: Run) -> Article:
    parent = run.parent_article
    if parent is None:  # an edit run is always created with its article; guard a deleted parent
        raise InputError(msg.EDIT_NEEDS_FINISHED_ARTICLE)
    reporter = run.reporter
    ctx = llm.reporter_context(reporter=reporter, run_id=run.pk)
    runs.stage_set(run=run, stage="write", message=msg.STAGE_EDIT)
    started = time.monotonic()
    stored = EditRunInput.model_validate(run.input)
    instruction = stored.instruction
    sent, upload_warnings = _edit_upload(upload_id=stored.upload_id)
    material = [SourceDoc.from_json(d) for d in parent.source_material] + sent
    source_material = [*parent.source_material, *(doc.to_json() for doc in sent)]
    hits = article_lint(article=parent) if is_fix_request(instruction) else []
    if hits:  # "고쳐줘" with a lint list: apply it; with nothing listed it is an ordinary edit
        result = lint_fix(
            ctx=ctx,
            headline=parent.headline,
            body=parent.body,
            hits=hits,
            material=material,
            reference=timezone.localdate(),
        )
    else:
        result = edit_article(
            ctx=ctx,
            headline=parent.headline,
            body=parent.body,
            instruction=instruction,
            material=material,
            reference=timezone.localdate(),
            added=sent,
        )
    run.timings = {"draft_seconds": round(time.monotonic() - started, 2), "verify_seconds": 0}
    result.body = outlets_credited(
        body=result.body, material=parent.source_material, warnings=result.warnings
    )
    target = LengthTarget.from_request(result.requested_length) if result.requested_length else None

    def save() -> Article:
        article = Article.objects.create(
            run=run,
            reporter=reporter,
            parent=parent,
            revision=parent.revision + 1,
            department=parent.department,
            headline=result.headline,
            draft_body=result.draft_body,
            body=result.body,
            verdict=result.verdict,
            sources=parent.sources,
            source_material=source_material,
            length=article_length(result.body),
            target_length=target.to_json() if target else parent.target_length,
            instruction=instruction,
            changes_made=result.changes_made,
            warnings=[*upload_warnings, *result.warnings],
            model=ctx.model,
            style=parent.style,
            embargo=parent.embargo,
            **traced(headline=result.headline, body=result.body, material=source_material),
        )
        save_issues(article, result.issues)
        return article

    done = msg.EDIT_DONE + (f" · {result.changes_made}" if result.changes_made else "")
    return runs.finish_with(run=run, message=done, save=save)


def _edit_upload(*, upload_id: int | None) -> tuple[list[SourceDoc], list[str]]:
    """A file sent with an edit as one more source, and its warnings (OCR's among them). Digits OCR
    was unsure of are left out of it, as for a draft's upload."""
    if upload_id is None:
        return [], []
    upload = upload_ensure_parsed(upload_id=upload_id)
    text = upload.trusted_text if upload.ocr else upload.text
    return [SourceDoc(kind="attachment", title=upload.file_name, text=text)], list(upload.warnings)

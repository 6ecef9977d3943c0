"""The JSON API. Its shapes are a contract: fields are added, never renamed. Endpoints validate,
call a service or selector, and serialise."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.admin.views.decorators import staff_member_required
from django.http import HttpRequest, HttpResponse
from django.utils import timezone
from ninja import NinjaAPI, Schema, Status
from ninja.errors import HttpError
from ninja.errors import ValidationError as NinjaValidationError
from ninja.parser import Parser
from ninja.security import HttpBearer
from ninja.security.session import SessionAuth

from agents import messages as agent_msg
from agents import selectors, services
from agents.models import Run
from agents.monitoring import selectors as monitor_selectors
from agents.monitoring import services as monitoring
from newsdesk import lockouts, logs, safe_json, serializers, workers
from newsdesk import messages as msg
from newsdesk.models import Reporter
from newsdesk.services import ProfileError, reporter_update, token_authenticate


class TokensLocked(Exception):
    """Too many bad bearer tokens from this address: answered 429 before any token is looked up."""

    def __init__(self, lock: lockouts.Lock) -> None:
        super().__init__("bearer tokens locked")
        self.lock = lock


class BearerToken(HttpBearer):
    def authenticate(self, request: HttpRequest, token: str) -> Reporter | None:
        lock = lockouts.api_token_lock(request)
        if lock is not None:
            raise TokensLocked(lock)
        reporter = token_authenticate(token=token)
        if reporter is None:
            lock = lockouts.api_token_failed(request)
            if lock is not None:
                raise TokensLocked(lock)
        return reporter


class SessionReporter(SessionAuth):
    """Session login (with CSRF, as ninja enforces for cookie auth), resolved to the reporter."""

    def authenticate(self, request: HttpRequest, key: str | None) -> Reporter | None:
        user = request.user
        if user.is_authenticated:
            return Reporter.objects.filter(user=user).first()
        return None


class SafeParser(Parser):
    """Bodies of the schema-typed operations, through the one bounded decoder (ninja answers 400
    for whatever the parser raises)."""

    def parse_body(self, request: HttpRequest) -> dict[str, Any]:
        return safe_json.request_json(request)


api = NinjaAPI(
    title="newsdesk API",
    parser=SafeParser(),
    version="1",
    auth=[BearerToken(), SessionReporter()],
    docs_decorator=staff_member_required,
    urls_namespace="api",
)


def reporter_of(request: HttpRequest) -> Reporter:
    return request.auth  # type: ignore[attr-defined]


@api.exception_handler(services.InputError)
def input_error(request: HttpRequest, exc: services.InputError) -> HttpResponse:
    return api.create_response(request, {"detail": exc.user_message, "field": exc.field}, status=exc.status)


@api.exception_handler(TokensLocked)
def tokens_locked(request: HttpRequest, exc: TokensLocked) -> HttpResponse:
    seconds = exc.lock.seconds_left(timezone.now())
    detail = msg.API_TOKENS_LOCKED.format(wait=lockouts.wait_text(seconds))
    response = api.create_response(request, {"detail": detail}, status=429)
    response["Retry-After"] = str(seconds)
    logs.mark_logged_elsewhere(request)  # the line logged when the lock engaged stands for these
    return response


@api.exception_handler(NinjaValidationError)
def schema_error(request: HttpRequest, exc: NinjaValidationError) -> HttpResponse:
    return api.create_response(request, {"detail": msg.BAD_REQUEST, "errors": exc.errors}, status=422)


# --- drafts -------------------------------------------------------------------------------
DRAFT_BODY_DOC = {
    "requestBody": {
        "content": {
            "application/json": {
                "schema": {
                    "type": "object",
                    "properties": {
                        "press_release": {"type": "string"},
                        "department": {"type": "string"},
                        "length": {"type": "integer"},
                        "style_hint": {"type": "string"},
                        "search_news": {"type": "boolean"},
                        "keywords": {"type": "array", "items": {"type": "string"}},
                        "instruction": {"type": "string", "description": "what to write, in words"},
                        "follow_up": {
                            "type": "object",
                            "properties": {"item": {"type": "integer"}},
                            "description": "a follow-up of a /check or /report item (its `id`)",
                        },
                    },
                }
            },
            "multipart/form-data": {
                "schema": {
                    "type": "object",
                    "properties": {
                        "file": {"type": "string", "format": "binary"},
                        "press_release": {"type": "string"},
                        "department": {"type": "string"},
                        "length": {"type": "integer"},
                        "style_hint": {"type": "string"},
                        "search_news": {"type": "boolean"},
                        "keywords": {"type": "string", "description": "comma-separated"},
                        "pages": {"type": "string", "description": "PDF pages for the model, e.g. 3-10"},
                        "instruction": {"type": "string"},
                        "follow_up": {"type": "integer", "description": "the item id of a follow-up"},
                    },
                }
            },
        }
    }
}


@api.post("/drafts", response={202: dict}, openapi_extra=DRAFT_BODY_DOC, tags=["drafts"])
def draft_create(request: HttpRequest) -> Status:
    reporter = reporter_of(request)
    data = serializers.draft_request_data(request)
    services.validate_pages(pages=data["pages"])  # a bad range stores no file
    follow_up = data.pop("follow_up")
    if follow_up is not None:
        services.follow_up_item(reporter=reporter, item_id=follow_up)  # 404 before a file is stored
    upload = None
    uploaded = request.FILES.get("file")
    if uploaded is not None:
        services.require_api_key(reporter=reporter)  # refuse before storing anything
        upload = services.upload_receive(
            reporter=reporter,
            file_name=uploaded.name or "upload",
            mime_type=uploaded.content_type or "",
            data=uploaded.read(services.MAX_FILE_BYTES + 1),
        )
        # No wait when the file worker is known gone: the draft's task reads a plain file itself.
        wait = settings.NEWSDESK_UPLOAD_WAIT_SECONDS if workers.uploads_readable() else 0
        services.upload_await(upload=upload, timeout=wait)
    if follow_up is not None:
        run = services.follow_up_create(
            reporter=reporter, item_id=follow_up, upload=upload, channel=Run.Channel.API, **data
        )
    else:
        run = services.draft_create(reporter=reporter, upload=upload, channel=Run.Channel.API, **data)
    return Status(202, {"id": run.pk, "status": run.status})


@api.get("/drafts", tags=["drafts"])
def draft_list(request: HttpRequest) -> dict[str, Any]:
    runs = selectors.draft_list(reporter=reporter_of(request))
    return {"drafts": [serializers.draft_summary(run) for run in runs]}


@api.get("/drafts/{run_id}", tags=["drafts"])
def draft_detail(request: HttpRequest, run_id: int) -> dict[str, Any]:
    return serializers.draft_detail(_own_draft(request, run_id))


@api.get("/drafts/{run_id}/events", tags=["drafts"])
def draft_events(request: HttpRequest, run_id: int, after: int = 0) -> dict[str, Any]:
    run = _own_draft(request, run_id)
    return {"events": [serializers.event(e) for e in selectors.events_after(run=run, after=after)]}


class EditIn(Schema):
    instruction: str


@api.post("/drafts/{run_id}/edits", response={202: dict}, tags=["drafts"])
def draft_edit(request: HttpRequest, run_id: int, payload: EditIn) -> Status:
    run = _own_draft(request, run_id)
    article = selectors.article_of(run)
    if article is None:
        raise services.InputError(agent_msg.EDIT_NEEDS_FINISHED_ARTICLE, status=409)
    edit = services.edit_create(
        reporter=reporter_of(request),
        article=article,
        instruction=payload.instruction,
        channel=Run.Channel.API,
    )
    return Status(202, {"id": edit.pk, "status": edit.status})


class FactIn(Schema):
    fact: int  # 1-based position in the draft's `missing_facts`


@api.post("/drafts/{run_id}/missing_facts", response={202: dict}, tags=["drafts"])
def draft_add_fact(request: HttpRequest, run_id: int, payload: FactIn) -> Status:
    """An edit that inserts only the chosen missing key fact, verified like any edit."""
    article = selectors.article_of(_own_draft(request, run_id))
    if article is None:
        raise services.InputError(agent_msg.EDIT_NEEDS_FINISHED_ARTICLE, status=409)
    edit = services.fact_add_create(
        reporter=reporter_of(request), article=article, number=payload.fact, channel=Run.Channel.API
    )
    return Status(202, {"id": edit.pk, "status": edit.status})


@api.post("/drafts/{run_id}/verify", response={202: dict}, tags=["drafts"])
def draft_verify(request: HttpRequest, run_id: int) -> Status:
    """Checks a finished article again without rewriting it (e.g. after "검증 미완료")."""
    article = selectors.article_of(_own_draft(request, run_id))
    if article is None:
        raise services.InputError(agent_msg.EDIT_NEEDS_FINISHED_ARTICLE, status=409)
    again = services.verification_again(
        reporter=reporter_of(request), article=article, channel=Run.Channel.API
    )
    return Status(202, {"id": again.pk, "status": again.status})


def _own_draft(request: HttpRequest, run_id: int) -> Run:
    run = selectors.draft_get(reporter=reporter_of(request), run_id=run_id)
    if run is None:
        raise HttpError(404, msg.NOT_FOUND)
    return run


# --- verify-only --------------------------------------------------------------------------
class VerifyIn(Schema):
    article: str
    sources: list[str]
    reference_date: str | None = None  # YYYY-MM-DD, the day the article is written; default today


@api.post("/verify", tags=["verify"])
def verify(request: HttpRequest, payload: VerifyIn) -> dict[str, Any]:
    reference = serializers.reference_date(payload.reference_date)
    return serializers.verify_only(article=payload.article, sources=payload.sources, reference=reference)


# --- profile --------------------------------------------------------------------------------
class MeIn(Schema):
    department: str | None = None
    keywords: list[str] | None = None
    anthropic_api_key: str | None = None
    model: str | None = None  # one of GET /api/me's `models`; "" = the default
    publisher_style: str | None = None  # one of `publisher_styles`; "" = the department's style


@api.get("/me", tags=["me"])
def me(request: HttpRequest) -> dict[str, Any]:
    return serializers.profile(reporter_of(request))


@api.put("/me", tags=["me"])
def me_update(request: HttpRequest, payload: MeIn) -> dict[str, Any]:
    try:
        reporter = reporter_update(
            reporter=reporter_of(request),
            department=payload.department,
            keywords=payload.keywords,
            anthropic_key=payload.anthropic_api_key,
            model=payload.model,
            publisher_style=payload.publisher_style,
        )
    except ProfileError as exc:
        raise services.InputError(exc.user_message, field=exc.field) from exc
    return serializers.profile(reporter)


# --- monitoring (/check, /report) and runs ----------------------------------------------------
@api.post("/checks", response={202: dict}, tags=["monitoring"])
def check_create(request: HttpRequest) -> Status:
    """Queues a /check; 409 while another job of this reporter runs; 422 without keywords."""
    run = monitoring.check_request(reporter=reporter_of(request), channel=Run.Channel.API)
    return Status(202, {"id": run.pk, "status": run.status})


@api.post("/reports", response={202: dict}, tags=["monitoring"])
def report_create(request: HttpRequest) -> Status:
    """Queues a /report (today's department briefing); 409 while another job of this reporter runs."""
    run = monitoring.report_request(reporter=reporter_of(request), channel=Run.Channel.API)
    return Status(202, {"id": run.pk, "status": run.status})


@api.get("/runs/{run_id}", tags=["runs"])
def run_detail(request: HttpRequest, run_id: int) -> dict[str, Any]:
    run = monitor_selectors.run_get(reporter=reporter_of(request), run_id=run_id)
    if run is None:
        raise HttpError(404, msg.NOT_FOUND)
    return serializers.run_detail(run)

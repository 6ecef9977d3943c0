"""Shapes of the JSON API (a contract: fields are added, never renamed) and parsing of its looser inputs."""

from __future__ import annotations

from datetime import date
from typing import Any

from django.http import HttpRequest
from django.utils import timezone

from agents import messages as agent_msg
from agents import selectors
from agents.models import Article, MonitorItem, Run, RunEvent
from agents.monitoring import selectors as monitor_selectors
from agents.services import InputError, verify_by_code
from newsdesk import messages as msg
from newsdesk import safe_json
from newsdesk.choices import reporter_choices
from newsdesk.models import Reporter


def draft_request_data(request: HttpRequest) -> dict[str, Any]:
    """The draft fields from a JSON body or a multipart form, typed for services.draft_create."""
    if request.content_type == "multipart/form-data":
        form = request.POST
        raw: dict[str, Any] = {key: form.get(key) for key in form}
        raw["keywords"] = [k for k in (form.get("keywords") or "").split(",") if k.strip()]
        raw["search_news"] = (form.get("search_news") or "").lower() in ("1", "true", "on", "yes")
    else:
        raw = parse_json_body(request)
    return {
        "press_release": _text(raw.get("press_release")),
        "department": _text(raw.get("department")) or None,
        "length": _length(raw.get("length")),
        "style_hint": _text(raw.get("style_hint")),
        "search_news": bool(raw.get("search_news")),
        "keywords": _keywords(raw.get("keywords")),
        "pages": _text(raw.get("pages")),
        "instruction": _text(raw.get("instruction")),
        "follow_up": _follow_up_item(raw.get("follow_up")),
    }


def _follow_up_item(value: Any) -> int | None:
    """`{"item": <id>}` in JSON; in a form, the item's id alone."""
    if value in (None, ""):
        return None
    item = value.get("item") if isinstance(value, dict) else value
    if isinstance(item, str) and item.strip().isdigit():
        item = int(item)
    if not isinstance(item, int) or isinstance(item, bool) or item <= 0:
        raise InputError(agent_msg.FOLLOW_UP_BAD, field="follow_up")
    return item


def parse_json_body(request: HttpRequest) -> dict[str, Any]:
    try:
        data = safe_json.request_json(request, empty=b"{}")
    except safe_json.BodyTooLarge as exc:
        raise InputError(msg.BODY_TOO_LARGE, status=exc.status) from exc
    except safe_json.UnsafeJSON as exc:  # malformed or nested too deep
        raise InputError(msg.BAD_JSON, status=exc.status) from exc
    if not isinstance(data, dict):
        raise InputError(msg.BAD_JSON, status=400)
    return data


def _text(value: Any) -> str:
    if value is None:
        return ""
    if not isinstance(value, str):
        raise InputError(msg.BAD_REQUEST)
    return value


def _length(value: Any) -> int | None:
    if value in (None, ""):
        return None
    try:
        return int(value)
    except (TypeError, ValueError) as exc:
        raise InputError("분량은 숫자로 적어 주세요.", field="length") from exc


def _keywords(value: Any) -> list[str]:
    if value in (None, ""):
        return []
    if isinstance(value, str):
        value = value.split(",")
    if not isinstance(value, list) or not all(isinstance(k, str) for k in value):
        raise InputError(msg.BAD_REQUEST, field="keywords")
    return [k.strip() for k in value if k.strip()]


# --- output -------------------------------------------------------------------------------
def reference_date(value: str | None) -> date:
    """The day of writing relative dates are read against; today when not given."""
    if value is None or not value.strip():
        return timezone.localdate()
    try:
        return date.fromisoformat(value.strip())
    except ValueError as exc:
        raise InputError(msg.BAD_REFERENCE_DATE, field="reference_date") from exc


def issue(i: Any) -> dict[str, Any]:
    """One verification issue; `sentence` is 1-based with 0 for the headline."""
    return {
        "claim": i.claim,
        "status": i.status,
        "kind": i.kind,
        "source": i.source,
        "origin": i.origin,
        "sentence": i.sentence_index,
        "action": i.action,
        "reason": i.reason,
        "formula": i.formula,
        "rule": i.rule,
    }


def draft_summary(run: Run) -> dict[str, Any]:
    article = selectors.article_of(run)
    return {
        "id": run.pk,
        "kind": run.kind,
        "status": run.status,
        "stage": run.stage,
        "headline": article.headline if article else "",
        "verdict": article.verdict if article else None,
        "created_at": run.created_at.isoformat(),
    }


def draft_detail(run: Run) -> dict[str, Any]:
    article: Article | None = selectors.article_of(run)
    verification: dict[str, Any] = {"verdict": None, "issues": []}
    if article is not None:
        verification = {"verdict": article.verdict, "issues": [issue(i) for i in article.issues.all()]}
    return {
        "id": run.pk,
        "status": run.status,
        "stage": run.stage,
        "headline": article.headline if article else "",
        "body": article.body if article else "",
        "draft_body": article.draft_body if article else "",
        "length": article.length if article else 0,
        "verification": verification,
        "sources": [source(s) for s in article.sources] if article else [],
        "warnings": article.warnings if article else [],
        "model": article.model if article else "",
        "style": article.style if article else "",
        "sentences": selectors.article_provenance(article=article) if article else [],
        "missing_facts": article.missing_facts if article else [],
        "embargo": article.embargo if article else None,
        "parent_id": run.parent_article.run_id if run.parent_article else None,
        "error": run.error,
        "usage": selectors.run_usage(run=run).as_dict(),
        "lint": [hit.as_json() for hit in selectors.article_lint(article=article)] if article else [],
    }


def source(listed: dict[str, Any]) -> dict[str, Any]:
    """One entry of a draft's `sources`: title and url, and (added) its kind and outlet; rows saved
    before sources carried a kind were all news search results."""
    return {"kind": "search", "outlet": "", **listed}


def event(e: RunEvent) -> dict[str, Any]:
    return {"seq": e.seq, "kind": e.kind, "message": e.message, "at": e.created_at.isoformat()}


def profile(reporter: Reporter) -> dict[str, Any]:
    choices = reporter_choices(reporter=reporter)
    return {
        "department": reporter.department,
        "keywords": reporter.keywords,
        "anthropic_api_key": reporter.masked_key or None,
        "anthropic_key_status": reporter.anthropic_key_status,
        "telegram_linked": reporter.telegram_id is not None,
        "model": choices.model,
        "model_is_default": choices.model_is_default,
        "models": [spec.id for spec in choices.models],
        "publisher_style": choices.publisher_style or None,
        "publisher_styles": choices.publisher_styles,
        "style": choices.style_label,
    }


def verify_only(*, article: str, sources: list[str], reference: date | None = None) -> dict[str, Any]:
    """POST /api/verify: the code guard alone (no model, no key)."""
    result = verify_by_code(article=article, sources=sources, reference=reference)
    return {
        "verdict": "revised" if result.verdict == "revised" else "pass",
        "issues": [issue(i) for i in result.issues],
        "body": result.body,
    }


# --- runs and monitoring items --------------------------------------------------------------
def run_detail(run: Run) -> dict[str, Any]:
    """GET /api/runs/{id}: any run; `items` only for check/report runs."""
    items = monitor_selectors.run_items(run=run) if run.kind in monitor_selectors.MONITOR_KINDS else []
    return {
        "id": run.pk,
        "kind": run.kind,
        "status": run.status,
        "stage": run.stage,
        "error": run.error,
        "started_at": run.started_at.isoformat() if run.started_at else None,
        "finished_at": run.finished_at.isoformat() if run.finished_at else None,
        "items": [monitor_item(item) for item in items],
    }


def monitor_item(item: MonitorItem) -> dict[str, Any]:
    return {
        "id": item.pk,  # what POST /api/drafts {"follow_up": {"item": id}} names (additive)
        "category": item.category,
        "action": item.action or None,  # scenario A and /check items carry no action
        "title": item.title,
        "publisher": item.publisher,
        "url": item.url,
        "pub_time": timezone.localtime(item.pub_time).isoformat() if item.pub_time else None,  # KST
        "summary": item.summary,
        "reason": item.reason,
        # One event, one item: the other outlets that reported it, earliest first (additive).
        "also_reported_by": [
            {
                "publisher": o.get("publisher", ""),
                "title": o.get("title", ""),
                "url": o.get("url", ""),
                "pub_time": o.get("pub_time"),
            }
            for o in item.also_reported or []
        ],
    }

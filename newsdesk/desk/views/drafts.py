"""New draft, my drafts, the live draft page and its status partial, edits, retries."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django_htmx.http import push_url, reswap, retarget

from agents import messages as agent_msg
from agents import selectors as agent_selectors
from agents import services
from agents.models import Run
from newsdesk import messages as msg
from newsdesk.desk.forms import LENGTH_PRESETS, DraftForm, EditForm, client_messages
from newsdesk.desk.http import (
    ReporterRequest,
    long_poll,
    own_draft,
    page,
    reporter_required,
    see_other,
)
from newsdesk.desk.presenters import drafts as presenters
from newsdesk.desk.presenters.workers import worker_notices
from newsdesk.desk.uploads import upload_from_browser
from newsdesk.models import Reporter
from styles.departments import DEPARTMENTS


def draft_url(run: Run) -> str:
    return reverse("desk:draft", kwargs={"run_id": run.pk})


# --- new draft ------------------------------------------------------------------------------
@never_cache
@reporter_required
@require_http_methods(["GET", "POST"])
def draft_new(request: ReporterRequest) -> HttpResponse:
    reporter = request.reporter
    if request.method == "POST":
        form = DraftForm(request.POST, request.FILES)
        if form.is_valid():
            try:
                run = _create_draft(reporter=reporter, form=form)
            except services.InputError as exc:
                form.add_input_error(exc, fields=DraftForm.FIELD_OF)
            else:
                return see_other(draft_url(run))
    else:
        initial = {"department": reporter.department, "length_choice": ""}
        form = DraftForm(initial={**initial, "follow_up": _follow_up_id(request)})
    context = {
        "follow_up": _follow_up_of(reporter, form),
        "form": form,
        "departments": DEPARTMENTS,
        "length_presets": [(value, f"{int(value):,}") for value in LENGTH_PRESETS],
        "can_use_model": presenters.can_use_model(reporter=reporter),
        "client": client_messages(),
        "file_again": msg.DESK_FILE_AGAIN if form.is_bound and request.FILES and form.errors else "",
        "recent": presenters.draft_rows(reporter=reporter, limit=5),
        "worker_notices": worker_notices(),
    }
    return page(request, "desk/new.html", context)


def _follow_up_id(request: ReporterRequest) -> int | None:
    """?follow_up=<item id> from a monitor item's "후속 기사" button; not the reporter's: 404."""
    raw = request.GET.get("follow_up", "")
    if not raw:
        return None
    if not raw.isdigit():
        raise Http404(msg.NOT_FOUND)
    try:
        return services.follow_up_item(reporter=request.reporter, item_id=int(raw)).pk
    except services.InputError as exc:
        raise Http404(msg.NOT_FOUND) from exc


def _follow_up_of(reporter: Reporter, form: DraftForm) -> presenters.FollowUp | None:
    value = form.cleaned_data.get("follow_up") if form.is_bound else form.initial.get("follow_up")
    return presenters.follow_up(reporter=reporter, item_id=value) if value else None


def _create_draft(*, reporter: Reporter, form: DraftForm) -> Run:
    """Validates before the upload is stored, so a bad form leaves no orphan file behind."""
    fields = form.draft_kwargs()
    uploaded = form.uploaded()
    follow_up = form.cleaned_data.get("follow_up")
    if follow_up:
        services.follow_up_item(reporter=reporter, item_id=follow_up)
    checked = {key: value for key, value in fields.items() if key != "pages"}
    services.validate_draft_input(
        **{**checked, "department": fields["department"] or reporter.department},
        has_file=uploaded is not None or bool(follow_up),
    )
    services.validate_pages(pages=fields["pages"])
    upload = None
    if uploaded is not None:
        services.require_api_key(reporter=reporter)  # refuse before storing anything, as the API does
        upload = upload_from_browser(reporter=reporter, uploaded=uploaded, photo=form.photo_chosen())
    if follow_up:
        return services.follow_up_create(
            reporter=reporter, item_id=follow_up, upload=upload, channel=Run.Channel.WEB, **fields
        )
    return services.draft_create(reporter=reporter, upload=upload, channel=Run.Channel.WEB, **fields)


# --- my drafts ------------------------------------------------------------------------------
@never_cache
@reporter_required
@require_GET
def draft_list(request: ReporterRequest) -> HttpResponse:
    return page(request, "desk/list.html", {"rows": presenters.draft_rows(reporter=request.reporter)})


# --- one draft: the page, and the status partial it polls -----------------------------------
@never_cache
@reporter_required
@require_GET
def draft_detail(request: ReporterRequest, run_id: int) -> HttpResponse:
    run = own_draft(request, run_id)
    return page(request, "desk/draft.html", _draft_context(request, run, EditForm()))


@never_cache
@reporter_required
@require_GET
def draft_status(request: ReporterRequest, run_id: int) -> HttpResponse:
    """The polled fragment, as a long poll (http.long_poll). Once the run ends it answers without
    hx-trigger, which ends the polling (portable to htmx 4)."""
    run = own_draft(request, run_id)
    if not request.htmx:
        return redirect(draft_url(run))
    run = long_poll(request, run)
    return render(request, "desk/partials/status.html", _draft_context(request, run, EditForm()))


def _draft_context(request: ReporterRequest, run: Run, edit_form: EditForm) -> dict[str, Any]:
    return {
        "page": presenters.draft_page(reporter=request.reporter, run=run),
        "edit_form": edit_form,
        "client": client_messages(),
        # A waiting run says why it waits when its worker is gone (the llm queue runs every draft).
        "worker_notices": [] if run.is_finished else worker_notices(queues=("llm",)),
    }


# --- edits and retries ----------------------------------------------------------------------
@reporter_required
@require_POST
def draft_edit(request: ReporterRequest, run_id: int) -> HttpResponse:
    run = own_draft(request, run_id)
    form = EditForm(request.POST, request.FILES)
    edit = None
    if form.is_valid():  # every field is optional: the service judges the instruction and the file
        try:
            edit = _create_edit(request.reporter, run, form)
        except services.InputError as exc:
            form.add_input_error(exc)
    if edit is None:
        if request.htmx:
            context = {"run": run, "edit_form": form, "client": client_messages()}
            return render(request, "desk/partials/edit_form.html", context)
        return page(request, "desk/draft.html", _draft_context(request, run, form))
    if not request.htmx:
        return see_other(draft_url(edit))
    # Swap the new revision's live page into the main region and put its URL in the address bar.
    response = page(request, "desk/draft.html", _draft_context(request, edit, EditForm()))
    return push_url(reswap(retarget(response, "#main"), "innerHTML"), draft_url(edit))


@reporter_required
@require_POST
def draft_add_fact(request: ReporterRequest, run_id: int) -> HttpResponse:
    """The "추가" button beside a missing key fact: an edit that inserts only that fact."""
    run = own_draft(request, run_id)
    article = agent_selectors.article_of(run)
    number = request.POST.get("fact", "")
    try:
        if article is None:
            raise services.InputError(agent_msg.EDIT_NEEDS_FINISHED_ARTICLE, status=409)
        edit = services.fact_add_create(
            reporter=request.reporter, article=article, number=int(number) if number.isdigit() else 0
        )
    except services.InputError as exc:
        messages.error(request, exc.user_message)
        edit = run
    if not request.htmx:
        return see_other(draft_url(edit))
    response = page(request, "desk/draft.html", _draft_context(request, edit, EditForm()))
    return push_url(reswap(retarget(response, "#main"), "innerHTML"), draft_url(edit))


def _create_edit(reporter: Reporter, run: Run, form: EditForm) -> Run:
    """Validates before the upload is stored, so a bad instruction leaves no orphan file behind."""
    article = agent_selectors.article_of(run)
    if article is None:
        raise services.InputError(agent_msg.EDIT_NEEDS_FINISHED_ARTICLE, status=409)
    instruction = services.validate_edit(reporter=reporter, instruction=form.cleaned_data["instruction"])
    uploaded = form.uploaded()
    upload = None
    if uploaded is not None:
        upload = upload_from_browser(reporter=reporter, uploaded=uploaded, photo=form.photo_chosen())
    return services.edit_create(reporter=reporter, article=article, instruction=instruction, upload=upload)


@reporter_required
@require_POST
def draft_retry(request: ReporterRequest, run_id: int) -> HttpResponse:
    """The "다시 시도" button: a new run with the same input."""
    run = own_draft(request, run_id)
    if run.status != Run.Status.FAILED:
        messages.error(request, msg.DESK_RETRY_ONLY_FAILED)
        return see_other(draft_url(run))
    try:
        retry = services.run_retry(run=run)
    except services.InputError as exc:
        messages.error(request, exc.user_message)
        return see_other(draft_url(run))
    return see_other(draft_url(retry))


@reporter_required
@require_POST
def draft_verify(request: ReporterRequest, run_id: int) -> HttpResponse:
    """The "검증 다시 하기" button: the written article checked again, not rewritten."""
    run = own_draft(request, run_id)
    article = agent_selectors.article_of(run)
    if article is None:
        return see_other(draft_url(run))
    try:
        again = services.verification_again(
            reporter=request.reporter, article=article, channel=Run.Channel.WEB
        )
    except services.InputError as exc:
        messages.error(request, exc.user_message)
        return see_other(draft_url(run))
    return see_other(draft_url(again))

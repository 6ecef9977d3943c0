"""Verify-only: a reporter's own article checked against its sources.

The code guard answers at once and needs no key (services.verify_by_code). With a key the model
check is queued too (services.verify_create) and its live progress is shown under the guard's result.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.http import HttpResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods

from agents import services
from agents.models import Run, Upload
from newsdesk import messages as msg
from newsdesk.desk.forms import EditForm, VerifyForm, client_messages
from newsdesk.desk.http import ReporterRequest, page, reporter_required
from newsdesk.desk.presenters import drafts
from newsdesk.desk.presenters import verify as presenters
from newsdesk.desk.presenters.workers import worker_notices
from newsdesk.desk.uploads import upload_from_browser
from newsdesk.models import Reporter
from newsdesk.workers import uploads_readable


@dataclass(frozen=True)
class Checked:
    view: presenters.VerifyView
    run: Run | None  # the queued model check, when there is a key
    code_only: bool  # there is no key, so only the code guard ran


@never_cache
@reporter_required
@require_http_methods(["GET", "POST"])
def verify(request: ReporterRequest) -> HttpResponse:
    reporter = request.reporter
    can_use_model = drafts.can_use_model(reporter=reporter)
    checked = None
    if request.method == "POST":
        form = VerifyForm(request.POST, request.FILES)
        if form.is_valid():
            try:
                checked = _check(reporter=reporter, form=form, can_use_model=can_use_model)
            except services.InputError as exc:
                form.add_input_error(exc)
    else:
        form = VerifyForm(initial={"with_model": can_use_model})
    context = {
        "form": form,
        "checked": checked,
        "live": drafts.draft_page(reporter=reporter, run=checked.run) if checked and checked.run else None,
        "edit_form": EditForm(),
        "can_use_model": can_use_model,
        "code_only_note": msg.DESK_VERIFY_CODE_ONLY,
        "client": client_messages(),
        "worker_notices": worker_notices(),
        "file_again": msg.DESK_FILE_AGAIN if form.is_bound and request.FILES and form.errors else "",
    }
    return page(request, "desk/verify.html", context)


def _check(*, reporter: Reporter, form: VerifyForm, can_use_model: bool) -> Checked:
    article = form.cleaned_data["article"]
    sources = form.source_texts()
    uploaded = form.uploaded()
    if uploaded is not None:
        upload = upload_from_browser(reporter=reporter, uploaded=uploaded, photo=form.photo_chosen())
        if upload.status != Upload.Status.PARSED:
            why = msg.DESK_FILE_PENDING if uploads_readable() else msg.DESK_WORKER_STOPPED["io"]
            raise services.InputError(why, field="file")
        sources.append(services.upload_as_source(upload=upload))
    check = services.verify_by_code(article=article, sources=sources)
    wants_model = form.cleaned_data["with_model"]
    run = None
    if wants_model and can_use_model:
        run = services.verify_create(
            reporter=reporter, article=article, sources=sources, headline=form.cleaned_data["headline"]
        )
    return Checked(
        view=presenters.verify_view(article=article, check=check),
        run=run,
        code_only=not can_use_model,
    )

"""Login, logout and the profile page (department, keywords, the write-only Anthropic key)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import views as auth_views
from django.http import HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST

from newsdesk import messages as msg
from newsdesk.choices import reporter_choices
from newsdesk.desk.forms import ProfileForm
from newsdesk.desk.http import ReporterRequest, page, reporter_required, see_other
from newsdesk.services import ProfileError, key_test, reporter_update
from styles.departments import DEPARTMENTS

login = auth_views.LoginView.as_view(template_name="accounts/login.html", redirect_authenticated_user=True)
logout = auth_views.LogoutView.as_view()  # POST only (Django 5), so a link cannot log anyone out


@never_cache
@reporter_required
@require_http_methods(["GET", "POST"])
def profile(request: ReporterRequest) -> HttpResponse:
    reporter = request.reporter
    if request.method == "POST":
        form = ProfileForm(request.POST)
        if form.is_valid():
            try:
                reporter_update(reporter=reporter, **form.update_kwargs(had_keywords=bool(reporter.keywords)))
            except ProfileError as exc:
                reporter.refresh_from_db()  # the service may have changed fields before refusing
                form.add_error(exc.field if exc.field in form.fields else None, exc.user_message)
            else:
                removed = form.cleaned_data["remove_key"]
                messages.success(request, msg.DESK_KEY_REMOVED if removed else msg.DESK_PROFILE_SAVED)
                return see_other(reverse("desk:profile"))
    else:
        form = ProfileForm(
            initial={
                "department": reporter.department,
                "keywords": ", ".join(reporter.keywords),
                "model": reporter.llm_model,
                "publisher_style": reporter.publisher_style,
            }
        )
    context = {
        "form": form,
        "reporter": reporter,
        "departments": DEPARTMENTS,
        "choices": reporter_choices(reporter=reporter),
    }
    return page(request, "desk/profile.html", context)


# --- the "test key" button --------------------------------------------------------------------
@reporter_required
@require_POST
def key_test_view(request: ReporterRequest) -> HttpResponse:
    result = key_test(reporter=request.reporter)
    if request.htmx:
        return render(request, "desk/partials/key_test.html", {"result": result})
    (messages.success if result.ok else messages.error)(request, result.message)
    return see_other(reverse("desk:profile"))

"""/desk/… routes (namespace "desk")."""

from __future__ import annotations

from django.urls import path

from newsdesk.desk import accounts
from newsdesk.desk.views import drafts, exports, verify

app_name = "desk"

urlpatterns = [
    path("", drafts.draft_new, name="new"),
    path("drafts/", drafts.draft_list, name="drafts"),
    path("drafts/<int:run_id>/", drafts.draft_detail, name="draft"),
    path("drafts/<int:run_id>/status/", drafts.draft_status, name="draft_status"),
    path("drafts/<int:run_id>/edits/", drafts.draft_edit, name="draft_edit"),
    path("drafts/<int:run_id>/retry/", drafts.draft_retry, name="draft_retry"),
    path("drafts/<int:run_id>/download.<str:extension>", exports.draft_download, name="draft_download"),
    path("verify/", verify.verify, name="verify"),
    path("profile/", accounts.profile, name="profile"),
    path("profile/key-test/", accounts.key_test_view, name="key_test"),
]

"""/desk/… routes (namespace "desk")."""

from __future__ import annotations

from django.urls import path

from newsdesk.desk import accounts
from newsdesk.desk.views import drafts, exports, monitor, shared, verify

app_name = "desk"

urlpatterns = [
    path("", drafts.draft_new, name="new"),
    path("drafts/", drafts.draft_list, name="drafts"),
    path("drafts/<int:run_id>/", drafts.draft_detail, name="draft"),
    path("drafts/<int:run_id>/status/", drafts.draft_status, name="draft_status"),
    path("drafts/<int:run_id>/edits/", drafts.draft_edit, name="draft_edit"),
    path("drafts/<int:run_id>/facts/add/", drafts.draft_add_fact, name="draft_add_fact"),
    path("drafts/<int:run_id>/retry/", drafts.draft_retry, name="draft_retry"),
    path("drafts/<int:run_id>/verify/", drafts.draft_verify, name="draft_verify"),
    path("drafts/<int:run_id>/download.<str:extension>", exports.draft_download, name="draft_download"),
    path("verify/", verify.verify, name="verify"),
    path("profile/", accounts.profile, name="profile"),
    path("profile/key-test/", accounts.key_test_view, name="key_test"),
    path("monitor/", monitor.monitor_home, name="monitor"),
    path("monitor/check/", monitor.monitor_check, name="monitor_check"),
    path("monitor/report/", monitor.monitor_report, name="monitor_report"),
    path("monitor/runs/<int:run_id>/", monitor.monitor_run, name="monitor_run"),
    path("monitor/runs/<int:run_id>/status/", monitor.monitor_run_status, name="monitor_run_status"),
    path("monitor/schedules/add/", monitor.monitor_schedule_add, name="monitor_schedule_add"),
    path("monitor/schedules/remove/", monitor.monitor_schedule_remove, name="monitor_schedule_remove"),
    # Login-free and read-only: the signed token is the credential (newsdesk.desk.sharing).
    path("shared/<str:token>/", shared.shared_page, name="shared"),
    path("shared/<str:token>/status/", shared.shared_status, name="shared_status"),
]

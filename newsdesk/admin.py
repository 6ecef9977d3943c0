"""Admin for reporters and their API tokens (staff only: editors never get these permissions).

A reporter's Anthropic key is write-only here: the admin shows its last four characters and
status, never the stored token or the key, and a new key goes straight into set_anthropic_key().
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin
from django.core.exceptions import ValidationError
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils import timezone

from agents import selectors as agent_selectors
from newsdesk import lockouts
from newsdesk.models import ApiToken, LoginLockout, Reporter
from styles.admin import LabelledAdmin

admin.site.site_header = "뉴스데스크 관리"
admin.site.site_title = "뉴스데스크 관리"
admin.site.index_title = "관리 메뉴"

CLEARED = "기록 {count}건을 지웠습니다. 해당 로그인은 바로 다시 시도할 수 있습니다."
KEY_BOTH_GIVEN = "새 키를 입력하면서 동시에 삭제할 수는 없습니다."


class ReporterForm(forms.ModelForm):
    new_api_key = forms.CharField(
        label="새 API 키",
        required=False,
        # Never echoed back, not even after a validation error.
        widget=forms.PasswordInput(render_value=False, attrs={"autocomplete": "off"}),
        help_text="입력하면 등록된 키를 바꿉니다. 저장된 키는 다시 볼 수 없습니다.",
    )
    clear_api_key = forms.BooleanField(label="API 키 삭제", required=False)

    class Meta:
        model = Reporter
        fields = ("user", "display_name", "telegram_id", "department", "keywords", "registration_step")

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        if cleaned.get("new_api_key") and cleaned.get("clear_api_key"):
            raise ValidationError(KEY_BOTH_GIVEN)
        return cleaned

    def save(self, commit: bool = True) -> Reporter:
        reporter: Reporter = super().save(commit=False)
        if self.cleaned_data.get("new_api_key"):
            reporter.set_anthropic_key(self.cleaned_data["new_api_key"])
        elif self.cleaned_data.get("clear_api_key"):
            reporter.set_anthropic_key("")
        if commit:
            reporter.save()
            self.save_m2m()
        return reporter


@admin.register(Reporter)
class ReporterAdmin(LabelledAdmin):
    form = ReporterForm
    labels = {
        "user": "사용자",
        "display_name": "표시 이름",
        "telegram_id": "텔레그램 ID",
        "department": "부서",
        "keywords": "키워드",
        "registration_step": "등록 단계",
        "anthropic_key_status": "키 상태",
        "last_check_at": "마지막 /check",
        "last_report_at": "마지막 /report",
        "created_at": "등록 시각",
        "updated_at": "수정 시각",
    }
    list_display = (
        "__str__",
        "user",
        "telegram_id",
        "department",
        "keywords",
        "api_key",
        "last_check_at",
        "last_report_at",
    )
    list_filter = ("department", "anthropic_key_status")
    list_select_related = ("user",)
    # Key fields are deliberately absent: nothing here may match on or reveal a key.
    search_fields = ("user__username", "display_name", "telegram_id__exact")
    readonly_fields = (
        "api_key",
        "writing_model",
        "writing_style",
        "cost_today",
        "last_check_at",
        "last_report_at",
        "created_at",
        "updated_at",
    )
    fieldsets = (
        (
            None,
            {
                "fields": (
                    "user",
                    "display_name",
                    "telegram_id",
                    "department",
                    "keywords",
                    "registration_step",
                )
            },
        ),
        ("Anthropic API 키", {"fields": ("api_key", "new_api_key", "clear_api_key")}),
        # Chosen by the reporter (/set_model, /set_style, the desk profile, the API), shown here.
        ("기사 작성", {"fields": ("writing_model", "writing_style", "cost_today")}),
        ("기록", {"fields": ("last_check_at", "last_report_at", "created_at", "updated_at")}),
    )

    @admin.display(description="모델")
    def writing_model(self, reporter: Reporter) -> str:
        model = agent_selectors.model_of(reporter=reporter)
        return agent_selectors.model_label(model=model) + ("" if model == reporter.llm_model else " (기본)")

    @admin.display(description="언론사 스타일")
    def writing_style(self, reporter: Reporter) -> str:
        return reporter.publisher_style or "(부서 기본)"

    @admin.display(description="오늘 비용(모델별)")
    def cost_today(self, reporter: Reporter) -> str:
        rows = agent_selectors.daily_cost_by_model(reporter=reporter, day=timezone.localdate())
        return (
            " · ".join(
                f"{agent_selectors.model_label(model=row.model)}: ${row.cost_usd:.4f} ({row.llm_calls}회)"
                for row in rows
            )
            or "$0"
        )

    @admin.display(description="API 키")
    def api_key(self, reporter: Reporter) -> str:
        if not reporter.has_anthropic_key:
            return Reporter.KeyStatus.NONE.label
        return f"{reporter.masked_key} ({reporter.get_anthropic_key_status_display()})"


@admin.register(ApiToken)
class ApiTokenAdmin(LabelledAdmin):
    """Tokens are issued by `manage.py issuetoken`; here they can only be looked at and revoked."""

    labels = {"reporter": "기자", "created_at": "발급 시각", "last_used_at": "마지막 사용"}
    list_display = ("token_hint", "reporter", "created_at", "last_used_at")
    list_select_related = ("reporter__user",)
    search_fields = ("reporter__user__username", "reporter__display_name", "hint")
    fields = readonly_fields = ("token_hint", "reporter", "created_at", "last_used_at")

    @admin.display(description="토큰", ordering="hint")
    def token_hint(self, token: ApiToken) -> str:
        return f"{token.hint}…"

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(LoginLockout)
class LoginLockoutAdmin(LabelledAdmin):
    """Failed logins and bad API tokens as counted by newsdesk.lockouts: which are locked, until
    when, and a "clear" that lets the account (or the whole address) in again at once."""

    labels = {"ip_address": "주소", "user_agent": "브라우저", "attempt_time": "마지막 실패"}
    list_display = ("account", "ip_address", "failures", "attempt_time", "status", "user_agent")
    search_fields = ("username", "ip_address")
    fields = readonly_fields = ("account", "ip_address", "failures", "attempt_time", "status", "user_agent")
    actions = ("clear",)

    @admin.display(description="아이디(입력한 그대로)", ordering="username")
    def account(self, record: LoginLockout) -> str:
        return "(API 토큰)" if record.username == lockouts.API_TOKENS else str(record.username)

    @admin.display(description="실패 횟수", ordering="failures_since_start")
    def failures(self, record: LoginLockout) -> int:
        return record.failures_since_start

    @admin.display(description="상태")
    def status(self, record: LoginLockout) -> str:
        now = timezone.now()
        lock = lockouts.count_of(username=record.username, address=str(record.ip_address), now=now).lock
        if lock is None:
            return "-"
        left = lockouts.wait_text(lock.seconds_left(now))
        return f"잠김 · {left} 남음" + (" (이 주소의 모든 아이디)" if lock.whole_address else "")

    @admin.action(description="선택한 잠금 해제", permissions=["delete"])
    def clear(self, request: HttpRequest, queryset: QuerySet[LoginLockout]) -> None:
        cleared = lockouts.lockouts_clear(records=list(queryset))
        self.message_user(request, CLEARED.format(count=cleared))

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

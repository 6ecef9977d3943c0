"""Admin for what the agents produced: articles and their verification issues, runs and LLM usage,
the publisher whitelist and the Naver quota counter.

Runs, LLM calls and usage are records, not documents: nobody edits them here. Editors review
verification issues (through agents.review) and curate the publisher whitelist.
"""

from __future__ import annotations

import re
from collections import defaultdict
from decimal import Decimal
from typing import Any

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import ValidationError
from django.db.models import Count, F, QuerySet, Sum
from django.http import HttpRequest
from django.utils.text import Truncator

from agents.models import (
    Article,
    JobLock,
    LLMCall,
    MonitorItem,
    MonitorResult,
    NaverUsage,
    Publisher,
    ReportCache,
    ReportItem,
    Run,
    RunEvent,
    VerificationIssue,
)
from agents.review import REVIEW_STATES, issues_review
from styles.admin import LabelledAdmin, LabelledTabularInline

# Text the admin shows (messages, errors); labels sit with each admin below.
REVIEWED = "검증 이슈 {count}건을 '{state}'(으)로 처리했습니다."
CANNOT_REOPEN = "검토한 이슈를 다시 '검토 대기'로 되돌릴 수 없습니다. 수용 또는 기각을 선택해 주세요."
BAD_HOSTS = "호스트 이름이 아닙니다: {hosts}. 'news.example.com'처럼 주소 없이 적어 주세요."
NOT_UNDER_DOMAIN = "{domain}의 하위 호스트가 아닙니다: {hosts}"

ISSUE_LABELS = {
    "article": "기사",
    "article__department": "부서",
    "claim": "주장",
    "status": "판정",
    "kind": "유형",
    "source": "근거",
    "origin": "검출",
    "sentence_index": "문장 번호",
    "action": "조치",
    "review_state": "검토",
    "reviewed_by": "검토자",
    "reviewed_at": "검토 시각",
}
ISSUE_FIELDS = (
    "article",
    "claim",
    "status",
    "kind",
    "source",
    "origin",
    "sentence_index",
    "action",
    "review_state",
    "reviewed_by",
    "reviewed_at",
)


# --- Verification issues and articles -----------------------------------------------------------


class ReviewForm(forms.ModelForm):
    """The one editable field of an issue. Its save goes through agents.review, not Model.save()."""

    class Meta:
        model = VerificationIssue
        fields = ("review_state",)

    def clean_review_state(self) -> str:
        state: str = self.cleaned_data["review_state"]
        if "review_state" in self.changed_data and state not in REVIEW_STATES:
            raise ValidationError(CANNOT_REOPEN)
        return state


def _review_changed(review_forms: list[Any], request: HttpRequest) -> None:
    """Records the review of every form whose review_state changed: reviewer and time included."""
    ids_by_state: dict[str, list[int]] = defaultdict(list)
    for form in review_forms:
        if "review_state" in form.changed_data:
            ids_by_state[form.instance.review_state].append(form.instance.pk)
    for state, ids in ids_by_state.items():
        issues_review(issue_ids=ids, state=state, user=request.user)  # type: ignore[arg-type]


class VerificationIssueInline(LabelledTabularInline):
    model = VerificationIssue
    form = ReviewForm
    labels = ISSUE_LABELS
    fields = (
        "claim",
        "status",
        "kind",
        "origin",
        "action",
        "source",
        "review_state",
        "reviewed_by",
        "reviewed_at",
    )
    readonly_fields = tuple(name for name in fields if name != "review_state")
    extra = 0
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False  # issues come from verification only

    def get_queryset(self, request: HttpRequest) -> QuerySet[VerificationIssue]:
        return super().get_queryset(request).select_related("reviewed_by")


@admin.register(Article)
class ArticleAdmin(LabelledAdmin):
    labels = {
        "run": "실행",
        "reporter": "기자",
        "parent": "원본 기사",
        "revision": "판",
        "department": "부서",
        "headline": "제목",
        "draft_body": "초안 본문",
        "body": "최종 본문",
        "verdict": "검증 결과",
        "sources": "참고 기사",
        "length": "분량(자)",
        "target_length": "목표 분량",
        "instruction": "수정 지시",
        "changes_made": "수정 내용",
        "warnings": "경고",
        "created_at": "작성 시각",
    }
    list_display = ("headline", "reporter", "department", "verdict", "length", "created_at")
    list_filter = ("verdict", "department")
    list_select_related = ("reporter__user",)
    search_fields = ("headline",)
    date_hierarchy = "created_at"
    fields = readonly_fields = tuple(labels)
    inlines = (VerificationIssueInline,)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # articles are made by drafting runs

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        # Every article field is read-only, so "change" here only means saving the review states
        # of its issues: whoever may view articles and review issues may do that on this page.
        if super().has_change_permission(request, obj):
            return True
        return self.has_view_permission(request, obj) and request.user.has_perm(
            "agents.change_verificationissue"
        )

    def save_model(self, request: HttpRequest, obj: Article, form: Any, change: bool) -> None:
        pass  # nothing on the article itself is editable; only the inline issues are saved

    def save_formset(self, request: HttpRequest, form: Any, formset: Any, change: bool) -> None:
        if formset.model is VerificationIssue:
            formset.save(commit=False)  # fills changed_objects for the history message, writes nothing
            _review_changed(formset.forms, request)
            return
        super().save_formset(request, form, formset, change)


@admin.register(VerificationIssue)
class VerificationIssueAdmin(LabelledAdmin):
    form = ReviewForm
    labels = ISSUE_LABELS
    list_display = (
        "short_claim",
        "status",
        "kind",
        "origin",
        "action",
        "review_state",
        "article",
        "article__department",
        "reviewed_by",
    )
    list_filter = ("status", "kind", "origin", "article__department", "review_state")
    list_select_related = ("article", "reviewed_by")
    search_fields = ("claim", "article__headline")
    fields = ISSUE_FIELDS
    readonly_fields = tuple(name for name in ISSUE_FIELDS if name != "review_state")
    actions = ("accept", "dismiss")

    @admin.display(description="주장", ordering="claim")
    def short_claim(self, issue: VerificationIssue) -> str:
        return Truncator(issue.claim).chars(60)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # issues come from verification only

    def save_model(self, request: HttpRequest, obj: VerificationIssue, form: Any, change: bool) -> None:
        _review_changed([form], request)

    @admin.action(description="선택한 검증 이슈 수용", permissions=["change"])
    def accept(self, request: HttpRequest, queryset: QuerySet[VerificationIssue]) -> None:
        self._review(request, queryset, VerificationIssue.ReviewState.ACCEPTED)

    @admin.action(description="선택한 검증 이슈 기각", permissions=["change"])
    def dismiss(self, request: HttpRequest, queryset: QuerySet[VerificationIssue]) -> None:
        self._review(request, queryset, VerificationIssue.ReviewState.DISMISSED)

    def _review(
        self,
        request: HttpRequest,
        queryset: QuerySet[VerificationIssue],
        state: VerificationIssue.ReviewState,
    ) -> None:
        count = issues_review(
            issue_ids=list(queryset.values_list("pk", flat=True)),
            state=state,
            user=request.user,  # type: ignore[arg-type]
        )
        self.message_user(request, REVIEWED.format(count=count, state=state.label), messages.SUCCESS)


# --- Runs and LLM usage -------------------------------------------------------------------------

LLM_CALL_LABELS = {
    "run": "실행",
    "reporter": "기자",
    "purpose": "용도",
    "model": "모델",
    "request_chars": "요청 글자 수",
    "input_tokens": "입력 토큰",
    "output_tokens": "출력 토큰",
    "cache_read_input_tokens": "캐시 읽기 토큰",
    "cache_creation_input_tokens": "캐시 생성 토큰",
    "cost_usd": "비용(USD)",
    "latency_ms": "지연(ms)",
    "status": "상태",
    "error": "오류",
    "created_at": "호출 시각",
}


class ReadOnlyInline(LabelledTabularInline):
    extra = 0
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class RunEventInline(ReadOnlyInline):
    model = RunEvent
    labels = {"seq": "순번", "kind": "종류", "message": "내용", "created_at": "시각"}
    fields = readonly_fields = ("seq", "kind", "message", "created_at")


class LLMCallInline(ReadOnlyInline):
    model = LLMCall
    labels = LLM_CALL_LABELS
    fields = readonly_fields = (
        "purpose",
        "model",
        "input_tokens",
        "output_tokens",
        "cache_read_input_tokens",
        "cache_creation_input_tokens",
        "cost_usd",
        "latency_ms",
        "status",
        "error",
        "created_at",
    )


class RecordAdmin(LabelledAdmin):
    """Read-only for everyone; superusers may delete (deleting a run or reporter cascades here)."""

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return request.user.is_superuser


@admin.register(Run)
class RunAdmin(RecordAdmin):
    labels = {
        "reporter": "기자",
        "kind": "종류",
        "status": "상태",
        "stage": "단계",
        "channel": "채널",
        "input": "입력",
        "parent_article": "원본 기사",
        "retry_of": "재시도 원본",
        "error": "오류",
        "error_code": "오류 코드",
        "attempts": "시도 횟수",
        "timings": "단계별 시간",
        "created_at": "생성 시각",
        "started_at": "시작 시각",
        "finished_at": "종료 시각",
    }
    list_display = (
        "id",
        "kind",
        "status",
        "stage",
        "reporter",
        "channel",
        "created_at",
        "duration",
        "llm_call_count",
        "total_tokens",
        "total_cost",
    )
    list_filter = ("kind", "status", "channel")
    list_select_related = ("reporter__user",)
    date_hierarchy = "created_at"
    fields = readonly_fields = (
        "reporter",
        "kind",
        "status",
        "stage",
        "channel",
        "error",
        "error_code",
        "attempts",
        "created_at",
        "started_at",
        "finished_at",
        "timings",
        "parent_article",
        "retry_of",
        "input",
    )
    inlines = (RunEventInline, LLMCallInline)

    def get_queryset(self, request: HttpRequest) -> QuerySet[Run]:
        # The usage columns come from one aggregate join, so the list stays one query per page.
        # Only one multi-valued relation is joined, so Count and Sum are not inflated.
        return (
            super()
            .get_queryset(request)
            .annotate(
                llm_call_count=Count("llm_calls"),
                total_tokens=Sum(
                    F("llm_calls__input_tokens")
                    + F("llm_calls__output_tokens")
                    + F("llm_calls__cache_read_input_tokens")
                    + F("llm_calls__cache_creation_input_tokens")
                ),
                total_cost=Sum("llm_calls__cost_usd"),
            )
        )

    @admin.display(description="소요 시간")
    def duration(self, run: Run) -> str:
        if not (run.started_at and run.finished_at):
            return "-"
        return f"{(run.finished_at - run.started_at).total_seconds():.1f}초"

    @admin.display(description="LLM 호출", ordering="llm_call_count")
    def llm_call_count(self, run: Any) -> int:
        return int(run.llm_call_count)

    @admin.display(description="토큰 합계", ordering="total_tokens")
    def total_tokens(self, run: Any) -> int:
        return int(run.total_tokens or 0)

    @admin.display(description="비용(USD)", ordering="total_cost")
    def total_cost(self, run: Any) -> str:
        return f"{run.total_cost or Decimal(0):.4f}"


@admin.register(LLMCall)
class LLMCallAdmin(RecordAdmin):
    labels = LLM_CALL_LABELS
    list_display = (
        "created_at",
        "purpose",
        "model",
        "run",
        "reporter",
        "input_tokens",
        "output_tokens",
        "cache_read_input_tokens",
        "cache_creation_input_tokens",
        "cost_usd",
        "latency_ms",
        "status",
    )
    list_filter = ("purpose", "model", "status")
    list_select_related = ("run", "reporter__user")
    date_hierarchy = "created_at"
    fields = readonly_fields = tuple(LLM_CALL_LABELS)


@admin.register(NaverUsage)
class NaverUsageAdmin(RecordAdmin):
    labels = {"day": "날짜", "calls": "호출 수", "exhausted": "한도 소진"}
    list_display = ("day", "calls", "exhausted")
    ordering = ("-day",)
    fields = readonly_fields = ("day", "calls", "exhausted")

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False  # the counter guards the daily quota; nothing cascades into it


# --- Publisher whitelist ------------------------------------------------------------------------

HOST_NAME = re.compile(r"(?=.{1,253}$)(?!-)[a-z0-9-]{1,63}(?<!-)(\.(?!-)[a-z0-9-]{1,63}(?<!-))+")


def _normalize_host(raw: str) -> str:
    return raw.strip().lower().rstrip(".")


class HostListField(forms.Field):
    """A list of host names typed one per line or separated by commas."""

    widget = forms.Textarea(attrs={"rows": 3})

    def prepare_value(self, value: Any) -> Any:
        return "\n".join(value) if isinstance(value, list) else value

    def to_python(self, value: Any) -> list[str]:
        if isinstance(value, list):
            return value
        hosts = [_normalize_host(item) for item in re.split(r"[,\s]+", value or "") if item.strip()]
        bad = [host for host in hosts if not HOST_NAME.fullmatch(host)]
        if bad:
            raise ValidationError(BAD_HOSTS.format(hosts=", ".join(bad)))
        return list(dict.fromkeys(hosts))  # drop repeats, keep the order


class PublisherForm(forms.ModelForm):
    exclude_subdomains = HostListField(
        label="제외 호스트",
        required=False,
        help_text="한 줄에 하나씩(또는 쉼표로 구분). 이 호스트는 매칭하지 않습니다.",
    )

    class Meta:
        model = Publisher
        fields = ("name", "domain", "category", "exclude_subdomains", "active", "position")

    def clean_domain(self) -> str:
        domain = _normalize_host(self.cleaned_data["domain"])
        if not HOST_NAME.fullmatch(domain):
            raise ValidationError(BAD_HOSTS.format(hosts=domain))
        return domain

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        domain, hosts = cleaned.get("domain"), cleaned.get("exclude_subdomains") or []
        if domain:
            # An excluded host outside the domain could never match anyway: most likely a typo.
            stray = [host for host in hosts if not host.endswith("." + domain)]
            if stray:
                self.add_error(
                    "exclude_subdomains", NOT_UNDER_DOMAIN.format(domain=domain, hosts=", ".join(stray))
                )
        return cleaned


@admin.register(Publisher)
class PublisherAdmin(LabelledAdmin):
    form = PublisherForm
    labels = {
        "name": "언론사",
        "domain": "도메인",
        "category": "분류",
        "exclude_subdomains": "제외 호스트",
        "active": "사용",
        "position": "순서",
    }
    list_display = ("position", "name", "domain", "category", "exclude_subdomains", "active")
    list_display_links = ("name",)
    list_editable = ("active", "position")
    list_filter = ("active", "category")
    search_fields = ("name", "domain")
    ordering = ("position", "id")


# --- Monitoring (/check, /report): read-only records --------------------------------------------

MONITOR_ITEM_LABELS = {
    "run": "실행",
    "reporter": "기자",
    "kind": "종류",
    "position": "순서",
    "category": "분류",
    "action": "변경",
    "topic_cluster": "사안",
    "title": "제목",
    "publisher": "언론사",
    "url": "링크",
    "originallink": "원문 링크",
    "pub_time": "기사 시각",
    "summary": "요약",
    "reason": "이유",
    "source_count": "기사 수",
    "source_urls": "묶인 기사",
    "body_scraped": "본문 수집",
    "report_item": "브리핑 항목",
    "created_at": "기록 시각",
}


@admin.register(MonitorItem)
class MonitorItemAdmin(RecordAdmin):
    labels = MONITOR_ITEM_LABELS
    list_display = ("title", "kind", "category", "action", "publisher", "pub_time", "reporter", "created_at")
    list_filter = ("kind", "category", "action", "body_scraped")
    list_select_related = ("reporter__user",)
    search_fields = ("title", "topic_cluster", "summary")
    date_hierarchy = "created_at"
    fields = readonly_fields = tuple(MONITOR_ITEM_LABELS)


@admin.register(MonitorResult)
class MonitorResultAdmin(RecordAdmin):
    labels = {
        "run": "실행",
        "department": "부서",
        "window_start": "검색 시작",
        "window_end": "검색 끝",
        "day": "브리핑 날짜",
        "scenario": "시나리오",
        "searched": "검색 결과",
        "candidates": "후보",
        "filtered_out": "사전 제외",
        "analysed": "분석",
        "not_scraped": "본문 미수집",
        "created_at": "기록 시각",
    }
    list_display = ("run", "department", "window_start", "window_end", "searched", "analysed", "created_at")
    list_filter = ("scenario", "department")
    date_hierarchy = "created_at"
    fields = readonly_fields = (
        "run",
        "department",
        "window_start",
        "window_end",
        "day",
        "scenario",
        "searched",
        "candidates",
        "filtered_out",
        "analysed",
        "not_scraped",
        "created_at",
    )


class ReportItemInline(LabelledTabularInline):
    model = ReportItem
    labels = {
        "position": "순서",
        "title": "제목",
        "publisher": "언론사",
        "pub_time": "기사 시각",
        "summary": "요약",
        "exclusive": "단독",
        "updated_at": "수정 시각",
    }
    fields = readonly_fields = (
        "position",
        "title",
        "publisher",
        "pub_time",
        "summary",
        "exclusive",
        "updated_at",
    )
    extra = 0
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(ReportCache)
class ReportCacheAdmin(RecordAdmin):
    labels = {"reporter": "기자", "day": "날짜", "created_at": "생성 시각", "updated_at": "수정 시각"}
    list_display = ("day", "reporter", "updated_at")
    list_select_related = ("reporter__user",)
    date_hierarchy = "day"
    fields = readonly_fields = ("reporter", "day", "created_at", "updated_at")
    inlines = (ReportItemInline,)


@admin.register(JobLock)
class JobLockAdmin(RecordAdmin):
    labels = {
        "reporter": "기자",
        "run": "실행",
        "kind": "종류",
        "token": "보유 토큰",
        "acquired_at": "획득 시각",
        "expires_at": "만료 시각",
    }
    list_display = ("reporter", "kind", "run", "acquired_at", "expires_at")
    fields = readonly_fields = ("reporter", "run", "kind", "token", "acquired_at", "expires_at")

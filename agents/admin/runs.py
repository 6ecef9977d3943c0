"""Runs, their events and LLM calls, and the Naver quota counter: records, not documents."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django.contrib import admin
from django.core.exceptions import PermissionDenied
from django.db.models import Count, F, QuerySet, Sum
from django.http import HttpRequest, HttpResponse
from django.template.response import TemplateResponse
from django.urls import URLPattern, path

from agents.admin.common import RecordAdmin
from agents.models import LLMCall, NaverUsage, Run, RunEvent
from agents.selectors import daily_usage
from styles.admin import LabelledTabularInline

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
    change_list_template = "admin/agents/llmcall/change_list.html"

    def get_urls(self) -> list[URLPattern]:
        daily = path("daily/", self.admin_site.admin_view(self.daily_view), name="agents_llmcall_daily")
        return [daily, *super().get_urls()]

    def daily_view(self, request: HttpRequest) -> HttpResponse:
        """Per reporter and day (KST): what each reporter's key paid, for the last 31 days."""
        if not self.has_view_permission(request):
            raise PermissionDenied
        context = {
            **self.admin_site.each_context(request),
            "title": "기자별 일일 LLM 사용량",
            "rows": daily_usage(days=31),
            "opts": self.model._meta,
        }
        return TemplateResponse(request, "admin/agents/llmcall/daily.html", context)


@admin.register(NaverUsage)
class NaverUsageAdmin(RecordAdmin):
    labels = {"day": "날짜", "calls": "호출 수", "exhausted": "한도 소진"}
    list_display = ("day", "calls", "exhausted")
    ordering = ("-day",)
    fields = readonly_fields = ("day", "calls", "exhausted")

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False  # the counter guards the daily quota; nothing cascades into it

"""Monitoring (/check, /report): read-only records."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from agents.admin.common import RecordAdmin
from agents.models import JobLock, MonitorItem, MonitorResult, ReportCache, ReportItem
from styles.admin import LabelledTabularInline

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

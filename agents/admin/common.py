"""The base of the read-only record admins (runs, LLM calls, the Naver counter, monitoring)."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest

from styles.admin import LabelledAdmin


class RecordAdmin(LabelledAdmin):
    """Read-only for everyone; superusers may delete (deleting a run or reporter cascades here)."""

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return request.user.is_superuser

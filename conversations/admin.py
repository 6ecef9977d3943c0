"""Reporters' conversations, for superusers only and read-only.

Privacy: what a reporter tells the bot is not for editors or other staff, whatever permissions
they are granted, so visibility is tied to is_superuser rather than to the model permissions.
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils.text import Truncator

from conversations.models import Message

LABELS = {
    "reporter": "기자",
    "role": "보낸 쪽",
    "message_type": "유형",
    "content": "내용",
    "attachment_meta": "첨부 파일",
    "telegram_chat_id": "텔레그램 채팅 ID",
    "telegram_message_id": "텔레그램 메시지 ID",
    "meta": "부가 정보",
    "created_at": "시각",
}


class _TitledChoicesFilter(admin.ChoicesFieldListFilter):
    korean_title = ""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.title = self.korean_title  # the model fields carry no Korean verbose_name


class RoleFilter(_TitledChoicesFilter):
    korean_title = LABELS["role"]


class TypeFilter(_TitledChoicesFilter):
    korean_title = LABELS["message_type"]


@admin.register(Message)
class MessageAdmin(admin.ModelAdmin):
    list_display = ("sent_at", "reporter_name", "role_name", "type_name", "short_content")
    list_filter = (("role", RoleFilter), ("message_type", TypeFilter))
    date_hierarchy = "created_at"
    fields = readonly_fields = tuple(LABELS)

    def get_queryset(self, request: HttpRequest) -> QuerySet[Message]:
        return super().get_queryset(request).select_related("reporter__user")

    def get_form(self, request: HttpRequest, obj: Any = None, change: bool = False, **kwargs: Any) -> Any:
        kwargs.setdefault("labels", LABELS)
        return super().get_form(request, obj, change, **kwargs)

    @admin.display(description="시각", ordering="created_at")
    def sent_at(self, message: Message) -> Any:
        return message.created_at

    @admin.display(description="기자", ordering="reporter")
    def reporter_name(self, message: Message) -> str:
        return str(message.reporter)

    @admin.display(description="보낸 쪽", ordering="role")
    def role_name(self, message: Message) -> str:
        return message.get_role_display()

    @admin.display(description="유형", ordering="message_type")
    def type_name(self, message: Message) -> str:
        return message.get_message_type_display()

    @admin.display(description="내용")
    def short_content(self, message: Message) -> str:
        return Truncator(message.content).chars(80)

    def has_module_permission(self, request: HttpRequest) -> bool:
        return request.user.is_superuser

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return request.user.is_superuser

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        # Deleting a reporter cascades into their messages; the admin must allow that to proceed.
        return request.user.is_superuser

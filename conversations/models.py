from __future__ import annotations

from django.db import models


class Message(models.Model):
    """One message in a reporter's Telegram conversation, either direction.

    Visible for three days (see conversations.selectors), then purged.
    """

    class Role(models.TextChoices):
        USER = "user", "기자"
        ASSISTANT = "assistant", "봇"

    class Type(models.TextChoices):
        TEXT = "text", "텍스트"
        COMMAND = "command", "명령"
        DOCUMENT = "document", "문서"
        PHOTO = "photo", "사진"

    reporter = models.ForeignKey("newsdesk.Reporter", on_delete=models.CASCADE, related_name="messages")
    role = models.CharField(max_length=10, choices=Role.choices)
    content = models.TextField(blank=True)
    attachment_meta = models.JSONField(null=True, blank=True)  # {file_id, file_name, mime_type, file_size}
    message_type = models.CharField(max_length=10, choices=Type.choices, default=Type.TEXT)
    telegram_chat_id = models.BigIntegerField(null=True, blank=True)
    telegram_message_id = models.BigIntegerField(null=True, blank=True)
    # Links kept by id, not by foreign key: this app sits below agents and never imports it.
    meta = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = "대화 메시지"
        verbose_name_plural = "대화 메시지"
        ordering = ["created_at", "id"]
        indexes = [models.Index(fields=["reporter", "created_at"])]

    def __str__(self) -> str:
        return f"{self.role}: {self.content[:40]}"

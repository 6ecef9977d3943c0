from __future__ import annotations

import hashlib
import secrets
from typing import ClassVar

from axes.models import AccessAttempt
from django.conf import settings
from django.db import models
from django.utils import timezone

from newsdesk import crypto
from styles.departments import Department


class Reporter(models.Model):
    """A reporter: a web user, a Telegram user, or both."""

    class KeyStatus(models.TextChoices):
        NONE = "none", "미등록"
        OK = "ok", "정상"
        REFUSED = "refused", "거부됨"

    class RegistrationStep(models.TextChoices):
        """Where a Telegram conversation waits for the reporter's next answer."""

        DONE = "", "완료"
        DEPARTMENT = "department", "부서 입력"
        KEYWORDS = "keywords", "키워드 입력"
        API_KEY = "api_key", "API 키 입력"
        AWAIT_KEYWORDS = "await_keywords", "키워드 변경 대기"
        AWAIT_APIKEY = "await_apikey", "API 키 변경 대기"
        AWAIT_DIVISION = "await_division", "부서 변경 대기"
        AWAIT_SCHEDULE = "await_schedule", "예약 변경 대기"

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE, related_name="reporter"
    )
    telegram_id = models.BigIntegerField(unique=True, null=True, blank=True)
    display_name = models.CharField(max_length=100, blank=True)
    department = models.CharField(max_length=10, choices=Department.choices, default=Department.SOCIETY)
    keywords = models.JSONField(default=list, blank=True)
    anthropic_key_encrypted = models.TextField(blank=True, editable=False)
    anthropic_key_last4 = models.CharField(max_length=4, blank=True, editable=False)
    anthropic_key_status = models.CharField(max_length=10, choices=KeyStatus.choices, default=KeyStatus.NONE)
    last_check_at = models.DateTimeField(null=True, blank=True)
    last_report_at = models.DateTimeField(null=True, blank=True)
    # "" = the default: the department's (or server's) model, the department's house style.
    llm_model = models.CharField("모델", max_length=80, blank=True)
    publisher_style = models.CharField("언론사 스타일", max_length=50, blank=True)
    registration_step = models.CharField(
        max_length=16, choices=RegistrationStep.choices, default=RegistrationStep.DONE, blank=True
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = "기자"
        verbose_name_plural = "기자"

    def __str__(self) -> str:
        if self.user_id and self.user:
            return self.display_name or self.user.get_username()
        return self.display_name or f"telegram:{self.telegram_id}"

    # The key is only ever handled through these methods; the plain value is never stored.
    def set_anthropic_key(self, plain: str) -> None:
        plain = plain.strip()
        if not plain:
            self.anthropic_key_encrypted = ""
            self.anthropic_key_last4 = ""
            self.anthropic_key_status = self.KeyStatus.NONE
            return
        self.anthropic_key_encrypted = crypto.encrypt(plain)
        self.anthropic_key_last4 = plain[-4:]
        self.anthropic_key_status = self.KeyStatus.OK

    def anthropic_key(self) -> str:
        """The decrypted key, or "" when none is stored or it can no longer be read."""
        if not self.anthropic_key_encrypted:
            return ""
        try:
            return crypto.decrypt(self.anthropic_key_encrypted)
        except crypto.KeyUnreadable:
            return ""

    @property
    def has_anthropic_key(self) -> bool:
        return bool(self.anthropic_key_encrypted)

    @property
    def masked_key(self) -> str:
        return f"…{self.anthropic_key_last4}" if self.anthropic_key_last4 else ""


class ApiToken(models.Model):
    """A bearer token for the JSON API. Only its SHA-256 is stored."""

    PREFIX: ClassVar[str] = "nd_"

    reporter = models.ForeignKey(Reporter, on_delete=models.CASCADE, related_name="api_tokens")
    token_hash = models.CharField(max_length=64, unique=True, editable=False)
    hint = models.CharField(max_length=12, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)
    last_used_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = "API 토큰"
        verbose_name_plural = "API 토큰"

    def __str__(self) -> str:
        return f"{self.hint}… ({self.reporter})"

    @classmethod
    def hash(cls, token: str) -> str:
        return hashlib.sha256(token.encode()).hexdigest()

    @classmethod
    def generate(cls) -> str:
        return cls.PREFIX + secrets.token_urlsafe(32)


class TelegramUpdate(models.Model):
    """One update from the Telegram webhook, stored once: the unique update_id absorbs redeliveries."""

    update_id = models.BigIntegerField(unique=True)
    payload = models.JSONField()
    received_at = models.DateTimeField(auto_now_add=True)
    processed_at = models.DateTimeField(null=True, blank=True)
    attempts = models.PositiveSmallIntegerField(default=0)
    task_id = models.CharField(max_length=64, blank=True)
    owner = models.CharField(max_length=120, blank=True)  # see agents.work.ownership
    heartbeat_at = models.DateTimeField(null=True, blank=True)
    error = models.CharField(max_length=300, blank=True)
    # The replies its handling sent, in order, so a re-run never sends one twice (telegram.once).
    replies = models.JSONField(default=list, blank=True)

    class Meta:
        verbose_name = "텔레그램 업데이트"
        verbose_name_plural = "텔레그램 업데이트"
        indexes = [models.Index(fields=["processed_at", "received_at"])]

    def __str__(self) -> str:
        return f"update {self.update_id}"


class TelegramDelivery(models.Model):
    """The Telegram side of a run started from a chat: its progress message and whether the result
    went out (so a redelivered task never sends it twice)."""

    run = models.OneToOneField("agents.Run", on_delete=models.CASCADE, related_name="telegram_delivery")
    chat_id = models.BigIntegerField()
    status_message_id = models.BigIntegerField(null=True, blank=True)
    last_status = models.CharField(max_length=200, blank=True)
    # Messages of the result already sent: a retried delivery resumes after them, never repeats them.
    sent_parts = models.PositiveSmallIntegerField(default=0)
    delivered_at = models.DateTimeField(null=True, blank=True)
    error = models.CharField(max_length=300, blank=True)
    owner = models.CharField(max_length=120, blank=True)  # the delivery sending it (agents.work.ownership)
    heartbeat_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = "텔레그램 전달"
        verbose_name_plural = "텔레그램 전달"

    def __str__(self) -> str:
        return f"run {self.run_id} → {self.chat_id}"


class PendingText(models.Model):
    """One text message of a chat waiting to be joined with its neighbours into one input.

    The Telegram client splits a paste over 4096 characters into several messages sent within about
    a second; they are collected here and routed together once the chat has been quiet for a moment
    (newsdesk.telegram.paste). `batch` is set by the one worker that takes them; `run` is the job
    the batch started, so a late part can still join it while it is queued.
    """

    reporter = models.ForeignKey(Reporter, on_delete=models.CASCADE, related_name="pending_texts")
    chat_id = models.BigIntegerField()
    message = models.ForeignKey("conversations.Message", on_delete=models.SET_NULL, null=True, blank=True)
    telegram_message_id = models.BigIntegerField(default=0)
    text = models.TextField()
    received_at = models.DateTimeField(default=timezone.now)
    batch = models.CharField(max_length=32, blank=True, db_index=True)
    claimed_at = models.DateTimeField(null=True, blank=True)
    routed_at = models.DateTimeField(null=True, blank=True)
    run = models.ForeignKey("agents.Run", on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    # The batch's replies so far (newsdesk.telegram.once entries) and how often it was routed: a batch
    # whose worker died is routed again without repeating a reply or a job (paste.recover).
    replies = models.JSONField(default=list, blank=True)
    attempts = models.PositiveSmallIntegerField(default=0)

    class Meta:
        verbose_name = "이어 붙일 메시지"
        verbose_name_plural = "이어 붙일 메시지"
        indexes = [models.Index(fields=["reporter", "batch", "received_at"])]

    def __str__(self) -> str:
        return f"chat {self.chat_id} message {self.telegram_message_id}"


class LoginLockout(AccessAttempt):
    """The login failure records (newsdesk.lockouts), in the admin under this app's name: one row
    per account name as typed, address and browser; the admin shows which are locked and clears them."""

    class Meta:
        proxy = True
        verbose_name = "로그인 잠금"
        verbose_name_plural = "로그인 잠금"


class WorkerBeat(models.Model):
    """A Celery worker's latest sign of life for one queue it consumes (newsdesk.workers)."""

    node = models.CharField(max_length=200)
    queue = models.CharField(max_length=50)
    pid = models.PositiveIntegerField()
    beat_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints: ClassVar = [
            models.UniqueConstraint(fields=["node", "queue"], name="one_beat_per_node_queue"),
        ]

    def __str__(self) -> str:
        return f"{self.node} ({self.queue})"

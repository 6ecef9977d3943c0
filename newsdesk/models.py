from __future__ import annotations

import hashlib
import secrets
from typing import ClassVar

from django.conf import settings
from django.db import models

from newsdesk import crypto
from styles.departments import Department


class Reporter(models.Model):
    """A reporter: a web user, a Telegram user, or both."""

    class KeyStatus(models.TextChoices):
        NONE = "none", "미등록"
        OK = "ok", "정상"
        REFUSED = "refused", "거부됨"

    class RegistrationStep(models.TextChoices):
        DONE = "", "완료"
        DEPARTMENT = "department", "부서 입력"
        KEYWORDS = "keywords", "키워드 입력"
        API_KEY = "api_key", "API 키 입력"

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
    registration_step = models.CharField(
        max_length=12, choices=RegistrationStep.choices, default=RegistrationStep.DONE, blank=True
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

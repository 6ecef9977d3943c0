from __future__ import annotations

from django.db import models


class NaverUsage(models.Model):
    """Naver Search API calls per KST day, shared by every process (the quota is 25,000/day)."""

    day = models.DateField(unique=True)
    calls = models.PositiveIntegerField(default=0)
    exhausted = models.BooleanField(default=False, help_text="Naver answered 429: stop until tomorrow")

    class Meta:
        verbose_name = "네이버 API 사용량"
        verbose_name_plural = "네이버 API 사용량"

    def __str__(self) -> str:
        return f"{self.day}: {self.calls}"

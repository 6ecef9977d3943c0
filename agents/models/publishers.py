from __future__ import annotations

from django.db import models


class Publisher(models.Model):
    """A whitelisted outlet for /check, /report and news search (v1's 27, editable in the admin)."""

    name = models.CharField(max_length=50, unique=True)
    domain = models.CharField(max_length=100, help_text="example.com: matches the host and its subdomains")
    category = models.CharField(max_length=20, blank=True)
    exclude_subdomains = models.JSONField(default=list, blank=True, help_text="full host names never matched")
    active = models.BooleanField(default=True)
    position = models.PositiveSmallIntegerField(default=0, help_text="first match wins, lowest first")

    class Meta:
        verbose_name = "언론사"
        verbose_name_plural = "언론사 화이트리스트"
        ordering = ["position", "id"]

    def __str__(self) -> str:
        return self.name

"""Monitoring results (/check and /report) and the per-reporter job lock.

v1's tables, with their meaning kept:
- v1 `reported_articles` (the /check history, skipped items included) is `MonitorItem` with
  kind=check: one row per item a check run delivered, read back for 72 h as the model's history.
- v1 `report_cache` + `report_items` (today's briefing per KST day, scenario A/B) are
  `ReportCache` + `ReportItem`: the *current* state of the day's briefing, updated in place when
  a later run modifies an item.
A report run's own delivery (added / modified / unchanged, as it stood then) is kept as
`MonitorItem` rows with kind=report, so `GET /api/runs/{id}` shows what that run said even after
a later run changed the cache. `MonitorResult` holds the per-run figures the header needs
(window, counts, scenario).

Everything here is history: older than `MONITOR_RETENTION` it is hidden by every read and
deleted by the hourly purge (agents.retention).
"""

from __future__ import annotations

from datetime import timedelta

from django.db import models

MONITOR_RETENTION = timedelta(days=5)


class MonitorResult(models.Model):
    """What one check/report run looked at and found, for headers and the web page."""

    class Scenario(models.TextChoices):
        NONE = "", "-"
        FIRST = "A", "첫 브리핑"
        UPDATE = "B", "업데이트"

    run = models.OneToOneField("agents.Run", on_delete=models.CASCADE, related_name="monitor")
    window_start = models.DateTimeField()
    window_end = models.DateTimeField()
    day = models.DateField(null=True, blank=True, help_text="KST day of a report run")
    scenario = models.CharField(max_length=1, choices=Scenario.choices, default=Scenario.NONE, blank=True)
    searched = models.PositiveIntegerField(default=0, help_text="unique Naver results in the window")
    candidates = models.PositiveIntegerField(default=0, help_text="after whitelist, title and seen filters")
    filtered_out = models.PositiveIntegerField(default=0, help_text="dropped by the filter_news pre-filter")
    analysed = models.PositiveIntegerField(default=0)
    not_scraped = models.PositiveIntegerField(default=0, help_text="analysed from the search description")
    department = models.CharField(max_length=10, blank=True)
    # URLs of every article the model analysed in this run: a later run never analyses them again.
    seen_urls = models.JSONField(default=list, blank=True)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        verbose_name = "모니터링 결과"
        verbose_name_plural = "모니터링 결과"

    def __str__(self) -> str:
        return f"run #{self.run_id}"


class MonitorItem(models.Model):
    """One item a check or report run delivered (check items are also the 72 h /check history)."""

    class Kind(models.TextChoices):
        CHECK = "check", "타사 체크"
        REPORT = "report", "부서 브리핑"

    class Category(models.TextChoices):
        EXCLUSIVE = "exclusive", "단독"
        IMPORTANT = "important", "주요"
        SKIP = "skip", "스킵"

    class Action(models.TextChoices):
        NONE = "", "-"
        ADDED = "added", "신규"
        MODIFIED = "modified", "수정"
        UNCHANGED = "unchanged", "기보고"

    run = models.ForeignKey("agents.Run", on_delete=models.CASCADE, related_name="monitor_items")
    reporter = models.ForeignKey("newsdesk.Reporter", on_delete=models.CASCADE, related_name="+")
    kind = models.CharField(max_length=6, choices=Kind.choices)
    position = models.PositiveSmallIntegerField(default=0)
    category = models.CharField(max_length=10, choices=Category.choices)
    action = models.CharField(max_length=10, choices=Action.choices, default=Action.NONE, blank=True)
    topic_cluster = models.CharField(max_length=200, blank=True)
    title = models.CharField(max_length=500)
    publisher = models.CharField(max_length=50, blank=True)
    url = models.URLField(max_length=1000, blank=True, help_text="Naver News link when Naver hosts it")
    originallink = models.URLField(max_length=1000, blank=True)
    pub_time = models.DateTimeField(null=True, blank=True)
    summary = models.TextField(blank=True)
    reason = models.TextField(blank=True)
    source_count = models.PositiveSmallIntegerField(default=1)
    # Every article URL the item stands for (representative + merged): never alerted twice.
    source_urls = models.JSONField(default=list, blank=True)
    body_scraped = models.BooleanField(default=True, help_text="False: analysed from the description")
    also_reported = models.JSONField(
        default=list,
        blank=True,
        help_text="Other outlets with the same event, earliest first: [{publisher, title, url, pub_time}]",
    )
    report_item = models.ForeignKey(
        "agents.ReportItem", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = "모니터링 항목"
        verbose_name_plural = "모니터링 항목"
        ordering = ["run", "position"]
        indexes = [
            models.Index(fields=["reporter", "kind", "created_at"]),
            models.Index(fields=["created_at"]),
        ]

    def __str__(self) -> str:
        return self.title


class ReportCache(models.Model):
    """A reporter's department briefing of one KST day (v1 report_cache)."""

    reporter = models.ForeignKey("newsdesk.Reporter", on_delete=models.CASCADE, related_name="+")
    day = models.DateField()
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True, db_index=True)

    class Meta:
        verbose_name = "브리핑 캐시"
        verbose_name_plural = "브리핑 캐시"
        constraints = [models.UniqueConstraint(fields=["reporter", "day"], name="one_briefing_per_day")]

    def __str__(self) -> str:
        return f"{self.reporter_id} {self.day}"


class ReportItem(models.Model):
    """One story of a day's briefing, in its current state (v1 report_items)."""

    cache = models.ForeignKey(ReportCache, on_delete=models.CASCADE, related_name="items")
    position = models.PositiveSmallIntegerField(default=0)
    title = models.CharField(max_length=500)
    publisher = models.CharField(max_length=50, blank=True)
    url = models.URLField(max_length=1000, blank=True)
    originallink = models.URLField(max_length=1000, blank=True)
    pub_time = models.DateTimeField(null=True, blank=True)
    summary = models.TextField()
    reason = models.TextField(blank=True)
    exclusive = models.BooleanField(default=False)
    source_count = models.PositiveSmallIntegerField(default=1)
    source_urls = models.JSONField(default=list, blank=True)
    body_scraped = models.BooleanField(default=True)
    created_run = models.ForeignKey(
        "agents.Run", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    updated_run = models.ForeignKey(
        "agents.Run", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = "브리핑 항목"
        verbose_name_plural = "브리핑 항목"
        ordering = ["cache", "position", "id"]

    def __str__(self) -> str:
        return self.title


class JobLock(models.Model):
    """One monitoring (or other long) job per reporter at a time, shared by every process.

    The unique reporter column is the lock. A row with an empty `token` is a reservation made
    when a manual request was accepted (its run is queued); the worker that runs that run adopts
    it. A row past `expires_at` belongs to a dead worker or a lost message and is taken over.
    """

    reporter = models.OneToOneField("newsdesk.Reporter", on_delete=models.CASCADE, related_name="+")
    run = models.ForeignKey("agents.Run", null=True, blank=True, on_delete=models.CASCADE, related_name="+")
    kind = models.CharField(max_length=10, blank=True)
    token = models.CharField(max_length=32, blank=True, help_text="holder; empty while only reserved")
    acquired_at = models.DateTimeField()
    expires_at = models.DateTimeField(db_index=True)

    class Meta:
        verbose_name = "작업 잠금"
        verbose_name_plural = "작업 잠금"

    def __str__(self) -> str:
        return f"{self.reporter_id}: {self.kind} run #{self.run_id}"

from __future__ import annotations

from django.conf import settings
from django.db import models


class Article(models.Model):
    """A draft result. An edit makes a new Article whose parent is the one it revised."""

    class Verdict(models.TextChoices):
        PASS = "pass", "통과"
        REVISED = "revised", "수정됨"
        SKIPPED = "skipped", "검증 생략"

    run = models.OneToOneField("agents.Run", on_delete=models.CASCADE, related_name="article")
    reporter = models.ForeignKey("newsdesk.Reporter", on_delete=models.CASCADE, related_name="articles")
    parent = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.CASCADE, related_name="revisions"
    )
    revision = models.PositiveSmallIntegerField(default=1)
    department = models.CharField(max_length=10, blank=True)
    headline = models.CharField(max_length=300)
    draft_body = models.TextField()
    body = models.TextField()
    verdict = models.CharField(max_length=10, choices=Verdict.choices)
    sources = models.JSONField(default=list, blank=True)
    # What the article was checked against: [{kind, title, url, text}], inherited by edits.
    source_material = models.JSONField(default=list, blank=True, editable=False)
    length = models.PositiveIntegerField()
    target_length = models.JSONField(default=dict, blank=True)
    instruction = models.CharField(max_length=500, blank=True)
    changes_made = models.CharField(max_length=500, blank=True)
    warnings = models.JSONField(default=list, blank=True)
    # What wrote it: the model id and the style's label (e.g. "한겨레", "경제부 기본"); an edit names
    # its own model and keeps its parent's style.
    model = models.CharField(max_length=80, blank=True)
    style = models.CharField(max_length=120, blank=True)
    # Per sentence of `body`, the source spans it rests on: [{text, spans: [{source, start, end,
    # text}]}], `source` indexing `source_material` (agents.facts.provenance).
    provenance = models.JSONField(default=list, blank=True, editable=False)
    # Must-carry facts of the press release the body lacks: [{fact, source_text}] (agents.facts.keyfacts).
    missing_facts = models.JSONField(default=list, blank=True, editable=False)
    # The release's embargo: {"until": ISO 8601 in KST, "text": the header line} or None (no line,
    # or "즉시"); read in code from the release (agents.facts.embargo), inherited by edits.
    embargo = models.JSONField(null=True, blank=True, default=None)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = "기사"
        verbose_name_plural = "기사"
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return self.headline


class VerificationIssue(models.Model):
    class Status(models.TextChoices):
        CONFIRMED = "confirmed", "확인"
        NOT_FOUND = "not_found", "근거 없음"
        CONTRADICTED = "contradicted", "불일치"
        # A binding judgement the verifier settles; without a model it is kept and marked.
        SUSPECT = "suspect", "의심"

    class Kind(models.TextChoices):
        NUMBER = "number", "수치"
        DATE = "date", "날짜"
        QUOTE = "quote", "인용"
        NAME = "name", "이름"
        OTHER = "other", "기타"

    class Origin(models.TextChoices):
        CODE = "code", "코드"
        LLM = "llm", "LLM"

    class Action(models.TextChoices):
        KEPT = "kept", "유지"
        DELETED = "deleted", "삭제"
        TRIMMED = "trimmed", "축약"

    class ReviewState(models.TextChoices):
        OPEN = "open", "검토 대기"
        ACCEPTED = "accepted", "수용"
        DISMISSED = "dismissed", "기각"

    article = models.ForeignKey(Article, on_delete=models.CASCADE, related_name="issues")
    claim = models.TextField()
    status = models.CharField(max_length=15, choices=Status.choices)
    kind = models.CharField(max_length=10, choices=Kind.choices, default=Kind.OTHER)
    source = models.TextField(blank=True)
    origin = models.CharField(max_length=5, choices=Origin.choices)
    sentence_index = models.PositiveSmallIntegerField(null=True, blank=True)
    action = models.CharField(max_length=10, choices=Action.choices, default=Action.KEPT)
    # Why a claim was flagged, or how code confirmed what the guard alone could not.
    reason = models.TextField(blank=True)
    formula = models.TextField(blank=True)  # a derived figure's recomputed formula
    # The rule family that raised it: the guard's ("absent", "bind:other-subject", …) or "model".
    rule = models.CharField(max_length=40, blank=True, db_index=True)
    review_state = models.CharField(max_length=10, choices=ReviewState.choices, default=ReviewState.OPEN)
    reviewed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    reviewed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = "검증 이슈"
        verbose_name_plural = "검증 이슈"
        ordering = ["article", "id"]
        indexes = [models.Index(fields=["status", "origin"])]

    def __str__(self) -> str:
        return f"[{self.get_status_display()}] {self.claim[:60]}"

from __future__ import annotations

from datetime import timedelta
from decimal import Decimal

from django.db import models
from django.db.models import F, Max, Q, Value
from django.db.models.functions import Coalesce
from django.utils import timezone

from agents.work import ownership


class Run(models.Model):
    """One agent job. Its events drive the live progress; its error is shown to the reporter."""

    class Kind(models.TextChoices):
        DRAFT = "draft", "기사 작성"
        EDIT = "edit", "기사 수정"
        CHECK = "check", "타사 체크"
        REPORT = "report", "부서 브리핑"
        CHAT = "chat", "대화"

    class Status(models.TextChoices):
        QUEUED = "queued", "대기"
        RUNNING = "running", "진행 중"
        DONE = "done", "완료"
        FAILED = "failed", "실패"

    class Channel(models.TextChoices):
        WEB = "web", "웹"
        API = "api", "API"
        TELEGRAM = "telegram", "텔레그램"
        SCHEDULE = "schedule", "예약"

    reporter = models.ForeignKey("newsdesk.Reporter", on_delete=models.CASCADE, related_name="runs")
    kind = models.CharField(max_length=10, choices=Kind.choices)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.QUEUED)
    stage = models.CharField(max_length=20, default="queued")
    channel = models.CharField(max_length=10, choices=Channel.choices, default=Channel.WEB)
    input = models.JSONField(default=dict, blank=True)
    parent_article = models.ForeignKey(
        "agents.Article", null=True, blank=True, on_delete=models.CASCADE, related_name="edit_runs"
    )
    retry_of = models.ForeignKey("self", null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    error = models.TextField(blank=True)
    error_code = models.CharField(max_length=30, blank=True)
    attempts = models.PositiveSmallIntegerField(default=0)
    # The delivery that owns the run: a redelivered message keeps its task id, a duplicate does not.
    task_id = models.CharField(max_length=64, blank=True, editable=False)
    # "host:pid" of the process running it and its last sign of life: a run whose owner went
    # silent is taken over within a minute or two, not after the broker's visibility timeout.
    owner = models.CharField(max_length=120, blank=True, editable=False)
    heartbeat_at = models.DateTimeField(null=True, blank=True, editable=False)
    enqueued_at = models.DateTimeField(null=True, blank=True)
    timings = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = "실행"
        verbose_name_plural = "실행"
        ordering = ["-created_at"]
        indexes = [models.Index(fields=["reporter", "-created_at"]), models.Index(fields=["status", "kind"])]

    def __str__(self) -> str:
        return f"#{self.pk} {self.get_kind_display()} ({self.get_status_display()})"

    @property
    def is_finished(self) -> bool:
        return self.status in (self.Status.DONE, self.Status.FAILED)

    def add_event(self, kind: str, message: str) -> RunEvent:
        seq = (self.events.aggregate(m=Max("seq"))["m"] or 0) + 1
        return RunEvent.objects.create(run=self, seq=seq, kind=kind, message=message)


class RunEvent(models.Model):
    class Kind(models.TextChoices):
        STAGE = "stage", "단계"
        INFO = "info", "정보"
        RETRY = "retry", "재시도"
        WARNING = "warning", "경고"
        ERROR = "error", "오류"
        DONE = "done", "완료"

    run = models.ForeignKey(Run, on_delete=models.CASCADE, related_name="events")
    seq = models.PositiveIntegerField()
    kind = models.CharField(max_length=10, choices=Kind.choices)
    message = models.CharField(max_length=500)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["run", "seq"]
        constraints = [models.UniqueConstraint(fields=["run", "seq"], name="one_event_per_seq")]

    def __str__(self) -> str:
        return f"{self.seq}. {self.message}"


class LLMCall(models.Model):
    """Every model call, written before it is sent and completed after it returns."""

    class Status(models.TextChoices):
        PENDING = "pending", "진행 중"
        OK = "ok", "성공"
        ERROR = "error", "오류"

    run = models.ForeignKey(Run, null=True, blank=True, on_delete=models.CASCADE, related_name="llm_calls")
    reporter = models.ForeignKey(
        "newsdesk.Reporter", null=True, blank=True, on_delete=models.SET_NULL, related_name="llm_calls"
    )
    purpose = models.CharField(max_length=40)
    model = models.CharField(max_length=80)
    request_chars = models.PositiveIntegerField(default=0)
    input_tokens = models.PositiveIntegerField(default=0)
    output_tokens = models.PositiveIntegerField(default=0)
    cache_read_input_tokens = models.PositiveIntegerField(default=0)
    cache_creation_input_tokens = models.PositiveIntegerField(default=0)
    cost_usd = models.DecimalField(max_digits=10, decimal_places=6, default=Decimal(0))
    latency_ms = models.PositiveIntegerField(default=0)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    error = models.CharField(max_length=300, blank=True)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        verbose_name = "LLM 호출"
        verbose_name_plural = "LLM 호출"
        ordering = ["created_at"]

    def __str__(self) -> str:
        return f"{self.purpose} ({self.status})"


class Upload(models.Model):
    """A file a reporter uploaded. The bytes are dropped once the worker has extracted the text."""

    class Status(models.TextChoices):
        PENDING = "pending", "대기"
        PARSED = "parsed", "추출 완료"
        FAILED = "failed", "실패"

    reporter = models.ForeignKey("newsdesk.Reporter", on_delete=models.CASCADE, related_name="uploads")
    file_name = models.CharField(max_length=255)
    mime_type = models.CharField(max_length=120, blank=True)
    size = models.PositiveIntegerField()
    content = models.BinaryField(null=True, blank=True, editable=False)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    text = models.TextField(blank=True, editable=False)
    error = models.CharField(max_length=300, blank=True)
    page_count = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)
    parsed_at = models.DateTimeField(null=True, blank=True)
    # OCR (photos, scanned PDFs): read only in the io worker, one file per reporter at a time.
    ocr = models.BooleanField(default=False)
    ocr_started_at = models.DateTimeField(null=True, blank=True)
    trusted_text = models.TextField(blank=True, editable=False)  # text minus numbers OCR was unsure of
    warnings = models.JSONField(default=list, blank=True)

    class Meta:
        verbose_name = "첨부 파일"
        verbose_name_plural = "첨부 파일"

    def __str__(self) -> str:
        return self.file_name


def run_claim(*, run_id: int, owner: str, task_id: str = "", retrying: bool = False) -> bool:
    """Takes the run for one delivery with a conditional UPDATE, counting the attempt.

    A queued run is free; a running one only when its owner went silent (no heartbeat for
    NEWSDESK_HEARTBEAT_STALE_SECONDS, or released for a retry) or was a process of this machine
    that has died. So a duplicate or redelivered message never runs a run twice at the same time.
    """
    if retrying and ownership.reclaim(Run, pk=run_id, base=Q(status=Run.Status.RUNNING), owner=owner):
        return True  # a retry after a database blip: the run is still this delivery's
    now = timezone.now()
    free = Q(status=Run.Status.QUEUED) | (Q(status=Run.Status.RUNNING) & ownership.silent_q(now))
    claimed = Run.objects.filter(free, pk=run_id).update(
        status=Run.Status.RUNNING,
        task_id=task_id,
        owner=owner,
        heartbeat_at=now,
        attempts=F("attempts") + 1,
        started_at=Coalesce("started_at", Value(now)),
    )
    if claimed:
        return True
    return ownership.take_over(
        Run,
        pk=run_id,
        base=Q(status=Run.Status.RUNNING),
        owner=owner,
        task_id=task_id,
        attempts=F("attempts") + 1,
    )


def run_release(*, run_id: int, owner: str, for_seconds: float) -> None:
    """Gives the run up while its task waits `for_seconds` to retry: the retry (a new delivery of
    the same message) may claim it, the sweeper leaves it alone until the wait is over."""
    Run.objects.filter(pk=run_id, owner=owner, status=Run.Status.RUNNING).update(
        owner="", heartbeat_at=timezone.now() + timedelta(seconds=for_seconds)
    )

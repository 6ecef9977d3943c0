from __future__ import annotations

from django.db import models


class OutboxMessage(models.Model):
    """A task message recorded in the same transaction as the work it starts (transactional outbox).

    The web process never talks to the broker before it answers: it commits the row, then tries
    to publish it once; whatever the broker refused is published later by the relay. A row is
    deleted once the broker has it, so the table holds only work the broker has not seen.
    """

    task = models.CharField(max_length=200)
    args = models.JSONField(default=list)
    key = models.CharField(max_length=100, db_index=True)  # "run:12": lets the sweeper skip queued work
    created_at = models.DateTimeField(auto_now_add=True)
    not_before = models.DateTimeField(null=True, blank=True)  # a countdown: the task runs from then on
    claimed_until = models.DateTimeField(null=True, blank=True)  # a publisher's short lease
    attempts = models.PositiveIntegerField(default=0)

    class Meta:
        verbose_name = "대기 메시지"
        verbose_name_plural = "대기 메시지"
        ordering = ["pk"]

    def __str__(self) -> str:
        return f"{self.task}{self.args}"

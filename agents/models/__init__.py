from __future__ import annotations

from agents.models.articles import Article, VerificationIssue
from agents.models.monitoring import (
    MONITOR_RETENTION,
    JobLock,
    MonitorItem,
    MonitorResult,
    ReportCache,
    ReportItem,
)
from agents.models.naver import NaverUsage
from agents.models.outbox import OutboxMessage
from agents.models.publishers import Publisher
from agents.models.runs import LLMCall, Run, RunEvent, Upload

__all__ = [
    "MONITOR_RETENTION",
    "Article",
    "JobLock",
    "LLMCall",
    "MonitorItem",
    "MonitorResult",
    "NaverUsage",
    "OutboxMessage",
    "Publisher",
    "ReportCache",
    "ReportItem",
    "Run",
    "RunEvent",
    "Upload",
    "VerificationIssue",
]

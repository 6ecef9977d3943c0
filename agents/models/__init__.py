from __future__ import annotations

from agents.models.articles import Article, VerificationIssue
from agents.models.naver import NaverUsage
from agents.models.publishers import Publisher
from agents.models.runs import LLMCall, Run, RunEvent, Upload

__all__ = ["Article", "LLMCall", "NaverUsage", "Publisher", "Run", "RunEvent", "Upload", "VerificationIssue"]

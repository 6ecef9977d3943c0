"""The monitoring model calls: `filter_news`, `submit_analysis`, `submit_report`.

Each is one forced tool call. The model never sees a URL: it gets a numbered article list and
answers with 1-based numbers and a copied title; code maps them back (agents.monitoring.mapping).
Every number is range-checked by the validating schema, so an out-of-range index is re-asked
once by `llm.call_tool` with the error text. Output pathologies v1 met with Haiku are absorbed
before validation: arrays sent as JSON strings are decoded, non-object elements dropped. What
still fails validation is retried a bounded number of times, then the run
fails with every call recorded in LLMCall.

System prompts are text files (agents/prompts/); the user messages (the numbered list, the
history) are rendered by agents.monitoring.material.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Sequence
from datetime import date
from typing import Any, Literal, TypeVar

from pydantic import BaseModel, Field, field_validator, model_validator

from agents import prompts
from agents.llm import client as llm
from agents.monitoring.departments import DepartmentProfile

log = logging.getLogger(__name__)
ANALYSIS_ATTEMPTS = 2  # each is call_tool's call + one re-ask: at most 4 calls (v1 made up to 5)
FILTER_MAX_TOKENS = 4096
ANALYSIS_MAX_TOKENS = 16384  # v1's figure: 60 articles of traces and summaries need the room

Schema = TypeVar("Schema", bound=BaseModel)


# --- tool schemas -------------------------------------------------------------------------------
def _json_array(value: Any) -> Any:
    """Arrays sent as JSON strings are decoded; non-object elements are dropped (Haiku sends both)."""
    if isinstance(value, str):
        try:
            value = json.loads(value)
        except ValueError as exc:
            raise ValueError("배열이어야 합니다") from exc
    if isinstance(value, list):
        kept = [element for element in value if isinstance(element, dict)]
        if value and not kept:
            raise ValueError("배열의 원소는 객체여야 합니다")
        return kept
    return value


def _indices(value: Any) -> Any:
    if isinstance(value, str):
        try:
            value = json.loads(value)
        except ValueError as exc:
            raise ValueError("정수 배열이어야 합니다") from exc
    return value


class FilterNewsInput(BaseModel):
    selected_indices: list[int] = Field(description="고른 기사 번호(1부터). 없으면 빈 배열")

    _decode = field_validator("selected_indices", mode="before")(_indices)


class AnalysisResult(BaseModel):
    category: Literal["exclusive", "important"]
    topic_cluster: str = Field(description="사안의 짧은 이름")
    source_indices: list[int] = Field(description="대표 기사 번호")
    merged_indices: list[int] = Field(default_factory=list, description="함께 묶은 기사 번호")
    title: str = Field(description="대표 기사의 원래 제목 그대로")
    summary: str
    reason: str

    _decode = field_validator("source_indices", "merged_indices", mode="before")(_indices)


class AnalysisSkip(BaseModel):
    topic_cluster: str
    source_indices: list[int]
    title: str = Field(description="기사의 원래 제목 그대로")
    reason: str = Field(description="걸린 단계와 이유")

    _decode = field_validator("source_indices", mode="before")(_indices)


class SubmitAnalysisInput(BaseModel):
    thinking: str = Field(default="", description="기사별 단계 판정 기록")
    results: list[AnalysisResult] = Field(description="보고할 기사")
    skipped: list[AnalysisSkip] = Field(description="제외한 기사")

    _decode = field_validator("results", "skipped", mode="before")(_json_array)


class ReportResult(BaseModel):
    title: str = Field(description="대표 기사의 원래 제목 그대로")
    source_indices: list[int]
    merged_indices: list[int] = Field(default_factory=list)
    summary: str
    reason: str
    exclusive: bool = False

    _decode = field_validator("source_indices", "merged_indices", mode="before")(_indices)


class ReportUpdate(ReportResult):
    action: Literal["modified", "added"]
    item_id: int = Field(description="modified면 기존 항목 번호, added면 0")


class SubmitReportInput(BaseModel):
    thinking: str = Field(default="", description="기사별 단계 판정 기록")
    results: list[ReportResult]

    _decode = field_validator("results", mode="before")(_json_array)


class SubmitReportUpdateInput(BaseModel):
    thinking: str = Field(default="", description="기사별 단계 판정 기록")
    results: list[ReportUpdate]

    _decode = field_validator("results", mode="before")(_json_array)


FILTER_NEWS = llm.Tool("filter_news", "부서와 관련 있는 기사의 번호를 골라 제출한다.", FilterNewsInput)
SUBMIT_ANALYSIS = llm.Tool(
    "submit_analysis", "타사 체크 분석 결과(보고할 기사와 제외한 기사)를 제출한다.", SubmitAnalysisInput
)
SUBMIT_REPORT = llm.Tool("submit_report", "부서 브리핑에 넣을 기사를 제출한다.", SubmitReportInput)
SUBMIT_REPORT_UPDATE = llm.Tool(
    "submit_report", "오늘 브리핑과 비교해 수정하거나 추가할 항목을 제출한다.", SubmitReportUpdateInput
)


def _out_of_range(numbers: Sequence[int], count: int) -> list[int]:
    return [n for n in numbers if not 1 <= n <= count]


def _range_error(bad: Sequence[int], count: int) -> ValueError:
    return ValueError(f"기사 번호는 1부터 {count}까지입니다. 목록에 없는 번호: {sorted(set(bad))}")


def bounded_filter(count: int) -> type[FilterNewsInput]:
    """FilterNewsInput that refuses numbers outside 1..count."""

    class Bounded(FilterNewsInput):
        @model_validator(mode="after")
        def _in_range(self) -> Bounded:
            bad = _out_of_range(self.selected_indices, count)
            if bad:
                raise _range_error(bad, count)
            return self

    return Bounded


def bounded_analysis(count: int) -> type[SubmitAnalysisInput]:
    """SubmitAnalysisInput with every number in 1..count and not both arrays empty."""

    class Bounded(SubmitAnalysisInput):
        @model_validator(mode="after")
        def _in_range(self) -> Bounded:
            numbers = [n for r in self.results for n in (*r.source_indices, *r.merged_indices)]
            numbers += [n for s in self.skipped for n in s.source_indices]
            bad = _out_of_range(numbers, count)
            if bad:
                raise _range_error(bad, count)
            if count and not self.results and not self.skipped:
                raise ValueError("모든 기사를 results나 skipped 가운데 한 곳에 넣어야 합니다")
            return self

    return Bounded


def bounded_report(count: int, *, update: bool) -> type[SubmitReportInput] | type[SubmitReportUpdateInput]:
    """The scenario's report schema with every article number in 1..count (item_id is not
    range-checked here: an unknown item_id is treated as added, see monitoring.report)."""
    base: Any = SubmitReportUpdateInput if update else SubmitReportInput

    class Bounded(base):
        @model_validator(mode="after")
        def _in_range(self) -> Any:
            numbers = [n for r in self.results for n in (*r.source_indices, *r.merged_indices)]
            bad = _out_of_range(numbers, count)
            if bad:
                raise _range_error(bad, count)
            return self

    return Bounded


# --- calls --------------------------------------------------------------------------------------
# Each takes the user message already rendered (agents.monitoring.material) and the number of
# articles listed in it, which bounds every index the model may answer with.
def filter_news(
    *,
    ctx: llm.CallContext,
    purpose: str,
    profile: DepartmentProfile,
    listing: str,
    count: int,
    keywords: Sequence[str] = (),
) -> list[int]:
    """Pre-filter on title + description: the 0-based positions kept, unique, in list order."""
    if not count:
        return []
    result = llm.call_tool(
        ctx=ctx,
        purpose=purpose,
        system=filter_system(profile=profile, keywords=keywords),
        messages=[{"role": "user", "content": listing}],
        tool=FILTER_NEWS,
        schema=bounded_filter(count),
        max_tokens=FILTER_MAX_TOKENS,
    )
    # v1 kept duplicates and the model's order; one entry per article, newest first, is what we want.
    return sorted({n - 1 for n in result.selected_indices})


def submit_analysis(
    *, ctx: llm.CallContext, department: str, keywords: Sequence[str], material: str, count: int, today: date
) -> SubmitAnalysisInput:
    """The /check analysis: reported results and skipped articles, every article placed."""
    system = prompts.load("check_analysis").format(
        department=department, today=today.isoformat(), keywords=", ".join(keywords) or "(키워드 없음)"
    )
    return _attempts(
        lambda: llm.call_tool(
            ctx=ctx,
            purpose="check_analysis",
            system=system,
            messages=[{"role": "user", "content": material}],
            tool=SUBMIT_ANALYSIS,
            schema=bounded_analysis(count),
            max_tokens=ANALYSIS_MAX_TOKENS,
        )
    )


def submit_report(
    *, ctx: llm.CallContext, department: str, material: str, count: int, update: bool, today: date
) -> SubmitReportInput | SubmitReportUpdateInput:
    """The /report analysis: scenario A selects; B (`update`) answers modified/added with item_id."""
    rules = prompts.load("report_rules_update" if update else "report_rules_first")
    system = prompts.load("report_analysis").format(
        department=department, today=today.isoformat(), output_rules=rules
    )
    schema = bounded_report(count, update=update)
    return _attempts(
        lambda: llm.call_tool(
            ctx=ctx,
            purpose="report_analysis",
            system=system,
            messages=[{"role": "user", "content": material}],
            tool=SUBMIT_REPORT_UPDATE if update else SUBMIT_REPORT,
            schema=schema,
            max_tokens=ANALYSIS_MAX_TOKENS,
        )
    )


def _attempts(call: Callable[[], Schema]) -> Schema:
    for attempt in range(1, ANALYSIS_ATTEMPTS + 1):
        try:
            return call()
        except llm.LLMBadOutput as exc:
            if attempt == ANALYSIS_ATTEMPTS:
                raise
            log.warning("analysis output unusable (attempt %s), asking afresh: %s", attempt, exc)
    raise AssertionError("unreachable")


# --- prompts ------------------------------------------------------------------------------------
def filter_system(*, profile: DepartmentProfile, keywords: Sequence[str] = ()) -> str:
    # /check passes the reporter's keywords: v1's department-only filter dropped keyword stories
    # outside the department's coverage before the keyword-aware analysis ever saw them.
    keyword_rule = " " + prompts.load("monitor_filter_keywords").format(keywords=", ".join(keywords))
    return prompts.load("monitor_filter").format(
        department=profile.name,
        coverage=profile.coverage,
        criteria="\n".join(f"- {line}" for line in profile.criteria),
        keyword_rule=keyword_rule if keywords else "",
    )

"""The router: one forced `route_to_tool` call picks the job and extracts its parameters."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from agents import prompts
from agents.llm import client as llm


class ExtractedParams(BaseModel):
    topic: str | None = Field(default=None, max_length=200, description="기사 주제 (writing)")
    word_count: int | None = Field(
        default=None, description="요청 분량, 공백 포함 글자 수 (writing/edit_article)"
    )
    search_keywords: list[str] = Field(
        default_factory=list, max_length=5, description="관련 기사 검색어 2~3개"
    )
    has_attachment: bool | None = Field(default=None, description="맥락의 첨부파일을 참조해야 하는지")
    style_hint: str | None = Field(default=None, max_length=200, description="스트레이트/기획/인터뷰 등")
    schedule_command: Literal["check", "report"] | None = Field(default=None, description="예약할 명령")
    schedule_times: list[str] = Field(default_factory=list, max_length=30, description="24시간 HH:MM 목록")
    schedule_action: Literal["add", "replace", "off"] | None = Field(
        default=None, description="예약 변경 방식"
    )
    department: str | None = Field(default=None, max_length=10, description="바꿀 부서 (set_division)")
    keywords: list[str] = Field(default_factory=list, max_length=20, description="키워드 (set_keyword)")
    keyword_action: Literal["add", "remove", "replace"] | None = Field(
        default=None, description="키워드 변경 방식"
    )
    style: str | None = Field(
        default=None,
        max_length=50,
        description="바꿀 기사 스타일의 언론사 이름, 기본으로는 '기본' (set_style)",
    )
    model: str | None = Field(
        default=None, max_length=50, description="바꿀 AI 모델을 기자가 부른 이름 그대로 (set_model)"
    )


class RouteToToolInput(BaseModel):
    tool: Literal[
        "check",
        "report",
        "writing",
        "edit_article",
        "conversation",
        "schedule",
        "set_division",
        "set_keyword",
        "set_style",
        "set_model",
        "reject",
    ] = Field(description="실행할 도구")
    reason: str = Field(default="", max_length=300, description="판단 근거 또는 reject 사유 (1문장)")
    extracted_params: ExtractedParams = Field(
        default_factory=ExtractedParams, description="도구 실행 파라미터"
    )


ROUTE_TO_TOOL = llm.Tool("route_to_tool", "기자의 요청을 알맞은 도구 하나로 보낸다.", RouteToToolInput)


def route(*, ctx: llm.CallContext, query: str, context: str, attachments: list[str]) -> RouteToToolInput:
    """`context` is the selected conversation (full texts), `attachments` the file labels in it."""
    parts = [f"<대화_맥락>\n{context or '(없음)'}\n</대화_맥락>"]
    if attachments:
        parts.append("<첨부파일>\n" + "\n".join(attachments) + "\n</첨부파일>")
    parts.append(f"<현재_요청>\n{query}\n</현재_요청>")
    return llm.call_tool(
        ctx=ctx,
        purpose="route_to_tool",
        system=prompts.load("router_system"),
        messages=[{"role": "user", "content": "\n\n".join(parts)}],
        tool=ROUTE_TO_TOOL,
        schema=RouteToToolInput,
        max_tokens=512,
    )


def reply(*, ctx: llm.CallContext, query: str, context: str) -> str:
    """A short answer for the `conversation` route (one call, plain text)."""
    return llm.reply_text(
        ctx=ctx,
        purpose="conversation",
        system=prompts.load("conversation_system"),
        messages=[
            {"role": "user", "content": f"<대화_맥락>\n{context or '(없음)'}\n</대화_맥락>\n\n{query}"}
        ],
        max_tokens=400,
    )

"""The writing agent: a bounded tool loop that ends in `submit_article`.

Round trips are the cost that matters, so everything code already knows goes into the first
prompt: the style guide, the press release and attachment texts, and (when keywords are
known) the numbered news candidates. A typical press-release draft with news search is then
select_articles → submit_article, plus one verification call.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from agents import messages as msg
from agents import prompts
from agents.drafting import tools
from agents.drafting.attachments import AttachmentRef
from agents.drafting.deadline import ModelBudget
from agents.drafting.followup import Competitor, FollowUpUnreadable, competitor_source
from agents.drafting.material import LengthTarget, SourceDoc
from agents.drafting.submission import Draft, results_for, review_submission
from agents.drafting.tool_calls import run_tools
from agents.errors import UserFacingError
from agents.facts.density import advise_length
from agents.llm import client as llm
from agents.sources import files, naver
from agents.sources.files import PageRange
from styles.selectors import ResolvedStyle

log = logging.getLogger(__name__)
MAX_TURNS = 5
PRELOAD_ATTACHMENTS = 2

StageCallback = Callable[[str, str], None]


class WritingFailed(UserFacingError):
    code = "writing_failed"


@dataclass(frozen=True)
class DraftRequest:
    department: str
    press_release: str = ""
    length: int | None = None
    style_hint: str = ""
    search_news: bool = False
    keywords: tuple[str, ...] = ()
    topic: str = ""
    context: str = ""
    attachment_name: str = ""
    attachment_text: str = ""
    attachment_trusted_text: str = ""  # OCR text minus uncertain numbers; "" when not OCR
    attachments: tuple[AttachmentRef, ...] = ()
    pages: PageRange | None = None  # of a long PDF: the pages the reporter chose
    warnings: tuple[str, ...] = ()  # about the material, from before the loop (pages left out)
    read_file: tools.FileReader = tools.read_here
    instruction: str = ""  # what the reporter asked for in words ("반론 취재 포함해서")
    follow_up: Competitor | None = None  # the competitor's article a follow-up starts from


def write_draft(
    *, ctx: llm.CallContext, request: DraftRequest, style: ResolvedStyle, on_stage: StageCallback
) -> Draft:
    state = tools.WritingState(
        style=style,
        department=request.department,
        attachments=list(request.attachments),
        pages=request.pages,
        read_file=request.read_file,
    )
    state.warnings.extend(request.warnings)
    state.material.extend(_given_material(request))
    if request.follow_up is not None:
        _read_competitor(state, request, request.follow_up, on_stage)
    _preload_attachments(state, on_stage)
    if not state.material and not request.attachments and not request.search_news:
        raise WritingFailed(msg.NO_MATERIAL, "no_material")
    if request.search_news and request.keywords:
        _presearch(state, request, on_stage)
    on_stage("write", msg.STAGE_WRITE)
    target, thin = _length_target(state, request)
    draft = _loop(ctx, state, request, target)
    if thin:
        draft.warnings.insert(0, thin)
    return draft


def _length_target(state: tools.WritingState, request: DraftRequest) -> tuple[LengthTarget, str]:
    """The requested length, or the shorter one the material can support (with the reason why).

    With a news search or unread attachments more material may still arrive, so nothing is cut.
    """
    requested = LengthTarget.from_request(request.length)
    if request.search_news or len(state.attachment_texts) < len(state.attachments):
        return requested, ""
    advice = advise_length(
        requested=requested.low, material=[doc.text for doc in state.material], department=request.department
    )
    if not advice.shortened:
        return requested, ""
    note = msg.THIN_INPUT.format(
        facts=advice.facts, requested=advice.requested, supportable=advice.supportable
    )
    return LengthTarget.from_request(advice.supportable), note


def _given_material(request: DraftRequest) -> list[SourceDoc]:
    docs = []
    if request.press_release.strip():
        docs.append(SourceDoc("press_release", "보도자료", request.press_release.strip()))
    if request.attachment_text.strip():
        # An OCR upload is used without the digits OCR was unsure of (files.ocr).
        text = request.attachment_trusted_text or request.attachment_text
        docs.append(SourceDoc("attachment", request.attachment_name or "첨부파일", text.strip()))
    if request.context.strip():
        docs.append(SourceDoc("context", "대화 맥락", request.context.strip()))
    return docs


def _read_competitor(
    state: tools.WritingState, request: DraftRequest, competitor: Competitor, on_stage: StageCallback
) -> None:
    """The competitor's article joins the material (and the sources listed under the article)."""
    on_stage("analyze", msg.STAGE_FOLLOW_UP)
    other = bool(state.material or request.attachments or request.search_news)
    try:
        doc, warning = competitor_source(competitor, has_other_material=other)
    except FollowUpUnreadable as exc:
        raise WritingFailed(exc.user_message, exc.code) from exc
    state.material.append(doc)
    state.given_sources.append(competitor.listed())
    if warning:
        state.warnings.append(warning)


def _preload_attachments(state: tools.WritingState, on_stage: StageCallback) -> None:
    """Reads attachments in code (no model turn); a failure ends the run only if nothing else is left."""
    if not state.attachments or len(state.attachments) > PRELOAD_ATTACHMENTS:
        return
    on_stage("analyze", msg.STAGE_ANALYZE)
    for index in range(len(state.attachments)):
        try:
            tools.read_attachment(state, index)
        except tools.ToolFailed as exc:
            if len(state.attachments) == 1 and not state.material:
                raise WritingFailed(str(exc), "attachment") from exc
            state.warnings.append(str(exc))


def _presearch(state: tools.WritingState, request: DraftRequest, on_stage: StageCallback) -> None:
    on_stage("search", msg.STAGE_SEARCH)
    try:
        found = tools.search_candidates(
            keywords=list(request.keywords[:3]), hours=48, department=request.department
        )
    except naver.NaverError as exc:
        state.warnings.append(msg.SEARCH_FAILED.format(reason=exc.user_message))
        return
    state.add_candidates(found)
    state.searched_by_code = True


def _available_tools(state: tools.WritingState, request: DraftRequest) -> list[llm.Tool]:
    """One list for every turn of a run: the prompt cache keys on it, so a list that changed
    between turns would void the cached conversation. Calls that are of no use yet (or any more)
    are refused in code (`tool_calls.refusal`)."""
    available = []
    if request.attachments:
        available.append(tools.ANALYZE_ATTACHMENT)
    if request.search_news or state.candidates:
        available += [tools.FETCH_ARTICLES, tools.SELECT_ARTICLES]
    return [*available, tools.SUBMIT_ARTICLE]


def _loop(
    ctx: llm.CallContext, state: tools.WritingState, request: DraftRequest, target: LengthTarget
) -> Draft:
    conversation: list[dict[str, Any]] = [{"role": "user", "content": first_prompt(state, request, target)}]
    system = prompts.load("writing_system")
    budget = ModelBudget.from_settings()
    reasked_length = False
    best: Draft | None = None  # a complete article sent back for its length, kept for the deadline
    for turn in range(1, MAX_TURNS + 1):
        try:
            step = _timed_step(ctx, state, request, system, conversation, budget, turn)
        except DeadlineReached:
            return _at_deadline(ctx, state, request, target, conversation, best, budget)
        conversation.append({"role": "assistant", "content": step.content})
        if not step.tool_uses:
            conversation.append({"role": "user", "content": prompts.load("nudge_tools")})
            continue
        submit = next((use for use in step.tool_uses if use.name == "submit_article"), None)
        if submit is None:
            conversation.append({"role": "user", "content": run_tools(state, step.tool_uses)})
            continue
        # On the last turn there is no turn left to re-ask in: an off-length article is delivered
        # with a warning rather than lost after every call was paid for.
        outcome = review_submission(state, submit, target, reasked_length or turn == MAX_TURNS)
        if isinstance(outcome, Draft):
            outcome.turns = turn
            return outcome
        reasked_length = reasked_length or outcome.about_length
        best = outcome.kept or best
        conversation.append(
            {"role": "user", "content": results_for(step.tool_uses, submit.id, outcome.feedback)}
        )
    raise WritingFailed(msg.WRITING_TOO_MANY_TURNS, "too_many_turns")


class DeadlineReached(Exception):
    """The writing loop's model time is spent (NEWSDESK_WRITING_DEADLINE_SECONDS)."""


def _timed_step(
    ctx: llm.CallContext,
    state: tools.WritingState,
    request: DraftRequest,
    system: str,
    conversation: list[dict[str, Any]],
    budget: ModelBudget,
    turn: int,
) -> llm.StepResult:
    if budget.exhausted:  # spent by the turns before: no call that could only time out
        raise DeadlineReached
    timeout, by_deadline = budget.call_timeout()
    try:
        with budget.timing():
            return llm.loop_step(
                ctx=ctx,
                purpose=f"writing_turn_{turn}",
                system=system,
                messages=conversation,
                tools=_available_tools(state, request),
                force="submit_article" if turn == MAX_TURNS else None,
                timeout=timeout,
            )
    except llm.LLMTimedOut as exc:
        if by_deadline:
            raise DeadlineReached from exc
        raise  # one call slower than any call may be, with budget left: transient, as before


def _at_deadline(
    ctx: llm.CallContext,
    state: tools.WritingState,
    request: DraftRequest,
    target: LengthTarget,
    conversation: list[dict[str, Any]],
    best: Draft | None,
    budget: ModelBudget,
) -> Draft:
    """The time is up: the article the loop holds, else one short forced submission, else a clear failure."""
    seconds = round(budget.seconds)
    log.info("writing deadline (%s s) reached; best draft held: %s", seconds, best is not None)
    draft = best or _forced_submission(ctx, state, request, target, conversation, budget)
    draft.deadline_note = msg.WRITING_DEADLINE.format(seconds=seconds)
    draft.warnings.insert(0, draft.deadline_note)
    return draft


def _forced_submission(
    ctx: llm.CallContext,
    state: tools.WritingState,
    request: DraftRequest,
    target: LengthTarget,
    conversation: list[dict[str, Any]],
    budget: ModelBudget,
) -> Draft:
    failed = WritingFailed(msg.WRITING_DEADLINE_NOTHING.format(seconds=round(budget.seconds)), "deadline")
    try:
        step = llm.loop_step(
            ctx=ctx,
            purpose="writing_deadline",
            system=prompts.load("writing_system"),
            messages=[*conversation[:-1], _with_note(conversation[-1], prompts.load("deadline_submit"))],
            tools=_available_tools(state, request),
            force="submit_article",
            timeout=budget.final_call_timeout(),
        )
    except llm.LLMTimedOut as exc:
        raise failed from exc
    submit = next((use for use in step.tool_uses if use.name == "submit_article"), None)
    outcome = review_submission(state, submit, target, reasked_length=True) if submit else None
    if not isinstance(outcome, Draft):
        raise failed
    return outcome


def _with_note(message: dict[str, Any], note: str) -> dict[str, Any]:
    """The last user message with a note after its content (tool results must stay first)."""
    content = message["content"]
    blocks = [{"type": "text", "text": content}] if isinstance(content, str) else list(content)
    return {**message, "content": [*blocks, {"type": "text", "text": note}]}


def first_prompt(state: tools.WritingState, request: DraftRequest, target: LengthTarget) -> str:
    sections = [
        _request_section(request, target),
        state.style.prompt_block(request.department),
    ]
    for doc in state.material:
        tag = MATERIAL_TAGS.get(doc.kind, "자료")
        outlet = f' 언론사="{doc.outlet}"' if doc.outlet else ""
        sections.append(f'<{tag}{outlet} 제목="{doc.title}">\n{doc.text}\n</{tag}>')
    unread = [
        f"[{i}] {ref.label()}" for i, ref in enumerate(state.attachments) if i not in state.attachment_texts
    ]
    if unread:
        sections.append("<첨부파일_목록>\n" + "\n".join(unread) + "\n</첨부파일_목록>")
    if state.candidates:
        sections.append(
            "<관련_기사_후보>\n"
            + tools.candidate_list(list(state.candidates.values()))
            + "\n</관련_기사_후보>"
        )
    if any(files.UNCERTAIN_MARK in doc.text for doc in state.material):
        sections.append(prompts.load("ocr_note"))
    sections.append("위 자료만으로 기사를 작성하세요.")
    return "\n\n".join(sections)


MATERIAL_TAGS = {
    "press_release": "보도자료",
    "attachment": "첨부파일",
    "context": "대화_맥락",
    "article": "타사_기사",
    "search": "관련_기사",
}


def _request_section(request: DraftRequest, target: LengthTarget) -> str:
    lines = [f"- 부서: {request.department}", f"- 분량: {target.describe()} (공백 포함)"]
    if request.follow_up is not None:
        lines.append(
            f"- 후속 기사: {request.follow_up.outlet}의 「{request.follow_up.title}」 보도를 받아 쓰는 "
            "후속 기사입니다. 타사_기사에만 있는 사실은 언론사를 밝혀 씁니다."
        )
    if request.instruction:
        lines.append(f"- 기자 지시: {request.instruction}")
    if request.topic:
        lines.append(f"- 주제: {request.topic}")
    if request.style_hint:
        lines.append(f"- 스타일 요청: {request.style_hint}")
    lines.append(f"- 관련 기사 검색: {'허용' if request.search_news else '사용하지 않음'}")
    return "<요청>\n" + "\n".join(lines) + "\n</요청>"

"""Edits: one forced `edit_article` call on an existing article, then the code guard.

An edit may shorten, retitle or restructure, but not add facts: any number, date or quote in
the edited body that neither the sources nor the previous version contain is cut.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date

from pydantic import BaseModel, Field

from agents import messages as msg
from agents import prompts
from agents.drafting.material import LENGTH_TOLERANCE, MAX_LENGTH, SourceDoc, article_length
from agents.llm import client as llm
from agents.verification import suspects
from agents.verification.guard import normalize_body, split_sentences
from agents.verification.headlines import settle_headline
from agents.verification.verify import Issue, code_issues, headline_issues, revise
from styles.lint import Hit, apply_fixes, position_label


class EditArticleInput(BaseModel):
    headline: str = Field(min_length=1, max_length=200, description="수정된 제목 (변경 없으면 원문 그대로)")
    body: str = Field(min_length=1, max_length=8000, description="수정된 본문 전체")
    changes_made: str = Field(default="", max_length=300, description="변경 사항 요약 (1문장)")


EDIT_ARTICLE = llm.Tool("edit_article", "기존 기사를 기자의 요청에 따라 최소한으로 고친다.", EditArticleInput)
_LENGTH = re.compile(r"(\d[\d,]*)\s*자")


@dataclass
class EditResult:
    headline: str
    draft_body: str
    body: str
    changes_made: str
    issues: list[Issue]
    verdict: str
    requested_length: int | None
    warnings: list[str] = field(default_factory=list)


def requested_length(instruction: str) -> int | None:
    match = _LENGTH.search(instruction)
    if not match:
        return None
    value = int(match.group(1).replace(",", ""))
    return value if 50 <= value <= MAX_LENGTH else None


def edit_article(
    *,
    ctx: llm.CallContext,
    headline: str,
    body: str,
    instruction: str,
    material: list[SourceDoc],
    reference: date,
    added: Sequence[SourceDoc] = (),
) -> EditResult:
    """`added`: material sent with this edit (a file or photo), shown to the model beside the
    request; like all material, the guard checks the edited article against it."""
    target = requested_length(instruction)
    sent = "".join(f'<추가_자료 제목="{doc.title}">\n{doc.text}\n</추가_자료>\n\n' for doc in added)
    prompt = (
        f"<원문>\n제목: {headline}\n\n{body}\n</원문>\n(현재 본문 {article_length(body)}자, 공백 포함)\n\n"
        f"{sent}<수정_요청>\n{instruction}\n</수정_요청>"
    )
    conversation = [{"role": "user", "content": prompt}]
    result = _ask(ctx, conversation)
    warnings = []
    if target and not _close_enough(article_length(result.body), target):
        feedback = prompts.load("reask_edit_length").format(length=article_length(result.body), target=target)
        conversation += [
            {"role": "assistant", "content": f"제목: {result.headline}\n\n{result.body}"},
            {"role": "user", "content": feedback},
        ]
        result = _ask(ctx, conversation)
        if not _close_enough(article_length(result.body), target):
            warnings.append(
                msg.LENGTH_MISSED.format(target=f"{target}자", length=article_length(result.body))
            )
    return _guarded(
        headline=headline,
        body=body,
        edited=result,
        material=material,
        reference=reference,
        target=target,
        warnings=warnings,
    )


def lint_fix(
    *,
    ctx: llm.CallContext,
    headline: str,
    body: str,
    hits: Sequence[Hit],
    material: list[SourceDoc],
    reference: date,
) -> EditResult:
    """ "고쳐줘": the lint list applied as an edit. Mechanical fixes are made in code; only hits
    that need rewording (no replacement) go to the edit model, listed as its instruction, so a
    body whose every hit has a replacement costs no model call."""
    fixed = apply_fixes(body=body, hits=hits)
    rewording = [h for h in hits if h.replacement is None]
    mechanical = len(hits) - len(rewording)
    if rewording:
        lines = [f"- '{h.text}' ({position_label(body, h.start)}): {h.suggestion}" for h in rewording]
        instruction = prompts.load("lint_fix").format(items="\n".join(lines))
        return edit_article(
            ctx=ctx,
            headline=headline,
            body=fixed,
            instruction=instruction,
            material=material,
            reference=reference,
        )
    changes = msg.LINT_FIXED.format(count=mechanical)
    edited = EditArticleInput(headline=headline, body=fixed, changes_made=changes)
    return _guarded(headline=headline, body=body, edited=edited, material=material, reference=reference)


def _guarded(
    *,
    headline: str,
    body: str,
    edited: EditArticleInput,
    material: list[SourceDoc],
    reference: date,
    target: int | None = None,
    warnings: list[str] | None = None,
) -> EditResult:
    """The code guard over an edited version: what the edit may not add is cut."""
    warnings = list(warnings or [])
    new_body = normalize_body(edited.body)
    sources = [f"{doc.title}\n{doc.text}" for doc in material] + [f"{headline}\n{body}"]
    new_headline = " ".join(edited.headline.split())
    # Every fact of the edited version is listed, confirmed ones too, so the reporter is told
    # what was checked; the headline is checked like a sentence (number 0).
    issues = code_issues(body=new_body, sources=sources, reference=reference)
    issues += headline_issues(headline=new_headline, body=new_body, sources=sources, reference=reference)
    suspects.mark_unchecked(issues=issues)  # no model checks an edit: a suspect claim stays, marked
    final = revise(
        sentences=split_sentences(new_body), issues=issues, revisions={}, sources=sources, reference=reference
    )
    settled = settle_headline(
        headline=new_headline, issues=issues, proposed="", body=final, sources=sources, reference=reference
    )
    warnings += settled.warnings
    verdict = "revised" if any(i.action != "kept" for i in issues) else "pass"
    return EditResult(
        settled.headline,
        new_body,
        final,
        edited.changes_made,
        issues,
        verdict,
        target,
        warnings,
    )


def _ask(ctx: llm.CallContext, conversation: list[dict[str, str]]) -> EditArticleInput:
    return llm.call_tool(
        ctx=ctx,
        purpose="edit_article",
        system=prompts.load("edit_system"),
        messages=conversation,
        tool=EDIT_ARTICLE,
        schema=EditArticleInput,
        max_tokens=4096,
    )


def _close_enough(length: int, target: int) -> bool:
    return abs(length - target) <= target * LENGTH_TOLERANCE

"""Verification: the code guard first, then `verify_article`.

The final body keeps no sentence that either check marked not_found or contradicted. A `suspect`
claim (a binding judgement too weak to cut on, agents.verification.suspects) is settled by the
model's call: kept on a source clause code re-reads, cut otherwise; with no model it is kept and
marked for the reporter. The model never rewrites the article: it names sentences by number and
may offer a trimmed version of a flagged one; code rebuilds the body, so supported sentences stay
word for word, and a trim is only accepted if it only deletes whole words, drops no negation and
leaves nothing the guard rejects (agents.verification.trims).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date
from typing import Any, Literal

from pydantic import BaseModel, Field

from agents import messages as msg
from agents import prompts
from agents.drafting.material import SourceDoc, numbered_sources
from agents.llm import client as llm
from agents.verification import evidence, suspects
from agents.verification.evidence import Derivation
from agents.verification.guard import (
    Sentence,
    article_findings,
    headline_findings,
    join_sentences,
    split_sentences,
)
from agents.verification.headlines import settle_headline
from agents.verification.summary import FLAGGED, SUSPECT
from agents.verification.trims import is_safe_trim

log = logging.getLogger(__name__)
MODEL_RULE = "model"  # the rule family of the verifier's own issues
# The verification budget: a 3,000-character article (the longest we write) with every claim
# listed fits (about 40 sentences × 2.5 claims × ~40 tokens, evidence spans only for what code
# flagged); an answer cut off all the same is asked again per half of the sentences.
VERIFY_MAX_TOKENS = 8192


class ClaimCheck(BaseModel):
    claim: str = Field(max_length=300, description="기사 속 사실 주장 (60자 이내)")
    status: Literal["confirmed", "not_found", "contradicted"]
    kind: Literal["number", "date", "quote", "name", "other"] = "other"
    sentence: int = Field(description="주장이 담긴 문장 번호 (제목은 0)")
    source: str = Field(default="", max_length=300, description="근거 자료 번호나 짧은 근거")
    evidence_quote: str = Field(
        default="",
        max_length=400,
        description="confirmed의 근거: 자료에 적힌 구절을 한 글자도 바꾸지 않고 그대로",
    )
    derivation: Derivation | None = Field(
        default=None, description="자료의 수치를 계산해 얻은 수치일 때: 계산 방법과 자료에 적힌 그대로의 수치"
    )
    reason: str = Field(default="", max_length=200, description="not_found나 contradicted인 이유 (짧게)")


class SentenceRevision(BaseModel):
    sentence: int = Field(description="고칠 문장 번호")
    text: str = Field(max_length=2000, description="문제 부분만 덜어낸 문장. 전부 삭제하려면 빈 문자열")


class VerifyArticleInput(BaseModel):
    thinking: str = Field(default="", max_length=3000, description="대조 과정 요약 (세 문장 이내)")
    verdict: Literal["pass", "needs_revision"]
    issues: list[ClaimCheck] = Field(default_factory=list, max_length=200)
    revisions: list[SentenceRevision] = Field(default_factory=list, max_length=100)
    headline: str = Field(
        default="",
        max_length=200,
        description="제목(문장 0)에 문제가 있을 때만: 문제없는 본문 내용만으로 다시 쓴 제목",
    )


VERIFY_ARTICLE = llm.Tool(
    "verify_article", "기사의 사실관계를 원본 자료와 대조한 결과를 제출한다.", VerifyArticleInput
)


@dataclass
class Issue:
    claim: str
    status: str
    kind: str
    source: str
    origin: str  # code | llm
    sentence_index: int | None  # 1-based; 0 is the headline
    action: str = "kept"  # kept | deleted | trimmed
    reason: str = ""  # why it was flagged, or how code confirmed what the guard alone could not
    formula: str = ""  # a derived figure's recomputed formula
    context: str = ""  # the sentence a code finding stands in: evidence is read in it
    rule: str = ""  # the rule family that raised it (the guard's, or MODEL_RULE)
    # A suspect claim's two source spans: what the source says about its subject, and where the
    # source states its value (about something else).
    spans: tuple[str, str] = ("", "")


@dataclass
class Verification:
    verdict: str  # pass | revised | skipped
    body: str
    issues: list[Issue]
    warnings: list[str] = field(default_factory=list)
    headline: str = ""  # the headline to deliver: the original, or one with no unsupported fact


def verify_article(
    *, ctx: llm.CallContext | None, headline: str, body: str, material: list[SourceDoc], reference: date
) -> Verification:
    """Checks `body` and `headline` against `material`. Without `ctx` only the code guard runs."""
    sentences = split_sentences(body)
    texts = [f"{doc.title}\n{doc.text}" for doc in material]
    issues = code_issues(body=body, sources=texts, reference=reference)
    issues += headline_issues(headline=headline, body=body, sources=texts, reference=reference)
    warnings: list[str] = []
    revisions: dict[int, str] = {}
    proposed_headline = ""
    llm_ran = False
    if ctx is not None:
        try:
            result = _model_checks(ctx, headline, sentences, material, issues)
            apply_evidence(issues=issues, checks=result.issues, sources=texts, reference=reference)
            suspects.settle(issues=issues, checks=result.issues, sources=texts, reference=reference)
            issues += _model_issues(result, len(sentences))
            revisions = {r.sentence: r.text for r in result.revisions}
            proposed_headline = result.headline
            llm_ran = True
        except llm.LLMBadOutput as exc:
            log.warning("verification output unusable, keeping the code guard only: %s", exc)
            warnings.append(msg.VERIFY_MODEL_MISSING)
    if not llm_ran:
        suspects.mark_unchecked(issues=issues)
    cut = (*FLAGGED, SUSPECT) if llm_ran else FLAGGED
    final = revise(
        sentences=sentences, issues=issues, revisions=revisions, sources=texts, reference=reference, cut=cut
    )
    settled = settle_headline(
        headline=headline,
        issues=issues,
        proposed=proposed_headline,
        body=final,
        sources=texts,
        reference=reference,
        cut=cut,
    )
    warnings += settled.warnings
    if any(issue.action != "kept" for issue in issues):
        verdict = "revised"
    else:
        verdict = "pass" if llm_ran or ctx is None else "skipped"
    if not final and sentences:
        warnings.append(msg.VERIFY_ALL_CUT)
    return Verification(verdict, final, issues, warnings, settled.headline)


def code_issues(*, body: str, sources: list[str], reference: date | None) -> list[Issue]:
    sentences = {s.index: s.text for s in split_sentences(body)}
    return [
        _code_issue(finding, sentences.get(finding.fact.sentence, body), sources)
        for finding in article_findings(body=body, sources=sources, reference=reference)
    ]


def headline_issues(*, headline: str, body: str, sources: list[str], reference: date | None) -> list[Issue]:
    """The headline's facts, checked as the restatement of body it is and numbered 0."""
    if not headline.strip():
        return []
    findings = headline_findings(headline=headline, body=body, sources=sources, reference=reference)
    issues = [_code_issue(finding, headline, sources) for finding in findings]
    for issue in issues:
        issue.sentence_index = 0
    return issues


def _code_issue(finding: Any, context: str, sources: list[str]) -> Issue:
    """One guard finding; a guard that tells contradicted from not_found passes its status on."""
    supported = bool(finding.supported)
    status = getattr(finding, "status", "") or ("confirmed" if supported else "not_found")
    fallback = {"contradicted": msg.CONTRADICTED_BY_CODE, SUSPECT: msg.SUSPECT_DEFAULT}
    reason = (
        ""
        if status == "confirmed"
        else (getattr(finding, "reason", "") or fallback.get(status, msg.NOT_IN_SOURCES))
    )
    evidence_text = getattr(finding, "evidence", "") or ""
    spans = ("", "")
    source = evidence_text if status == "confirmed" else msg.NOT_IN_SOURCES
    if status == SUSPECT:
        spans = (
            evidence_text,
            suspects.source_span(sources=sources, location=getattr(finding, "value_at", None)),
        )
        source = msg.SUSPECT_SPANS.format(subject=spans[0] or "-", value=spans[1] or "-")
    return Issue(
        claim=finding.fact.text,
        status=status,
        kind=finding.fact.kind,
        source=source,
        origin="code",
        sentence_index=finding.fact.sentence,
        reason=reason,
        formula=getattr(finding, "formula", "") or "",
        context=context,
        rule=_rule_of(finding, status),
        spans=spans,
    )


def _rule_of(finding: Any, status: str) -> str:
    """The guard names the rule family of each finding; a finding from before it did is filed
    under its status, so no issue is left without one."""
    return str(getattr(finding, "rule", "") or ("absent" if status == "not_found" else f"guard:{status}"))


def apply_evidence(
    *, issues: list[Issue], checks: list[ClaimCheck], sources: list[str], reference: date | None
) -> None:
    """A figure code did not find is kept only on evidence code can check (agents.verification.evidence).

    Code-contradicted figures are never reopened; the verifier's "confirmed" alone keeps nothing.
    """
    for issue in issues:
        if issue.origin != "code" or issue.status != "not_found":
            continue
        offered = [c for c in checks if c.sentence == issue.sentence_index]
        checked = _checked_by(issue, offered, sources, reference)
        if checked is not None:
            issue.status = "confirmed"
            issue.source = f"자료 {checked.source}: {checked.span}" if checked.span else checked.formula
            issue.formula = checked.formula
            issue.reason = msg.KEPT_BY_DERIVATION if checked.formula else msg.KEPT_BY_SPAN
        elif any(c.evidence_quote or c.derivation for c in offered):
            issue.reason = msg.EVIDENCE_REJECTED
        elif any(c.status == "confirmed" and _mentions(c, issue.claim) for c in offered):
            issue.reason = msg.EVIDENCE_MISSING


def _checked_by(
    issue: Issue, offered: list[ClaimCheck], sources: list[str], reference: date | None
) -> evidence.Checked | None:
    for check in offered:
        if check.status != "confirmed":
            continue
        if check.evidence_quote:
            found = evidence.span_supports(
                fact=issue.claim,
                span=check.evidence_quote,
                sources=sources,
                reference=reference,
                sentence=issue.context,
            )
            if found:
                return found
        if check.derivation is not None and issue.kind == "number":
            found = evidence.derivation_supports(
                fact=issue.claim, derivation=check.derivation, sources=sources, sentence=issue.context
            )
            if found:
                return found
    return None


def _mentions(check: ClaimCheck, claim: str) -> bool:
    return evidence.normalise(claim) in evidence.normalise(check.claim)


def _model_checks(
    ctx: llm.CallContext,
    headline: str,
    sentences: list[Sentence],
    material: list[SourceDoc],
    issues: list[Issue],
) -> VerifyArticleInput:
    """The verifier's answer; one cut off by the output budget is asked again per half of the
    sentences (numbers kept), so a long article is checked in parts rather than not at all."""
    try:
        return _ask_model(ctx, headline, sentences, material, issues)
    except llm.LLMTruncated:
        if len(sentences) < 2:
            raise
        log.info("verification cut off at %s sentences; asking per half", len(sentences))
    half = len(sentences) // 2
    parts = [
        _model_checks(ctx, headline, part, material, issues) for part in (sentences[:half], sentences[half:])
    ]
    needs_revision = any(p.verdict == "needs_revision" for p in parts)
    return VerifyArticleInput(
        thinking=" ".join(p.thinking for p in parts)[:3000],
        verdict="needs_revision" if needs_revision else "pass",
        issues=[i for p in parts for i in p.issues],
        revisions=[r for p in parts for r in p.revisions],
    )


def _ask_model(
    ctx: llm.CallContext,
    headline: str,
    sentences: list[Sentence],
    material: list[SourceDoc],
    issues: list[Issue],
) -> VerifyArticleInput:
    numbered = "\n".join(f"[{s.index}] {s.text}" for s in sentences)
    shown = {s.index for s in sentences} | {0}
    flagged = [i for i in issues if i.status in FLAGGED and i.sentence_index in shown]
    suspect = [i for i in issues if i.status == SUSPECT and i.sentence_index in shown]
    parts = [
        f"<기사>\n제목: {headline}\n{numbered}\n</기사>",
        f"<자료>\n{numbered_sources(material)}\n</자료>",
    ]
    if flagged:
        lines = "\n".join(f'- {suspects.where(i)}: "{i.claim}"' for i in flagged)
        parts.append(f"<코드_검사>\n{prompts.load('code_check')}\n{lines}\n</코드_검사>")
    if suspect:
        parts.append(
            f"<코드_의심>\n{prompts.load('code_suspect')}\n{suspects.prompt_lines(suspect)}\n</코드_의심>"
        )
    return llm.call_tool(
        ctx=ctx,
        purpose="verify_article",
        system=prompts.load("verify_system"),
        messages=[{"role": "user", "content": "\n\n".join(parts)}],
        tool=VERIFY_ARTICLE,
        schema=VerifyArticleInput,
        max_tokens=VERIFY_MAX_TOKENS,
    )


def _model_issues(result: VerifyArticleInput, sentence_count: int) -> list[Issue]:
    issues = []
    for check in result.issues:
        if not 0 <= check.sentence <= sentence_count:
            log.warning("verifier cited sentence %s of %s; dropped", check.sentence, sentence_count)
            continue
        source = check.source
        if check.status == "confirmed" and check.evidence_quote:
            source = check.evidence_quote
        reason = check.reason if check.status != "confirmed" else ""
        issues.append(
            Issue(
                check.claim,
                check.status,
                check.kind,
                source,
                "llm",
                check.sentence,
                reason=reason,
                rule=MODEL_RULE,
            )
        )
    return issues


def revise(
    *,
    sentences: list[Sentence],
    issues: list[Issue],
    revisions: dict[int, str],
    sources: list[str],
    reference: date | None,
    cut: Sequence[str] = FLAGGED,
) -> str:
    """Rebuilds the body: unflagged sentences verbatim, flagged ones (statuses in `cut`) trimmed
    (if the trim is safe) or cut."""
    flagged = {i.sentence_index for i in issues if i.status in cut and i.sentence_index}
    kept: list[Sentence] = []
    actions: dict[int, str] = {}
    for sentence in sentences:
        if sentence.index not in flagged:
            kept.append(sentence)
            continue
        trimmed = revisions.get(sentence.index, "").strip()
        if trimmed and is_safe_trim(
            original=sentence.text, trimmed=trimmed, sources=sources, reference=reference
        ):
            kept.append(Sentence(sentence.index, trimmed, sentence.paragraph))
            actions[sentence.index] = "trimmed"
        else:
            actions[sentence.index] = "deleted"
    for issue in issues:
        if issue.sentence_index in actions and issue.status in cut:
            issue.action = actions[issue.sentence_index]
    return join_sentences(kept)

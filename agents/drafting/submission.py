"""A submitted article, reviewed in code: accepted as a Draft or sent back with the reason."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from pydantic import ValidationError

from agents import messages as msg
from agents import prompts
from agents.drafting import tools
from agents.drafting.material import LengthTarget, SourceDoc, article_length
from agents.facts.keyfacts_model import checked_key_facts
from agents.llm import client as llm
from agents.verification.guard import normalize_body


@dataclass
class Draft:
    headline: str
    body: str
    sources: list[dict[str, str]]
    material: list[SourceDoc]
    target: LengthTarget
    warnings: list[str] = field(default_factory=list)
    turns: int = 0
    deadline_note: str = ""  # why the writing deadline ended the loop early, for the reporter
    # The release's key facts as submitted with the article, checked against the release.
    key_facts: list[dict[str, str]] = field(default_factory=list)

    @property
    def length(self) -> int:
        return article_length(self.body)


@dataclass(frozen=True)
class Rejection:
    """Why a submission went back to the model; a length miss is re-asked only once."""

    feedback: str
    about_length: bool = False
    kept: Draft | None = None  # the article as it would go out if no better one comes


def results_for(uses: list[llm.ToolUse], submit_id: str, feedback: str) -> list[dict[str, Any]]:
    """Every tool_use needs a tool_result; calls made alongside a rejected submission are skipped."""
    results = []
    for use in uses:
        content = feedback if use.id == submit_id else tools.RESULT_SKIPPED_WITH_SUBMIT
        results.append({"type": "tool_result", "tool_use_id": use.id, "content": content, "is_error": True})
    return results


def review_submission(
    state: tools.WritingState, use: llm.ToolUse, target: LengthTarget, reasked_length: bool
) -> Draft | Rejection:
    try:
        args = tools.SubmitArticleInput.model_validate(use.input)
    except ValidationError as exc:
        return Rejection(tools.RESULT_BAD_INPUT.format(problem=llm.describe_error(exc)))
    body, headline = normalize_body(args.body), " ".join(args.headline.split())
    if not body or not headline:
        return Rejection(tools.RESULT_EMPTY_ARTICLE)
    length = article_length(body)
    warnings = list(state.warnings)
    if not target.accepts(length):
        warnings.append(msg.LENGTH_MISSED.format(target=target.describe(), length=length))
        if not reasked_length:
            feedback = prompts.load("reask_length").format(length=length, target=target.describe())
            kept = _accepted(state, args, headline, body, target, warnings)
            return Rejection(feedback, about_length=True, kept=kept)
    return _accepted(state, args, headline, body, target, warnings)


def _accepted(
    state: tools.WritingState,
    args: tools.SubmitArticleInput,
    headline: str,
    body: str,
    target: LengthTarget,
    warnings: list[str],
) -> Draft:
    cited = state.known_indices(args.source_indices)
    sources = [*state.given_sources, *(state.candidates[n].listed() for n in cited)]
    material = [*state.material, *_cited_descriptions(state, cited)]
    release = next((doc.text for doc in state.material if doc.kind == "press_release"), "")
    key_facts = checked_key_facts(release=release, listed=args.key_facts) if release else []
    return Draft(headline, body, sources, material, target, warnings, key_facts=key_facts)


def _cited_descriptions(state: tools.WritingState, cited: list[int]) -> list[SourceDoc]:
    """A cited candidate the model only saw as a summary is checked against that summary."""
    return [
        state.candidates[number].source(state.candidates[number].description)
        for number in cited
        if number not in state.selected
    ]

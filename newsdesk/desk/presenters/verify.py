"""The claims table a reporter can read: claims grouped by sentence, problems first.

Each flagged claim shows why it was flagged; each confirmation shows the source span or the
formula behind it. A suspect claim left in the article (no model settled it) is a problem too,
marked "확인 필요" for the reporter to check. Confirmed date words with no digit in them (올해,
지난달, 이날) are folded away: they are checked, but listing them would bury the figures that
matter.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from django.utils.safestring import SafeString

from agents import selectors as agent_selectors
from agents.models import Article, VerificationIssue
from agents.services import Verification
from newsdesk.desk import diff

FLAGGED = (VerificationIssue.Status.NOT_FOUND, VerificationIssue.Status.CONTRADICTED)
# Listed first under the sentence: what was cut or trimmed, and suspects, cut or marked.
PROBLEMS = (*FLAGGED, VerificationIssue.Status.SUSPECT)
NEEDS_CHECK_LABEL = "확인 필요"
HEADLINE_LABEL = "제목"
NO_SENTENCE_LABEL = "위치 없음"


class IssueLike(Protocol):
    """A saved VerificationIssue or the verify-only check's unsaved agents.verification.verify.Issue."""

    claim: str
    status: str
    kind: str
    source: str
    origin: str
    sentence_index: int | None
    action: str


@dataclass(frozen=True)
class ClaimRow:
    number: int
    claim: str
    status: str
    status_label: str
    kind_label: str
    source: str  # the source span (or snippet) behind a confirmation; the reference given otherwise
    origin_label: str
    action: str
    action_label: str
    sentence: int | None  # 0 is the headline
    row_id: str  # the row's id, which the diff's claim links point at
    anchor: str  # "#…-sN" where the cut sentence is shown, or ""
    reason: str = ""  # why it was flagged, or how code confirmed it
    formula: str = ""  # a derived figure's recomputed formula
    folded: bool = False  # a confirmed date word with no digit: shown folded away
    needs_check: bool = False  # a suspect claim kept in the article: the reporter checks it
    rule: str = ""  # the rule family that raised it

    @property
    def flagged(self) -> bool:
        """Found wrong or unsupported: flagged, or suspect and then cut."""
        return self.status in FLAGGED or (self.status in PROBLEMS and self.action != "kept")


@dataclass
class ClaimGroup:
    """The claims of one sentence (0 = the headline): problems, confirmations, folded date words."""

    sentence: int | None
    label: str
    text: str  # the sentence as drafted, so a reporter reads the claim in its place
    action: str  # the strongest action taken on the sentence: deleted > trimmed > kept
    action_label: str
    problems: list[ClaimRow] = field(default_factory=list)
    confirmed: list[ClaimRow] = field(default_factory=list)
    folded: list[ClaimRow] = field(default_factory=list)


def ordered(issues: Iterable[IssueLike]) -> list[IssueLike]:
    """Sentences with a problem first (in reading order), then the rest; problems first within each."""
    issues = list(issues)
    troubled = {i.sentence_index for i in issues if i.status in PROBLEMS}

    def key(issue: IssueLike) -> tuple[bool, int, bool, bool, int]:
        sentence = issue.sentence_index if issue.sentence_index is not None else 10_000
        return (
            issue.sentence_index not in troubled,
            sentence,
            issue.status not in PROBLEMS,
            is_folded(issue),
            int(getattr(issue, "pk", 0) or 0),
        )

    return sorted(issues, key=key)


def needs_check(issue: IssueLike) -> bool:
    """A suspect claim the article kept: no model settled it, so the reporter checks it."""
    return issue.status == VerificationIssue.Status.SUSPECT and issue.action == VerificationIssue.Action.KEPT


def is_folded(issue: IssueLike) -> bool:
    return issue.status == "confirmed" and issue.kind == "date" and not any(c.isdigit() for c in issue.claim)


def claim_rows(*, issues: Iterable[IssueLike], anchor_prefix: str) -> list[ClaimRow]:
    """Numbered rows of the claims table, in the order given (see `ordered`)."""
    rows = []
    for number, issue in enumerate(issues, start=1):
        cut = issue.status in PROBLEMS and issue.action != VerificationIssue.Action.KEPT
        rows.append(
            ClaimRow(
                number=number,
                claim=issue.claim,
                status=issue.status,
                status_label=label(VerificationIssue.Status, issue.status),
                kind_label=label(VerificationIssue.Kind, issue.kind),
                source=issue.source,
                origin_label=label(VerificationIssue.Origin, issue.origin),
                action=issue.action,
                action_label=label(VerificationIssue.Action, issue.action),
                sentence=issue.sentence_index,
                row_id=f"{anchor_prefix}-c{number}",
                anchor=f"#{anchor_prefix}-s{issue.sentence_index}" if cut and issue.sentence_index else "",
                reason=getattr(issue, "reason", "") or "",
                formula=getattr(issue, "formula", "") or "",
                folded=is_folded(issue),
                needs_check=needs_check(issue),
                rule=getattr(issue, "rule", "") or "",
            )
        )
    return rows


def claim_groups(*, claims: Sequence[ClaimRow], texts: Mapping[int, str]) -> list[ClaimGroup]:
    """The rows grouped by sentence, keeping their order; `texts` are the sentences by number."""
    groups: dict[int | None, ClaimGroup] = {}
    for row in claims:
        group = groups.get(row.sentence)
        if group is None:
            group = groups[row.sentence] = _group(row.sentence, texts)
        if row.status in PROBLEMS:
            group.problems.append(row)
        elif row.folded:
            group.folded.append(row)
        else:
            group.confirmed.append(row)
    return [_with_action(group) for group in groups.values()]


_STRENGTH = {"deleted": 2, "trimmed": 1, "kept": 0}


def _group(sentence: int | None, texts: Mapping[int, str]) -> ClaimGroup:
    if sentence == 0:
        name = HEADLINE_LABEL
    elif sentence:
        name = f"{sentence}번 문장"
    else:
        name = NO_SENTENCE_LABEL
    return ClaimGroup(sentence, name, texts.get(sentence, "") if sentence is not None else "", "kept", "")


def _with_action(group: ClaimGroup) -> ClaimGroup:
    action = max((row.action for row in group.problems), key=lambda a: _STRENGTH.get(a, 0), default="kept")
    group.action = action
    group.action_label = label(VerificationIssue.Action, action) if action != "kept" else ""
    return group


def sentence_texts(*, headline: str, body: str) -> dict[int, str]:
    texts = {s.index: s.text for s in agent_selectors.body_sentences(body=body)}
    texts[0] = headline
    return texts


def claims_by_sentence(*, claims: Sequence[ClaimRow]) -> dict[int, list[int]]:
    """Flagged claims per sentence: the reasons a sentence was cut or trimmed."""
    found: dict[int, list[int]] = {}
    for row in claims:
        if row.flagged and row.sentence:
            found.setdefault(row.sentence, []).append(row.number)
    return found


def label(choices: Any, value: str) -> str:
    try:
        return str(choices(value).label)
    except ValueError:
        return value


# --- verify-only (no run) -------------------------------------------------------------------
@dataclass(frozen=True)
class VerifyView:
    verdict: str  # pass | revised
    verdict_label: str
    claims: list[ClaimRow]
    groups: list[ClaimGroup]
    flagged: int
    highlight: SafeString
    body: str
    warnings: list[str]
    needs_check: int = 0  # suspect claims kept for the reporter to check


def verify_view(*, article: str, check: Verification) -> VerifyView:
    claims = claim_rows(issues=ordered(check.issues), anchor_prefix="v")
    flagged: dict[int, list[diff.ClaimRef]] = {}
    marked: dict[int, list[diff.ClaimRef]] = {}
    for row in claims:
        if row.sentence and (row.flagged or row.needs_check):
            into = flagged if row.flagged else marked
            into.setdefault(row.sentence, []).append(diff.ClaimRef(row.number, row.claim))
    verdict = "revised" if check.verdict == "revised" else "pass"
    return VerifyView(
        verdict=verdict,
        verdict_label=label(Article.Verdict, verdict),
        claims=claims,
        groups=claim_groups(claims=claims, texts=sentence_texts(headline="", body=article)),
        flagged=sum(1 for c in claims if c.flagged),
        highlight=diff.render_highlight(article, flagged, anchor_prefix="v", marked=marked),
        body=check.body,
        warnings=list(check.warnings),
        needs_check=sum(1 for c in claims if c.needs_check),
    )

"""The material the monitoring model calls read: the numbered article list and the history.

A `Candidate` is one article as the pipeline knows it (search result + scraped body); the model
sees it only as number n in a list, never its URL. The builders here render the user messages
of `filter_news`, `submit_analysis` and `submit_report` (the system prompts are files in
agents/prompts/). Article and history text is folded onto one line, so a title or body can never
start a fake list entry of its own.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, datetime
from zoneinfo import ZoneInfo

KST = ZoneInfo("Asia/Seoul")
NO_HISTORY = "(이력 없음)"
# Fixed phrases of the user messages (the system prompts are files in agents/prompts/).
REPORTED_HEADER = "이미 보고한 기사입니다. 핵심 사실이 같으면 다시 보고하지 않습니다."
SKIPPED_HEADER = "전에 제외한 기사입니다. 핵심 사실이 같으면 계속 제외합니다."
BRIEFED_HEADER = "최근 브리핑한 기사입니다. 핵심 사실이 같으면 다시 보고하지 않습니다."
EXISTING_HEADER = "오늘 이미 브리핑한 항목입니다."
CHECK_ASK = "위 기사들을 규칙대로 분석해 submit_analysis로 제출하세요."
REPORT_FIRST_ASK = "위 기사들을 규칙대로 분석해 데스크가 알아야 할 기사를 골라 submit_report로 제출하세요."
REPORT_UPDATE_ASK = (
    "위 기사들을 오늘 브리핑(existing_items)과 비교해 수정하거나 추가할 항목만 submit_report로 제출하세요."
)
NOT_SCRAPED_LABEL = "요약(본문을 가져오지 못함)"


@dataclass(frozen=True)
class Candidate:
    """One article in the numbered list; number n in the prompt is `candidates[n - 1]`."""

    title: str
    publisher: str
    description: str
    link: str  # Naver News URL when Naver hosts the article, else the publisher's URL
    originallink: str
    pub_date: datetime
    body: str = ""
    scraped: bool = False  # False: `body` is the search description (page unreachable or empty)

    @property
    def url(self) -> str:
        return self.link or self.originallink

    @property
    def pub_label(self) -> str:
        return self.pub_date.astimezone(KST).strftime("%Y-%m-%d %H:%M")


@dataclass(frozen=True)
class CheckHistory:
    """A row of the 72 h /check history (reported and skipped)."""

    checked_at: datetime
    topic_cluster: str
    summary: str
    category: str
    reason: str


@dataclass(frozen=True)
class BriefingHistory:
    title: str
    summary: str
    day: date


@dataclass(frozen=True)
class ExistingItem:
    """A story already in today's briefing, shown to the model as 항목<n>."""

    title: str
    summary: str


# --- user messages ---------------------------------------------------------------------------
def filter_user(candidates: Sequence[Candidate]) -> str:
    lines = [
        f"[{n}] {c.publisher or '?'} | {_line(c.title)} | {_line(c.description)}"
        for n, c in enumerate(candidates, start=1)
    ]
    return (
        "<articles>\n"
        + "\n".join(lines)
        + "\n</articles>\n위 목록에서 고를 기사 번호를 filter_news로 제출하세요."
    )


def analysis_user(
    *, candidates: Sequence[Candidate], history: Sequence[CheckHistory], keywords: Sequence[str]
) -> str:
    reported = [h for h in history if h.category != "skip"]
    skipped = [h for h in history if h.category == "skip"]
    lines = [
        f'- {_when(h.checked_at)} 보고: "{h.topic_cluster}"\n  요약: {_line(h.summary)}' for h in reported
    ]
    parts = [_section("report_history", REPORTED_HEADER, lines)]
    if skipped:
        skip_lines = [f'- "{h.topic_cluster}" → {_line(h.reason)}' for h in skipped]
        parts.append(_section("skip_history", SKIPPED_HEADER, skip_lines))
    parts.append(_articles(candidates, body_label="본문(1~3문단)"))
    parts.append(CHECK_ASK)
    if keywords:
        # In long prompts the model lost track of the keywords; repeat them last.
        parts.append(f"<keywords>{', '.join(keywords)}</keywords>")
    return "\n\n".join(parts)


def report_user(
    *, candidates: Sequence[Candidate], history: Sequence[BriefingHistory], existing: Sequence[ExistingItem]
) -> str:
    lines = [f'- "{h.title}" | {_line(h.summary)} | {h.day.isoformat()}' for h in history]
    parts = [_section("briefing_history", BRIEFED_HEADER, lines)]
    if existing:
        items = [
            f"- 항목{n} | {_line(e.title)} | 요약: {_line(e.summary)}" for n, e in enumerate(existing, 1)
        ]
        parts.append(_section("existing_items", EXISTING_HEADER, items))
    parts.append(_articles(candidates, body_label="본문"))
    parts.append(REPORT_UPDATE_ASK if existing else REPORT_FIRST_ASK)
    return "\n\n".join(parts)


def _section(tag: str, header: str, lines: Sequence[str]) -> str:
    return f"<{tag}>\n{header}\n" + ("\n".join(lines) if lines else NO_HISTORY) + f"\n</{tag}>"


def _articles(candidates: Sequence[Candidate], *, body_label: str) -> str:
    blocks = []
    for n, c in enumerate(candidates, start=1):
        block = f"{n}. [{c.publisher or '?'}] {_line(c.title)}"
        if c.body and c.scraped:
            block += f"\n   {body_label}: {_line(c.body)}"
        elif c.body:
            block += f"\n   {NOT_SCRAPED_LABEL}: {_line(c.body)}"
        block += f"\n   시각: {c.pub_label}"
        blocks.append(block)
    return "<articles>\n" + "\n".join(blocks) + "\n</articles>"


def _when(moment: datetime) -> str:
    return moment.astimezone(KST).strftime("%Y-%m-%d %H:%M")


def _line(text: str) -> str:
    """One line of prompt text: newlines folded, so an article cannot fake a new list entry."""
    return " ".join(text.split())

"""The writing agent's tools: schemas the model sees and the code that runs each call.

The model only ever outputs numbers for articles and attachments; code maps them to titles,
URLs and texts, and range-checks them (an unknown number is dropped and logged).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

from django.utils import timezone
from pydantic import BaseModel, Field

from agents.drafting import attachments, relevance
from agents.drafting.attachments import AttachmentRef
from agents.drafting.material import SourceDoc
from agents.facts.keyfacts_model import MAX_FACTS, KeyFactItem
from agents.llm.client import Tool
from agents.sources import files, naver, publishers, scraper, titles
from styles.selectors import ResolvedStyle

log = logging.getLogger(__name__)

CANDIDATE_LIMIT = 15
SELECT_LIMIT = 10
ARTICLE_CHARS = 2500
ATTACHMENT_CHARS = files.MODEL_TEXT_CHARS  # what the model can take, not a page count


# What the model reads back from a tool call (model-facing, so they live with the tools).
RESULT_BAD_INPUT = "입력 형식 오류: {problem}"
RESULT_UNKNOWN_TOOL = "알 수 없는 도구입니다: {name}"
RESULT_EMPTY_ARTICLE = "제목이나 본문이 비어 있습니다. 완성된 기사를 다시 제출하세요."
RESULT_SKIPPED_WITH_SUBMIT = "제출과 함께 호출되어 실행하지 않았습니다."
RESULT_NO_RESULTS = "검색 결과가 없습니다. 주어진 자료만으로 작성하세요."
RESULT_NOTHING_SELECTED = "선택한 기사가 없습니다."
RESULT_UNKNOWN_NUMBER = "없는 번호 {number}은(는) 무시했습니다."
RESULT_NO_BODY = " (본문을 가져오지 못해 요약만 제공)"
RESULT_NO_ATTACHMENT = "첨부파일 번호 {index}은(는) 없습니다. 0~{last} 중에서 고르세요."
RESULT_SEARCH_FAILED = "뉴스 검색 실패: {reason}"
# Tools stay listed on every turn (a changing list would void the prompt cache); a call that is
# not useful at this point is refused here instead.
RESULT_ALREADY_SEARCHED = (
    "관련 기사는 이미 검색해 후보 목록으로 드렸습니다. 다시 검색하지 말고 select_articles로 고르세요."
)
RESULT_NO_CANDIDATES_YET = "아직 관련 기사 후보가 없습니다. 먼저 fetch_articles로 검색하세요."
RESULT_ATTACHMENTS_READ = "첨부파일은 이미 모두 읽어 자료에 들어 있습니다."


# A tool may hand back a callable: the network part ran in a thread, and the callable records the
# result in the shared state on the loop's thread, in the order the model made the calls, so
# article numbers do not depend on which search finished first.
ToolOutput = str | Callable[[], str]


class ToolFailed(Exception):
    """Reported back to the model as an error tool_result; the loop goes on."""


# --- schemas --------------------------------------------------------------------------------
class AnalyzeAttachmentInput(BaseModel):
    file_index: int = Field(ge=0, description="첨부파일 목록의 번호 (0부터)")


class FetchArticlesInput(BaseModel):
    keywords: list[str] = Field(min_length=1, max_length=3, description="검색 키워드 1~3개")
    hours: int = Field(default=24, ge=1, le=168, description="최근 몇 시간 안의 기사만 볼지 (기본 24)")


class SelectArticlesInput(BaseModel):
    selected_indices: list[int] = Field(
        max_length=SELECT_LIMIT, description="고른 관련 기사 번호 (최대 10건)"
    )


class GetWritingStyleInput(BaseModel):
    pass


class SubmitArticleInput(BaseModel):
    headline: str = Field(min_length=1, max_length=200, description="기사 제목")
    body: str = Field(min_length=1, max_length=8000, description="기사 본문 (문단은 빈 줄로 구분)")
    word_count: int | None = Field(default=None, description="본문 글자 수 (공백 포함)")
    source_indices: list[int] = Field(default_factory=list, description="참고한 관련 기사 번호")
    # Additive: the release's must-carry facts, so no call of their own is needed (code checks each).
    key_facts: list[KeyFactItem] = Field(
        default_factory=list,
        max_length=MAX_FACTS,
        description="보도자료가 있을 때: 기사가 반드시 담아야 할 핵심 사실, 중요한 것부터 최대 5개",
    )


ANALYZE_ATTACHMENT = Tool(
    "analyze_attachment",
    "첨부파일을 열어 텍스트를 읽는다. 첨부파일 목록이 있을 때만 쓴다.",
    AnalyzeAttachmentInput,
)
FETCH_ARTICLES = Tool(
    "fetch_articles",
    "키워드로 네이버 뉴스를 검색한다. 결과는 번호가 붙은 언론사·제목·요약 목록이다. 필요한 기사는 "
    "select_articles로 고른다.",
    FetchArticlesInput,
)
SELECT_ARTICLES = Tool(
    "select_articles", "관련 기사 목록에서 기사 번호를 골라 본문을 받는다.", SelectArticlesInput
)
GET_WRITING_STYLE = Tool(
    "get_writing_style", "부서의 기사 작성 스타일 가이드를 읽는다.", GetWritingStyleInput
)
SUBMIT_ARTICLE = Tool(
    "submit_article", "완성한 기사를 제출한다. 참고 기사는 URL이 아니라 번호로 적는다.", SubmitArticleInput
)


# --- state --------------------------------------------------------------------------------
@dataclass(frozen=True)
class Candidate:
    number: int
    title: str
    url: str
    publisher: str
    description: str
    scrape_url: str

    def line(self) -> str:
        return f"[{self.number}] {self.publisher} | {self.title} | {self.description[:100]}"

    def listed(self) -> dict[str, str]:
        """The candidate in the article's `sources` list."""
        return {"title": self.title, "url": self.url, "kind": "search", "outlet": self.publisher}

    def source(self, text: str) -> SourceDoc:
        """The candidate as material the article is checked against (its page, or its summary)."""
        return SourceDoc("search", f"{self.publisher} | {self.title}", text, self.url, outlet=self.publisher)


# Reads an attachment's bytes into text. The service layer passes one that hands OCR work to the
# io worker; the default reads here and refuses files that need OCR.
FileReader = Callable[[bytes, AttachmentRef], files.Extracted]


def read_here(data: bytes, ref: AttachmentRef) -> files.Extracted:
    return files.extract_text(data=data, file_name=ref.file_name, mime_type=ref.mime_type)


@dataclass
class WritingState:
    """What the loop has gathered so far; shared by the tool calls of one run."""

    style: ResolvedStyle
    department: str = ""  # the reporter's desk: search results far from it are left out
    read_file: FileReader = read_here
    attachments: list[AttachmentRef] = field(default_factory=list)
    attachment_texts: dict[int, str] = field(default_factory=dict)
    candidates: dict[int, Candidate] = field(default_factory=dict)
    selected: dict[int, str] = field(default_factory=dict)
    material: list[SourceDoc] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    dropped_indices: list[int] = field(default_factory=list)
    pages: files.PageRange | None = None  # the pages of a long PDF attachment to read
    searched_by_code: bool = False  # the candidates came from code's own search: no model search
    # Sources listed under every article of this run whatever the model cites (a follow-up's article).
    given_sources: list[dict[str, str]] = field(default_factory=list)
    # Results by call signature (tool + arguments): a repeated call gets the earlier result and
    # pays for no second search or scrape.
    results: dict[str, tuple[str, bool]] = field(default_factory=dict)

    def add_candidates(self, found: list[Candidate]) -> list[Candidate]:
        known = {c.url for c in self.candidates.values()}
        added = []
        for item in found:
            if item.url in known:
                continue
            number = len(self.candidates) + 1
            candidate = Candidate(
                number, item.title, item.url, item.publisher, item.description, item.scrape_url
            )
            self.candidates[number] = candidate
            known.add(item.url)
            added.append(candidate)
        return added

    def known_indices(self, indices: list[int]) -> list[int]:
        """Keeps known numbers once each; unknown ones are dropped and logged, never trusted."""
        valid, seen = [], set()
        for index in indices:
            if index in self.candidates and index not in seen:
                valid.append(index)
                seen.add(index)
            elif index not in self.candidates:
                self.dropped_indices.append(index)
                log.warning(
                    "model referred to unknown article number %s (have %s)", index, len(self.candidates)
                )
        return valid


# --- executors ----------------------------------------------------------------------------
def search_candidates(*, keywords: list[str], hours: int, department: str = "") -> list[Candidate]:
    """Naver search → publisher whitelist → title filter → department filter; numbered later by
    the state."""
    since = timezone.now() - timedelta(hours=hours)
    found: list[Candidate] = []
    seen: set[str] = set()
    for keyword in keywords:
        for item in naver.search_one(query=keyword, display=30, since=since):
            url = item.originallink or item.link
            publisher = publishers.publisher_for_url(item.originallink) if item.originallink else None
            if not publisher or url in seen or titles.is_skipped_for_check(item.title):
                continue
            if relevance.belongs_elsewhere(text=f"{item.title} {item.description}", department=department):
                continue
            seen.add(url)
            # Naver's own copy (link) has a stable layout our scraper knows; it is the outlet's URL
            # when Naver does not host the article.
            scrape_url = item.link or url
            found.append(Candidate(0, item.title, url, publisher, item.description, scrape_url))
    return found[:CANDIDATE_LIMIT]


def candidate_list(candidates: list[Candidate]) -> str:
    if not candidates:
        return RESULT_NO_RESULTS
    return "\n".join(c.line() for c in candidates)


def fetch_articles(state: WritingState, args: FetchArticlesInput) -> ToolOutput:
    try:
        found = search_candidates(keywords=args.keywords, hours=args.hours, department=state.department)
    except naver.NaverError as exc:
        raise ToolFailed(RESULT_SEARCH_FAILED.format(reason=exc.user_message)) from exc
    return lambda: candidate_list(state.add_candidates(found))


def select_articles(state: WritingState, args: SelectArticlesInput) -> ToolOutput:
    chosen = state.known_indices(args.selected_indices)
    notes = [
        RESULT_UNKNOWN_NUMBER.format(number=n) for n in args.selected_indices if n not in state.candidates
    ]
    if not chosen:
        return " ".join(notes) or RESULT_NOTHING_SELECTED
    targets = [(state.candidates[n].scrape_url, state.candidates[n].description) for n in chosen]
    pages = scraper.scrape_many(targets, max_chars=ARTICLE_CHARS)
    return lambda: _record_selected(state, chosen, pages, notes)


def _record_selected(
    state: WritingState, chosen: list[int], pages: list[scraper.Scraped], notes: list[str]
) -> str:
    blocks = []
    for number, page in zip(chosen, pages, strict=True):
        candidate = state.candidates[number]
        state.selected[number] = page.text
        state.material.append(candidate.source(page.text))
        flag = "" if page.ok else RESULT_NO_BODY
        blocks.append(f"[{number}] {candidate.publisher} | {candidate.title}{flag}\n본문: {page.text}")
    return "\n\n".join([*notes, *blocks])


def analyze_attachment(state: WritingState, args: AnalyzeAttachmentInput) -> str:
    if not 0 <= args.file_index < len(state.attachments):
        last = len(state.attachments) - 1
        raise ToolFailed(RESULT_NO_ATTACHMENT.format(index=args.file_index, last=last))
    if args.file_index in state.attachment_texts:
        return state.attachment_texts[args.file_index]
    text = read_attachment(state, args.file_index)
    return f"[첨부 {args.file_index}] {state.attachments[args.file_index].file_name}\n{text}"


def read_attachment(state: WritingState, index: int) -> str:
    """Downloads and extracts one attachment, recording it as source material."""
    ref = state.attachments[index]
    try:
        files.precheck_metadata(file_name=ref.file_name, mime_type=ref.mime_type, size=ref.file_size)
        data = attachments.fetch(ref)
        extracted = state.read_file(data, ref)
    except (files.FileRejected, attachments.AttachmentUnavailable) as exc:
        raise ToolFailed(exc.user_message) from exc
    # OCR text comes without the digits OCR was unsure of (files.ocr): neither the writer nor the
    # fact check may use a number nobody can vouch for; the reporter is told which ones to check.
    text, cut = files.pick_pages(extracted.source_text, pages=state.pages, max_chars=ATTACHMENT_CHARS)
    state.attachment_texts[index] = text
    state.material.append(SourceDoc("attachment", ref.file_name, text))
    state.warnings.extend([*extracted.warnings, *cut])
    return text


def get_writing_style(state: WritingState, args: GetWritingStyleInput) -> str:
    return state.style.as_prompt()


EXECUTORS: dict[str, tuple[type[BaseModel], Any]] = {
    "analyze_attachment": (AnalyzeAttachmentInput, analyze_attachment),
    "fetch_articles": (FetchArticlesInput, fetch_articles),
    "select_articles": (SelectArticlesInput, select_articles),
    "get_writing_style": (GetWritingStyleInput, get_writing_style),
}
# Network-bound tools run in threads; the others touch the DB or pymupdf (not thread-safe).
THREAD_SAFE = {"fetch_articles", "select_articles"}

"""Telegram messages (parse_mode=HTML) for /check and /report results, as pure functions.

v1's formats: a header, one message per reported article (newest first) with the
summary and reason in an expandable blockquote, and the skipped (/check) or already-reported
(/report, scenario B) items as a collapsed list. Every message is at most 4096 characters of
raw HTML, and no function ever cuts inside a tag:
- an article message that would be too long has its summary, then its reason, shortened
  *before* escaping and assembling (v1 cut the finished HTML at 4093 characters);
- lists are split between lines, each part with its own closed blockquote, and
  every line is bounded, so no single line can overflow a message (v1 did not split those).
All text from articles and the model is escaped with html.escape; URLs also in quotes.

Input is a `MonitorView` (agents.monitoring.selectors); output a list of message strings, sent
in order by the Telegram sender.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import date, datetime
from html import escape
from typing import Protocol
from zoneinfo import ZoneInfo

from agents.monitoring.selectors import MonitorView

KST = ZoneInfo("Asia/Seoul")
LIMIT = 4096
TITLE_CHARS = 300
LIST_TITLE_CHARS = 150
LIST_REASON_CHARS = 300
URL_CHARS = 2000  # a longer link is dropped rather than risk the limit

CHECK_HEADER = "🔍 <b>타사 체크</b> ({range})\n주요 <b>{important}</b>건 / 전체 {total}건"
CHECK_EMPTY = "🔍 <b>타사 체크</b> ({range})\n시간 범위 안에 새로운 기사가 없습니다."
REPORT_HEADER = "📋 <b>{department} 주요 뉴스</b> ({day})\n주요 <b>{count}</b>건"
REPORT_HEADER_UPDATE = "📋 <b>{department} 주요 뉴스</b> ({day})\n총 <b>{total}</b>건 ({parts})"
REPORT_EMPTY = "📋 <b>{department} 주요 뉴스</b> ({day})\n새로 확인된 관련 뉴스가 없습니다."
MODIFIED_PART = "수정 {count}건"
ADDED_PART = "추가 {count}건"
NO_CHANGE = "변경 없음"
SKIPPED_HEADER = "<b>스킵 {count}건</b>"
# v1 called every pre-filter drop a "photo/ad article"; they are mostly off-beat ones.
SKIPPED_PREFILTERED = " (관련성이 낮아 미리 제외한 {count}건 외)"
UNCHANGED_HEADER = "<b>기보고 {count}건</b>"
TAG_EXCLUSIVE = "[단독]"
TAG_MODIFIED = "[수정]"
TAG_ADDED = "[신규]"
MANY_SOURCES = "등 다수"
NO_TITLE = "(제목 없음)"
NOT_SCRAPED_NOTE = "※ 본문을 가져오지 못해 검색 요약만으로 분석했습니다."
ALSO_REPORTED = "같은 소식: {outlets}{more}"
ALSO_REPORTED_MORE = " 외 {count}곳"
CHECK_MARK = "●"
REPORT_MARK = "■"
BANNER_RULE = "━" * 20
SCHEDULED_BANNERS = {"check": "⏰ 자동 타사체크", "report": "⏰ 자동 브리핑"}
FAILED = {"check": "타사 체크 실패: {error}", "report": "브리핑 생성 실패: {error}"}
SCHEDULED_FAILED = {"check": "[자동 체크] 실패: {error}", "report": "[자동 브리핑] 실패: {error}"}
QUOTE_OPEN = "<blockquote expandable>"
QUOTE_CLOSE = "</blockquote>"


class Item(Protocol):
    """What a formatter reads from an item (agents.models.MonitorItem has all of it)."""

    category: str
    action: str
    topic_cluster: str
    title: str
    publisher: str
    url: str
    pub_time: datetime | None
    summary: str
    reason: str
    source_count: int
    body_scraped: bool


# --- whole results --------------------------------------------------------------------------
Part = tuple[str, Item | None]  # a message, and the item it reports (None: a header or a list)


def check_messages(view: MonitorView) -> list[str]:
    return [text for text, _ in check_parts(view)]


def report_messages(view: MonitorView) -> list[str]:
    return [text for text, _ in report_parts(view)]


def check_parts(view: MonitorView) -> list[Part]:
    """/check: header, one message per reported article (newest first), the skipped list."""
    span = window_label(view.window_start, view.window_end)
    if not view.analysed and not view.items and not view.skipped:
        return [(CHECK_EMPTY.format(range=span), None)]
    header = CHECK_HEADER.format(range=span, important=len(view.items), total=view.total)
    articles: list[Part] = [
        (article_message(item, mark=CHECK_MARK, day=view.day), item) for item in newest_first(view.items)
    ]
    skipped = skipped_messages(view.skipped, prefiltered=view.filtered_out, day=view.day)
    return [(header, None), *articles, *((text, None) for text in skipped)]


def report_parts(view: MonitorView) -> list[Part]:
    """/report: scenario A lists the briefing; B the modified/added items, then the rest collapsed."""
    department, day = view.department, (view.day.isoformat() if view.day else "")
    update = view.scenario == "B"
    if not view.analysed or (not update and not view.items):
        return [(REPORT_EMPTY.format(department=department, day=day), None)]
    if not update:
        header = REPORT_HEADER.format(department=department, day=day, count=len(view.items))
        return [
            (header, None),
            *((article_message(i, mark=REPORT_MARK, day=view.day), i) for i in newest_first(view.items)),
        ]
    parts = [
        template.format(count=count)
        for template, count in ((MODIFIED_PART, view.modified_count), (ADDED_PART, view.added_count))
        if count
    ]
    total = len(view.items) + len(view.unchanged)
    header = REPORT_HEADER_UPDATE.format(
        department=department, day=day, total=total, parts=", ".join(parts) or NO_CHANGE
    )
    changed: list[Part] = [
        (article_message(item, mark=REPORT_MARK, day=view.day, tags=_action_tags(item)), item)
        for item in newest_first(view.items)
    ]
    unchanged = unchanged_messages(view.unchanged, day=view.day)
    return [(header, None), *changed, *((text, None) for text in unchanged)]


def scheduled_banner(kind: str) -> str:
    """The line sent before a scheduled run's results (v1: 20 ━ and ⏰ 자동 …)."""
    return f"{BANNER_RULE}\n{SCHEDULED_BANNERS.get(kind, '⏰')}"


def run_failed_message(kind: str, error: str, *, scheduled: bool = False) -> str:
    """`타사 체크 실패: …` / `[자동 브리핑] 실패: …`, escaped."""
    templates = SCHEDULED_FAILED if scheduled else FAILED
    template = templates.get(kind, "{error}")
    return template.format(error=escape((error or "").strip()[:1000], quote=False))


# --- one article ----------------------------------------------------------------------------
def article_message(item: Item, *, mark: str, day: date | None = None, tags: Sequence[str] = ()) -> str:
    """`● [단독] [언론사] 제목 (09:15)` linked and bold, then the summary and reason quoted."""
    all_tags = ([TAG_EXCLUSIVE] if item.category == "exclusive" else []) + list(tags)
    title = item.title.strip()
    if TAG_EXCLUSIVE in all_tags and title.startswith(TAG_EXCLUSIVE):
        title = title[len(TAG_EXCLUSIVE) :].strip()  # no "[단독] [단독]"
    pieces = [mark, *all_tags, publisher_label(item), _clip(title, TITLE_CHARS) or NO_TITLE]
    line = escape(" ".join(piece for piece in pieces if piece), quote=False)
    when = time_label(item.pub_time, day)
    if when:
        line += f" ({when})"
    head = f"<b>{_linked(item.url, line)}</b>"
    note = f"\n<i>{NOT_SCRAPED_NOTE}</i>" if not item.body_scraped else ""
    also = also_reported_line(item, day)
    if also:
        note = f"\n{escape(also, quote=False)}{note}"
    return _fit_article(head, item.summary, item.reason, note)


def also_reported_line(item: Item, day: date | None = None, *, shown: int = 5) -> str:
    """ "같은 소식: 뉴시스 09:15 · 서울신문 10:40 외 2곳": the other outlets of the item's event."""
    others = getattr(item, "also_reported", None) or []
    if not others:
        return ""
    names = []
    for other in others[:shown]:
        when = time_label(_parsed(other.get("pub_time")), day)
        names.append(" ".join(part for part in (str(other.get("publisher") or "?"), when) if part))
    more = ALSO_REPORTED_MORE.format(count=len(others) - shown) if len(others) > shown else ""
    return ALSO_REPORTED.format(outlets=" · ".join(names), more=more)


def _parsed(value: object) -> datetime | None:
    try:
        return datetime.fromisoformat(str(value)) if value else None
    except ValueError:
        return None


def _fit_article(head: str, summary: str, reason: str, note: str) -> str:
    reason_frame = "\n-> <i></i>" if reason.strip() else ""
    room = LIMIT - len(head) - len("\n" + QUOTE_OPEN + QUOTE_CLOSE) - len(note) - len(reason_frame)
    reason_room = min(_escaped_len(reason.strip()), max(room // 4, 0)) if reason_frame else 0
    body = _escape_within(summary.strip(), room - reason_room)
    if reason_frame:
        body += f"\n-> <i>{_escape_within(reason.strip(), room - len(body))}</i>"
    return f"{head}\n{QUOTE_OPEN}{body}{note}{QUOTE_CLOSE}"


# --- collapsed lists ------------------------------------------------------------------------
def skipped_messages(items: Sequence[Item], *, prefiltered: int = 0, day: date | None = None) -> list[str]:
    """The skipped list, one topic once (v1 dedups by topic_cluster; empty clusters all kept)."""
    seen: set[str] = set()
    kept = []
    for item in items:
        cluster = item.topic_cluster.strip()
        if cluster and cluster in seen:
            continue
        seen.add(cluster)
        kept.append(item)
    if not kept and not prefiltered:
        return []
    header = SKIPPED_HEADER.format(count=len(kept))
    if prefiltered:
        header += SKIPPED_PREFILTERED.format(count=prefiltered)
    return collapsed_messages(header, [list_line(item, day=day, with_reason=True) for item in kept])


def unchanged_messages(items: Sequence[Item], *, day: date | None = None) -> list[str]:
    if not items:
        return []
    header = UNCHANGED_HEADER.format(count=len(items))
    return collapsed_messages(header, [list_line(item, day=day) for item in items])


def list_line(item: Item, *, day: date | None = None, with_reason: bool = False) -> str:
    """`- <a href=url>[언론사] 제목 (09:15)</a> → 이유`, every part bounded."""
    label = publisher_label(item)
    title = _clip(item.title, LIST_TITLE_CHARS)
    text = " ".join(part for part in (label, title) if part) or NO_TITLE
    when = time_label(item.pub_time, day)
    shown = escape(text, quote=False) + (f" ({when})" if when else "")
    line = f"- {_linked(item.url, shown)}"
    if with_reason and item.reason.strip():
        line += f" → {escape(_clip(item.reason, LIST_REASON_CHARS), quote=False)}"
    return line


def collapsed_messages(header: str, lines: Iterable[str]) -> list[str]:
    """Lines in expandable blockquotes, split between lines; the header only on the first."""
    messages: list[str] = []
    prefix = f"{header}\n{QUOTE_OPEN}"
    current: list[str] = []
    for line in lines:
        if current and len(prefix) + len("\n".join([*current, line])) + len(QUOTE_CLOSE) > LIMIT:
            messages.append(prefix + "\n".join(current) + QUOTE_CLOSE)
            prefix, current = QUOTE_OPEN, []
        current.append(line)
    if current:
        messages.append(prefix + "\n".join(current) + QUOTE_CLOSE)
    return messages


# --- small parts ----------------------------------------------------------------------------
def publisher_label(item: Item) -> str:
    """`[연합뉴스]`, `[연합뉴스 등 다수]` when several articles were merged, "" without one."""
    if not item.publisher:
        return ""
    return f"[{item.publisher} {MANY_SOURCES}]" if item.source_count > 1 else f"[{item.publisher}]"


def time_label(moment: datetime | None, day: date | None = None) -> str:
    """`09:15` (KST), with the date when it is not the run's day (v1 showed only HH:MM)."""
    if moment is None:
        return ""
    local = moment.astimezone(KST)
    if day is not None and local.date() != day:
        return f"{local.month}/{local.day} {local:%H:%M}"
    return f"{local:%H:%M}"


def window_label(start: datetime | None, end: datetime | None) -> str:
    """`09:00 ~ 12:00` on one KST day, else with dates."""
    if start is None or end is None:
        return ""
    left, right = start.astimezone(KST), end.astimezone(KST)
    if left.date() == right.date():
        return f"{left:%H:%M} ~ {right:%H:%M}"
    return f"{left:%Y-%m-%d %H:%M} ~ {right:%Y-%m-%d %H:%M}"


def newest_first(items: Sequence[Item]) -> list[Item]:
    return sorted(items, key=lambda i: (i.pub_time is None, -(i.pub_time.timestamp() if i.pub_time else 0)))


def _action_tags(item: Item) -> list[str]:
    return {"modified": [TAG_MODIFIED], "added": [TAG_ADDED]}.get(item.action, [])


def _linked(url: str, inner_html: str) -> str:
    url = (url or "").strip()
    if not url or len(url) > URL_CHARS or not url.startswith(("http://", "https://")):
        return inner_html
    return f'<a href="{escape(url, quote=True)}">{inner_html}</a>'


def _clip(text: str, limit: int) -> str:
    """One line of at most `limit` characters (newlines folded: a title or list line is one line)."""
    text = " ".join((text or "").split())
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def _escaped_len(text: str) -> int:
    return len(escape(text, quote=False))


def _escape_within(text: str, room: int) -> str:
    """`text` escaped, shortened (before escaping, with …) so the result fits in `room`."""
    if _escaped_len(text) <= room:
        return escape(text, quote=False)
    kept, used = [], 1  # the ellipsis
    for char in text:
        size = _escaped_len(char)
        if used + size > room:
            break
        kept.append(char)
        used += size
    return escape("".join(kept), quote=False) + "…" if room > 0 else ""

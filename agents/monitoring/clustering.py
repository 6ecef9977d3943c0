"""One event, one item: search results that report the same event are grouped before the model
reads them, so /check and /report list each event once and the model reads each event once.

Two results report the same event when their titles (or title + lead) share enough wording, or
when they share the event's figures with some shared wording (a figure with its unit, "2억
달러", "26만 8000명", is the strongest sign two outlets wrote up the same release); both must be
dated within two days of each other. An exclusive ([단독]) always stays its own item. Groups are
connected pairs; the group's lead is the outlet that published first (Naver `pubDate`), and the
others are listed with it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Generic, TypeVar

from agents.monitoring.material import Candidate
from agents.sources.titles import is_exclusive

if TYPE_CHECKING:  # the grouping itself is pure; only attach_others touches items
    from agents.models import MonitorItem

T = TypeVar("T")
MAX_GAP = timedelta(days=2)
TITLE_SIMILAR = 0.45  # Dice of title bigrams: same event worded by two desks
TEXT_SIMILAR = 0.30  # Dice of title + lead bigrams
FIGURE_TEXT_SIMILAR = 0.12  # with two shared figures, a little shared wording is enough
TITLE_OVERLAP = 0.15  # lead wording alone (a shared byline, a shared template) never groups

_TAGS = re.compile(r"\[[^\]]{1,12}\]|\([^)]{1,12}\)|【[^】]{1,12}】|<[^>]{1,12}>")
_BYLINE = re.compile(r"^\s*\[?[^\]]{0,20}(?:기자|특파원)\]?\s*=?\s*")
_WORDS = re.compile(r"[가-힣A-Za-z0-9]+")
_FIGURE = re.compile(
    r"\d[\d,.]*\s*(?:[조억만천]\s*(?:\d[\d,.]*\s*[억만천]?\s*)?)?"
    r"(?:원|달러|명|%|퍼센트|건|가구|개|톤|대|곳|배|세|년|월|일)|\d[\d,.]*\s*[조억만]"
)
_VALUE = re.compile(r"[\d.e+]+")
_PART = re.compile(r"(\d+(?:\.\d+)?)\s*([조억만천]?)")
_SCALE = {"조": 1e12, "억": 1e8, "만": 1e4, "천": 1e3, "": 1.0}


@dataclass(frozen=True)
class Result:
    """What the grouping reads of one search result."""

    title: str
    lead: str  # the Naver description or the first lines of the page
    published: datetime


@dataclass
class Group(Generic[T]):
    lead: T
    others: list[T] = field(default_factory=list)

    @property
    def members(self) -> list[T]:
        return [self.lead, *self.others]


@dataclass(frozen=True)
class _Features:
    title: set[str]
    text: set[str]
    figures: set[str]
    title_figures: set[str]
    subject: str  # "경찰" of "경찰, 전세사기 일당 구속영장 신청"; "" when the title names none
    exclusive: bool
    published: datetime


def group_results(items: Sequence[T], *, read: Callable[[T], Result]) -> list[Group[T]]:
    """Groups of `items` in the order of each group's first publication (ties: input order)."""
    features = _without_boilerplate([_features(read(item)) for item in items])
    parent = list(range(len(items)))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for i in range(len(items)):
        for j in range(i + 1, len(items)):
            if root(i) != root(j) and same_event(features[i], features[j]):
                parent[root(j)] = root(i)
    members: dict[int, list[int]] = {}
    for i in range(len(items)):
        members.setdefault(root(i), []).append(i)
    groups = []
    for indices in members.values():
        ordered = sorted(indices, key=lambda i: (features[i].published, i))
        groups.append((ordered[0], Group(items[ordered[0]], [items[i] for i in ordered[1:]])))
    groups.sort(key=lambda pair: (features[pair[0]].published, pair[0]))
    return [group for _, group in groups]


def same_event(a: _Features, b: _Features) -> bool:
    if a.exclusive or b.exclusive:
        return False
    if abs(a.published - b.published) > MAX_GAP:
        return False
    if a.subject and b.subject and a.subject != b.subject:
        return False  # 경찰 arrests, 검찰 indicts: two agencies' acts are two events
    if a.title_figures and b.title_figures and not _values(a.title_figures) & _values(b.title_figures):
        return False  # each headline leads with its own figure: two events (48조원 vs 2만 가구)
    title = _dice(a.title, b.title)
    if title >= TITLE_SIMILAR:
        return True
    text = _dice(a.text, b.text)
    if len(a.figures & b.figures) >= 2 and max(text, title) >= FIGURE_TEXT_SIMILAR:
        return True
    return text >= TEXT_SIMILAR and title >= TITLE_OVERLAP


def _without_boilerplate(features: list[_Features]) -> list[_Features]:
    """Drops from the title + lead text the bigrams that more than half of the batch shares
    ("관련 검색 요약", a wire's byline): wording every result has says nothing about the event.
    With two results, everything they share is "common": only their titles and figures decide."""
    if len(features) < 2:
        return features
    counts: dict[str, int] = {}
    for f in features:
        for gram in f.text:
            counts[gram] = counts.get(gram, 0) + 1
    common = {gram for gram, n in counts.items() if n > len(features) / 2}
    if not common:
        return features
    return [replace(f, text=f.text - common) for f in features]


def _features(result: Result) -> _Features:
    title = _TAGS.sub(" ", result.title)
    lead = _BYLINE.sub("", _TAGS.sub(" ", result.lead))[:200]
    return _Features(
        title=_bigrams(title),
        text=_bigrams(f"{title} {lead}"),
        figures=_figures(f"{result.title} {result.lead}"),
        title_figures=_figures(result.title),
        subject=_subject(title),
        exclusive=is_exclusive(result.title),
        published=result.published,
    )


def _subject(title: str) -> str:
    """The acting agency a headline opens with ("경찰, …", "서울시, …"): short, no figures."""
    head, comma, _ = title.strip().partition(",")
    head = head.strip()
    return head if comma and 0 < len(head) <= 6 and not re.search(r"\d", head) else ""


def _bigrams(text: str) -> set[str]:
    grams: set[str] = set()
    for word in _WORDS.findall(text.lower()):
        grams.update(word[i : i + 2] for i in range(len(word) - 1)) if len(word) > 1 else grams.add(word)
    return grams


def _figures(text: str) -> set[str]:
    """Figures as value and unit, so writings agree: "26.8만명" = "26만 8000명" = "268000명",
    "2억 달러" = "2억달러". Days and months are left out: every story of the day shares them."""
    found = set()
    for match in _FIGURE.finditer(text):
        raw = re.sub(r"[\s,]", "", match.group(0))
        unit = re.sub(r"^[\d.조억만천]+", "", raw)
        if unit in ("월", "일"):
            continue
        value = sum(float(n) * _SCALE[scale] for n, scale in _PART.findall(raw[: len(raw) - len(unit)]))
        found.add(f"{value:g}{unit}")
    return found


def _values(figures: set[str]) -> set[str]:
    """Figures without units: a headline may drop the unit ("48조" = "48조원")."""
    return {match.group(0) for match in map(_VALUE.match, figures) if match}


def _dice(a: set[str], b: set[str]) -> float:
    return 2 * len(a & b) / (len(a) + len(b)) if a and b else 0.0


def group_candidates(candidates: Sequence[Candidate]) -> list[Group[Candidate]]:
    """The pipeline's use: Naver results grouped by event, each lead the earliest `pubDate`."""
    return group_results(
        candidates, read=lambda c: Result(title=c.title, lead=c.description, published=c.pub_date)
    )


def also_reported(others: Sequence[Candidate]) -> list[dict[str, str]]:
    """The stored shape of a group's other outlets (MonitorItem.also_reported)."""
    return [
        {"publisher": c.publisher, "title": c.title, "url": c.url, "pub_time": c.pub_date.isoformat()}
        for c in others
    ]


def attach_others(items: Sequence[MonitorItem], groups: Sequence[Group[Candidate]]) -> None:
    """Each item built from a group's lead lists that group's other outlets."""
    others = {group.lead.url: group.others for group in groups if group.others}
    for item in items:
        found = others.get(item.url)
        if found:
            item.also_reported = also_reported(found)

"""A press release's embargo: the moment from which it may be published, read from its header.

Korean government releases state it on a header line: "보도시점 2024. 3. 28.(목) 12:00 (2024. 3.
29.(금) 조간)", "<보도일시><2018. 9. 4.(화) 조간(온라인 9. 3. 12:00)부터 보도해 주시기 바랍니다.>",
"보도일시: 12. 1.(월) 06:00 이후", "엠바고: 3월 5일(화) 조간", "보도시점: 배포 즉시". The reader finds
that line, reads every moment on it (a date with a time, or a date with 조간/석간) and keeps the
earliest: the online time a release states comes before its paper edition. "즉시" (or no line at
all) means no embargo. A date without a year takes the year that puts it nearest the reference
date (the day the release was read). Pure Python: no Django, no model; a line it cannot read gives
None, never an error.

Only 조간/석간 given: the paper edition's day is stated, not the online moment. Releases that state
both pair the next morning's 조간 with 12:00 the day before (과학기술정보통신부, 2018: "2018. 9. 4.(화)
조간(온라인 9. 3. 12:00)"; 고용노동부, 2024: "2024. 3. 28.(목) 12:00 (2024. 3. 29.(금) 조간)"); the
reader applies that pairing. No release read states the online moment of a 석간, so a 석간 day is
read as that day at noon, the later and safer of the readings (docs/embargo.md has the addresses and
what was and was not found).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from typing import Any
from zoneinfo import ZoneInfo

KST = ZoneInfo("Asia/Seoul")
# 조간 of day D: online from D-1 12:00, as releases that state both print it, e.g.
# https://m.korea.kr/briefing/pressReleaseView.do?newsId=156622618 ("2024. 3. 28.(목) 12:00 (2024. 3.
# 29.(금) 조간)") and https://www.korea.kr/briefing/pressReleaseView.do?newsId=156754101 ("2026. 4.
# 12.(일) 12:00 / (월요일 조간)"). 석간 of day D: no release read states its online time; noon of D is
# the later, safer reading.
MORNING_EDITION_ONLINE = (timedelta(days=-1), time(12, 0))
EVENING_EDITION_ONLINE = (timedelta(days=0), time(12, 0))
HALF_YEAR = 183  # days: a weekday picks between years only within this distance of the reference
HEADER_LINES = 40  # the embargo is stated in the header; a date in the body is not an embargo
# A label's value may sit on the next few short lines (a table's cells out of a PDF or HWP file).
CELL_LINES = 6
CELL_CHARS = 40
MAX_TEXT = 200
WEEKDAYS = "월화수목금토일"

# A header line that states when the release may be published. Spaced labels ("보 도 일 시") are
# joined before matching.
_LABEL = re.compile(r"보도\s*(?:시점|일시|시간|시각|가능|예정)|엠바고|embargo", re.IGNORECASE)
_REQUEST = re.compile(r"보도\s*(?:해|하여|할\s*수)|(?:이후|부터|즉시)\s*보도")
_EDITION_LINE = re.compile(r"조간|석간|[(<\[]\s*(?:온라인|지\s*면)\s*[)>\]]|온라인\s*\d")
# A table cell that may carry part of the embargo: a date, a bracketed channel, an edition, "즉시".
_CELL = re.compile(r"\d\s*[.월]|^[(<\[]?\s*(?:온라인|지\s*면|인터넷|방송)\s*[)>\]]?$|조간|석간|즉시")
_IMMEDIATE = re.compile(r"즉시|배포\s*시(?![각간점]|\s*\d)|배포와\s*동시")
# Where a line goes on to the distribution time ("배포 2023. 9. 7.(목) 08:00"), the embargo ends.
_DISTRIBUTION = re.compile(r"배\s*포\s*(?:일\s*시|일|시\s*각|시\s*간)?\s*[:：]?\s*(?=['’‘]?\d)")
_WEEKDAY = r"(?:\s*[(（]\s*(?P<weekday>[월화수목금토일])\s*(?:요일)?\s*[)）])?"
_YEAR = r"(?:(?P<year>\d{4}|['’‘]\d{2})\s*(?:[.\-/]|년)\s*)?"
_DATE = re.compile(
    _YEAR
    + r"(?P<month>1[0-2]|0?[1-9])\s*(?:[.\-/]|월)\s*(?P<day>3[01]|[12]\d|0?[1-9])\s*(?:일|\.)?"
    + _WEEKDAY
)
_CLOCK = re.compile(
    r"^\s*(?P<meridiem>오전|오후|낮|밤|새벽)?\s*(?:(?P<hour>[01]?\d|2[0-4])\s*(?::|시)\s*(?P<minute>[0-5]\d)?\s*분?"
    r"|(?P<noon>정오))"
)
_EDITION = re.compile(r"^\s*(?:자\s*)?(?P<edition>조간|석간)")


@dataclass(frozen=True)
class Embargo:
    until: datetime  # aware, KST
    text: str  # the header line it was read from

    def to_json(self) -> dict[str, Any]:
        return {"until": self.until.isoformat(), "text": self.text}


def read_embargo(text: str, *, reference: date) -> Embargo | None:
    """The release's embargo, or None: no embargo line, "즉시", or a line with no readable moment."""
    lines = [" ".join(line.split()) for line in text.splitlines()[:HEADER_LINES]]
    for index, line in enumerate(lines):
        if not line or not _is_embargo_line(line):
            continue
        if _IMMEDIATE.search(_segment(line)):
            return None
        for candidate in (line, _with_cells(lines, index)):
            until = read_line(candidate, reference=reference)
            if until is not None:
                return Embargo(until=until, text=candidate[:MAX_TEXT])
    return None


def _with_cells(lines: list[str], index: int) -> str:
    """A label whose value sits on the next lines, as a table's cells come out of a PDF or HWP file
    ("보도시점" / "(온라인)" / "2025. 7. 16.(수) 12:00" / "(지 면)" / "2025. 7. 17.(목) 조간")."""
    cells: list[str] = []
    for line in lines[index + 1 :]:
        if len(cells) == CELL_LINES or len(line) > CELL_CHARS or (line and not _CELL.search(line)):
            break
        if line:
            cells.append(line)
    return " ".join([lines[index], *cells])


def release_embargo(*texts: str, reference: date) -> dict[str, Any] | None:
    """The stored form of the first embargo the release's texts state (pasted text, then file)."""
    for text in texts:
        embargo = read_embargo(text, reference=reference)
        if embargo is not None:
            return embargo.to_json()
    return None


def read_line(line: str, *, reference: date) -> datetime | None:
    """The earliest publishing moment one header line states, or None."""
    segment = _segment(line)
    moments = _moments(segment, reference=reference)
    if moments:
        return min(moments)
    if _IMMEDIATE.search(segment):
        return None
    edition = re.search(r"조간|석간", segment)
    if edition:  # "보도시점: 조간": the next paper of that edition after the reference day
        day = reference + timedelta(days=1) if edition.group() == "조간" else reference
        return _edition_moment(day, edition.group())
    return None


def embargo_until(embargo: dict[str, Any] | None) -> datetime | None:
    """The stored embargo's moment (KST), or None when there is none or it cannot be read."""
    if not embargo or not isinstance(embargo.get("until"), str):
        return None
    try:
        return datetime.fromisoformat(embargo["until"]).astimezone(KST)
    except ValueError:
        return None


def is_embargoed(embargo: dict[str, Any] | None, *, now: datetime) -> bool:
    until = embargo_until(embargo)
    return until is not None and now < until


def publish_label(until: datetime) -> str:
    """The line every face opens with while embargoed: "보도 가능: 12월 1일(월) 06:00 이후"."""
    local = until.astimezone(KST)
    weekday = WEEKDAYS[local.weekday()]
    return f"보도 가능: {local.month}월 {local.day}일({weekday}) {local:%H:%M} 이후"


def _is_embargo_line(line: str) -> bool:
    joined = _join_hangul(line)
    if _LABEL.search(joined) or _REQUEST.search(joined):
        return True
    # A bare edition line ("2024. 3. 5.(화) 조간") is a header only when it carries a date.
    return bool(_EDITION_LINE.search(line) and _DATE.search(joined) and len(joined) < 80)


def _segment(line: str) -> str:
    """The part of the line about publishing: from its label up to the distribution time, if one
    follows ("보도시점 … 배포 2023. 9. 7.(목) 08:00", "배포일시 … 보도일시 …")."""
    joined = _join_hangul(line)
    label = _LABEL.search(joined)
    start = label.start() if label else 0
    cut = _DISTRIBUTION.search(joined, start)
    return joined[start : cut.start()] if cut else joined[start:]


def _join_hangul(line: str) -> str:
    """ "보 도 일 시" → "보도일시": spaced-out labels of table headers read like written ones."""
    return re.sub(r"(?<=[가-힣])\s+(?=[가-힣])", "", line)


def _moments(segment: str, *, reference: date) -> list[datetime]:
    """The moments the segment states, best kind first: dates with a stated time if there are any
    (a stated online time beats the 조간 convention), else dates with an edition, else bare dates."""
    stated: list[datetime] = []
    by_edition: list[datetime] = []
    bare: list[datetime] = []
    matches = [match for match in _DATE.finditer(segment) if not _is_part_of_number(segment, match)]
    # "2018. 9. 4.(화) 조간(온라인 9. 3. 12:00)": a date without a year takes the line's own year.
    dated = [day for match in matches if match.group("year") and (day := _day(match, reference=reference))]
    line_reference = dated[0] if dated else reference
    for match in matches:
        day = _day(match, reference=line_reference)
        if day is None:
            continue
        rest = segment[match.end() :]
        clock = _CLOCK.match(rest)
        edition = _EDITION.match(rest)
        if clock and (clock.group("hour") or clock.group("noon")):
            stated.append(_at(day, clock))
        elif edition:
            by_edition.append(_edition_moment(day, edition.group("edition")))
        else:
            bare.append(datetime.combine(day, time(0, 0), tzinfo=KST))
    return stated or by_edition or bare


def _is_part_of_number(segment: str, match: re.Match[str]) -> bool:
    """Not dates: "2,000.5" or "3.5%" —: a digit or a comma right before, or a unit right after."""
    before = segment[match.start() - 1] if match.start() else ""
    after = segment[match.end() : match.end() + 1]
    return (bool(before) and (before.isdigit() or before in ",.")) or after in ("%", "배")


def _day(match: re.Match[str], *, reference: date) -> date | None:
    month, day = int(match.group("month")), int(match.group("day"))
    year_text = match.group("year")
    try:
        if year_text:
            digits = int(year_text.lstrip("'’‘"))
            return date(digits + 2000 if digits < 100 else digits, month, day)
        return _nearest_year(month, day, weekday=match.group("weekday"), reference=reference)
    except ValueError:  # 2. 30. and the like
        return None


def _nearest_year(month: int, day: int, *, weekday: str | None, reference: date) -> date | None:
    """A date without a year, in the year that puts it nearest the reference day; a stated weekday
    ("12. 1.(월)") rules out the years where that day falls on another."""
    candidates = []
    for year in (reference.year - 1, reference.year, reference.year + 1):
        try:
            candidates.append(date(year, month, day))
        except ValueError:
            continue
    near = [d for d in candidates if abs((d - reference).days) <= HALF_YEAR]
    matching = [d for d in near if weekday and WEEKDAYS[d.weekday()] == weekday]
    pool = matching or candidates
    return min(pool, key=lambda d: abs((d - reference).days)) if pool else None


def _at(day: date, clock: re.Match[str]) -> datetime:
    if clock.group("noon"):
        return datetime.combine(day, time(12, 0), tzinfo=KST)
    hour, minute = int(clock.group("hour")), int(clock.group("minute") or 0)
    if clock.group("meridiem") in ("오후", "밤") and hour < 12:
        hour += 12
    if hour == 24:
        return datetime.combine(day + timedelta(days=1), time(0, minute), tzinfo=KST)
    return datetime.combine(day, time(hour, minute), tzinfo=KST)


def _edition_moment(day: date, edition: str) -> datetime:
    shift, at = MORNING_EDITION_ONLINE if edition == "조간" else EVENING_EDITION_ONLINE
    return datetime.combine(day + shift, at, tzinfo=KST)

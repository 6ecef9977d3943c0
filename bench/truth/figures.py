"""An independent reader of the figures and dates of a Korean sentence, for the generators.

It is deliberately separate from the guard's reader: a rewrite is built from the value this module
reads, so a figure the guard misreads ("4만 1000여 명" read as 1000) yields a true rewrite that the
guard then flags, instead of a "faithful" rewrite of the misread value. It reads strictly and
reports every figure it is unsure of as unsure (`Figure.plain` is False), and the generators skip
those: a skipped case costs coverage, a wrong "faithful" case costs truth.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal

_NUM = re.compile(r"(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?")
_SMALL = {"천": Decimal(1000), "백": Decimal(100)}
_BIG = {"조": Decimal(10) ** 12, "억": Decimal(10) ** 8, "만": Decimal(10) ** 4}
# Units as written, longest first. Time units are read so that they are never taken for amounts.
PERCENT_POINT = ("%p", "%P", "％p", "%포인트", "％포인트", "퍼센트포인트")
PERCENT = ("%", "％", "퍼센트")
TIME_UNITS = ("개월", "년", "월", "일", "분기", "시간", "시", "분", "주", "초")
COUNTERS = [
    "명",
    "건",
    "개",
    "곳",
    "가구",
    "호",
    "세대",
    "톤",
    "t",
    "배",
    "대",
    "척",
    "마리",
    "개소",
    "개사",
    "개국",
    "개교",
    "세",
    "회",
    "차례",
    "번",
    "위",
    "점",
    "편",
    "권",
    "채",
    "층",
    "쪽",
]
MEASURES = [
    "원",
    "달러",
    "엔",
    "유로",
    "위안",
    "kg",
    "㎏",
    "km",
    "㎞",
    "㎡",
    "㏊",
    "ha",
    "mm",
    "㎜",
    "℃",
    "GW",
    "MW",
    "kW",
    "kWh",
    "GWh",
    "TWh",
    "㎿",
    "L",
    "포인트",
]
UNITS = tuple(sorted({*PERCENT_POINT, *PERCENT, *TIME_UNITS, *COUNTERS, *MEASURES}, key=len, reverse=True))
_LATIN = re.compile(r"[A-Za-z]")
# A figure glued to letters, a hyphen or an apostrophe is a name or a code ("PM-2.5", "’21",
# "DW60T8075FG"), and "제3차" is an ordinal: none of them is an amount a rewrite may touch.
_NOT_BEFORE = re.compile(r"[A-Za-z\-_/’‘'`.,\d제]$")


@dataclass(frozen=True)
class Figure:
    start: int
    end: int
    text: str  # the whole surface: amount, 여, unit
    value: Decimal
    unit: str  # the unit as written ("" for a bare number)
    approx: bool  # written with 여 ("30여 명")
    scaled: bool  # a magnitude word (천, 백, 만, 억, 조) is part of the amount
    unit_gap: bool  # a space before the unit ("1200억 원")
    amount: str  # the amount's surface without 여 and unit
    plain: bool  # read with certainty and free to be rewritten

    @property
    def is_time(self) -> bool:
        return self.unit in TIME_UNITS

    @property
    def is_percent(self) -> bool:
        return self.unit in PERCENT

    @property
    def is_point(self) -> bool:
        return self.unit in PERCENT_POINT

    @property
    def integral(self) -> bool:
        return self.value == self.value.to_integral_value()


@dataclass(frozen=True)
class DateMention:
    start: int
    end: int
    text: str
    year: int | None
    month: int | None
    day: int | None
    style: str  # "full" | "dotted" | "year-month" | "month-day" | "day" | "year"
    prefix: str  # "지난" | "오는" | "" (written right before a day)


_DATE_PATTERNS = [
    ("full", re.compile(r"(?<![\d.,])(?P<y>\d{4})년 ?(?P<m>\d{1,2})월 ?(?P<d>\d{1,2})일")),
    ("dotted", re.compile(r"(?<![\d.,])(?P<y>\d{4})\. ?(?P<m>\d{1,2})\. ?(?P<d>\d{1,2})\.?(?!\d)")),
    ("year-month", re.compile(r"(?<![\d.,])(?P<y>\d{4})년 ?(?P<m>\d{1,2})월(?! ?\d)")),
    ("month-day", re.compile(r"(?<![\d.,~∼〜\-])(?P<m>\d{1,2})월 ?(?P<d>\d{1,2})일")),
    ("year", re.compile(r"(?<![\d.,’‘'~∼〜\-])(?P<y>\d{4})년(?! ?\d{1,2}월)(?!\s*(?:[~∼〜\-]|간|대))")),
    ("day", re.compile(r"(?<![\d.,~∼〜\-월])(?:(?P<p>지난|오는) )?(?P<d>\d{1,2})일(?![간째]|\s*[~∼〜\-])")),
]


def find_dates(text: str) -> list[DateMention]:
    """Dates in reading order; where patterns overlap, the one listed first wins. Ranges
    ("1~20일", "9일부터 24일까지" is two days) keep only their unambiguous ends."""
    found: list[DateMention] = []
    taken: list[tuple[int, int]] = []
    for style, pattern in _DATE_PATTERNS:
        for m in pattern.finditer(text):
            if any(m.start() < e and s < m.end() for s, e in taken):
                continue
            groups = m.groupdict()
            year = int(groups["y"]) if groups.get("y") else None
            month = int(groups["m"]) if groups.get("m") else None
            day = int(groups["d"]) if groups.get("d") else None
            if (month is not None and not 1 <= month <= 12) or (day is not None and not 1 <= day <= 31):
                continue
            if year is not None and not 1900 <= year <= 2100:
                continue
            found.append(
                DateMention(m.start(), m.end(), m.group(), year, month, day, style, groups.get("p") or "")
            )
            taken.append((m.start(), m.end()))
    return sorted(found, key=lambda d: d.start)


def find_figures(text: str) -> list[Figure]:
    """Amounts with their unit, outside dates. A figure next to a range mark or an arrow is read
    but not `plain`: "3~5%" gives its unit to both ends, and a rewrite of one end alone could
    change what the other means."""
    masked = _mask(text, [(d.start, d.end) for d in find_dates(text)])
    figures: list[Figure] = []
    position = 0
    while True:
        m = _NUM.search(masked, position)
        if m is None:
            break
        start = m.start()
        if start > 0 and masked[start - 1].isdigit():
            position = m.end()
            continue
        figure = _read(masked, text, start)
        if figure is None:
            position = m.end()
            continue
        figures.append(figure)
        position = figure.end
    return figures


def _read(masked: str, text: str, start: int) -> Figure | None:
    tokens, end = _tokens(masked, start)
    if not tokens:
        return None
    value = _value(tokens)
    scaled = any(small or big for _, small, big in tokens)
    j = end
    approx = False
    if masked.startswith("여", j) or (masked.startswith(" 여", j) and scaled):
        approx = True
        j = masked.index("여", j) + 1
    unit, gap = "", False
    for candidate in UNITS:
        if masked.startswith(candidate, j):
            unit = candidate
            break
        if masked.startswith(" " + candidate, j) and (scaled or approx) and not candidate.isascii():
            unit, gap = candidate, True
            break
    unit_end = j + gap + len(unit)
    if unit and _LATIN.match(unit) and _LATIN.match(masked[unit_end : unit_end + 1] or " "):
        unit, gap, unit_end = "", False, j  # "10a", "3Ds": letters run on, not a unit
    surface = text[start:unit_end] if unit else text[start:j]
    before = text[max(0, start - 1) : start]
    after = text[unit_end : unit_end + 1] if unit else text[j : j + 1]
    plain = (
        _NOT_BEFORE.search(before) is None
        and (not after or _LATIN.match(after) is None)
        and not _ranged(text, start, unit_end if unit else j)
    )
    return Figure(
        start=start,
        end=unit_end if unit else j,
        text=surface,
        value=value,
        unit=unit,
        approx=approx,
        scaled=scaled,
        unit_gap=gap,
        amount=text[start:end],
        plain=plain,
    )


def _tokens(text: str, start: int) -> tuple[list[tuple[str, str, str]], int]:
    """(number, 천/백, 조/억/만) tokens of one amount: "3천452만 4천" is three tokens. A space may
    follow only a magnitude of 만 or more ("12만 3천"), never a bare number ("2019 2020")."""
    tokens: list[tuple[str, str, str]] = []
    j = start
    while True:
        m = _NUM.match(text, j)
        if m is None:
            break
        j = m.end()
        small = text[j] if j < len(text) and text[j] in _SMALL else ""
        j += len(small)
        big = text[j] if j < len(text) and text[j] in _BIG else ""
        j += len(big)
        tokens.append((m.group(), small, big))
        if not (small or big):
            break
        if j < len(text) and text[j].isdigit():
            continue
        if big and text[j : j + 1] == " " and text[j + 1 : j + 2].isdigit() and _NUM.match(text, j + 1):
            # "12만 3천 명" goes on; "5만 2019년" would not, but a year after an amount is masked.
            j += 1
            continue
        break
    return tokens, j


def _value(tokens: list[tuple[str, str, str]]) -> Decimal:
    total = group = Decimal(0)
    for number, small, big in tokens:
        group += Decimal(number.replace(",", "")) * _SMALL.get(small, Decimal(1))
        if big:
            total += group * _BIG[big]
            group = Decimal(0)
    return total + group


def _ranged(text: str, start: int, end: int) -> bool:
    before = text[max(0, start - 2) : start]
    after = text[end : end + 2]
    marks = "~∼〜"
    return any(c in marks for c in before + after) or "→" in before + after or after.startswith("-")


def _mask(text: str, spans: list[tuple[int, int]]) -> str:
    chars = list(text)
    for start, end in spans:
        chars[start:end] = "\x00" * (end - start)
    return "".join(chars)

"""Dates, times and relative day words, compared by the components the text states.

A mention becomes a set of facets: ("y", 2026), ("m", 3), ("d", 5); ("h", 15), ("mi", 0); a
week ("wy", 2026), ("ww", 10); or ("r", "어제") for a relative word read literally. An article
mention is supported when all its facets appear together in one source mention, so "5일" is
supported by "3월 5일", but "3월 5일" is not supported by a bare "5일" — unless a reference date
is given: then a source's partial dates are also resolved against it (the nearest such date, or
the nearest past one after 지난 and the nearest future one after 오는), and relative words on
both sides become dates. An inferred part never supports on its own: a source "10일" resolved to
2026-03-10 supports "3월 10일" but not "3월". The article side is never completed: what it
states is what is checked. The resolving itself is in guard.reference_dates.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, replace
from datetime import date, timedelta
from functools import lru_cache
from itertools import combinations, product

from agents.verification.guard.reference_dates import (
    YEARS,
    Facets,
    resolve_partial,
    resolve_relative,
    week,
)
from agents.verification.guard.reference_dates import Facet as Facet  # re-exported with Facets

# Each pattern opens with a lookahead for the characters a match can start with: the scan then
# passes over most characters at once instead of trying every branch at each (a third of the time).
_RANGE_MARK = r" ?[~∼〜\-–] ?"
_PART = rf"\d{{1,2}}(?:{_RANGE_MARK}\d{{1,2}})?"
_YEAR = rf"\d{{4}}(?:{_RANGE_MARK}\d{{4}})?"
# A two-digit year after an apostrophe: '23. 4. 18. and '07년.
_SHORT_YEAR = r"['’‘](?P<yy>\d{2})"
_DOTTED = re.compile(
    rf"(?=[\d'’‘])(?<![\d.,])(?:(?P<y>\d{{4}})|{_SHORT_YEAR}) ?(?P<sep>[.\-/]) ?(?P<m>\d{{1,2}}) ?(?P=sep) ?"
    r"(?P<d>\d{1,2})(?!\d)(?:\.(?!\d))?"
)
# A year and month in dots: "’13.10월", "2013.10월", "’13.10." (the apostrophe makes it a year).
_DOTTED_MONTH = re.compile(
    rf"(?=[\d'’‘])(?<![\d.,])(?:(?P<y>\d{{4}})\. ?(?P<m>\d{{1,2}}) ?월"
    rf"|{_SHORT_YEAR}\. ?(?P<m2>\d{{1,2}})(?: ?월|\.)?)(?![\d.])"
)
# A month and day in dots closed by a dot, as press releases write them: "4. 18.", "9.30.까지".
_DOTTED_DAY = re.compile(r"(?=\d)(?<![\d.,])(?P<m>\d{1,2})\. ?(?P<d>\d{1,2})\.(?!\d)")
# A day named by its date with a middle dot: "4·10 총선", "5·18 민주화운동". Not "1·2차" or "3·4위".
_MIDDOT_DAY = re.compile(
    r"(?=\d)(?<![\d.,·ㆍ])(?P<m>\d{1,2})[·ㆍ・](?P<d>\d{1,2})"
    r"(?![\d·ㆍ・]|[차호위등급층명개년월일번%]| ?(?:단계|번째|번|호선))"
)
# A two-digit year after an apostrophe, or with none where a month follows: "24년 2월" is February 2024, and
# "24년 만에" a span of years.
_BARE_YEAR = r"(?:['’‘]|(?=\d{2} ?년 ?\d{1,2} ?월))(?P<yy>\d{2})"
# A range of two-digit years: "최근 5년(‘15~’19)간" is 2015~2019년.
_SHORT_RANGE = re.compile(
    r"(?=['’‘])(?<![\d.,])['’‘](?P<a>\d{2}) ?[~∼〜\-–] ?['’‘](?P<b>\d{2})(?![\d.])(?: ?년)?"
)
# "올해 4월까지의 출원" counts from January: a source that says so states 1~4월.
_YEAR_TO_DATE = re.compile(r"(?=[올금\d])(?:올해|금년|(?P<y>\d{4}) ?년) ?(?P<m>\d{1,2}) ?월 ?까지")
_NEXT_DAY = re.compile(r"(?<![가-힣])(?:다음 ?날|이튿날|익일)")
_NEXT_DAY_REACH = 40  # characters between a date and the "다음 날" that follows it
_WEEKDAY = re.compile(
    r"(?=\d)(?<![\d.,])(?P<m>\d{1,2}) ?[./] ?(?P<d>\d{1,2})\.? ?\((?:월|화|수|목|금|토|일)\)"
)
_TIME = re.compile(
    r"(?=[\d오새아낮저밤])(?:(?P<ap>오전|오후|새벽|아침|낮|저녁|밤) ?)?(?<![\d.,:])(?P<h>\d{1,2})"
    r"(?: ?시(?!간|즌|장|점|대)(?: ?(?P<mi>\d{1,2}) ?분| ?(?P<half>반))?|:(?P<mm>\d{2})(?![\d:]))"
)
_RELATIVE = re.compile(
    r"(?<![가-힣])(?P<w>오늘|금일|어제|그저께|그제|내일|모레|재작년|지난해|작년|전년도?|올해|금년|내년"
    r"|지난 ?주|이번 ?주|다음 ?주|지난 ?달|이번 ?달|이달|다음 ?달|내달)(?!날|서야|야|채움|배움|주|째|러|성)"
)
_PREFIX = re.compile(r"(지난|오는) ?$")
_CANONICAL = {"금일": "오늘", "그저께": "그제", "작년": "지난해", "금년": "올해", "전년": "지난해"}
_CANONICAL |= {"전년도": "지난해"}
_CANONICAL |= {"이달": "이번달", "내달": "다음달"}
_AFTERNOON = frozenset({"오후", "낮", "저녁", "밤"})


def _korean_pattern(gap: str) -> re.Pattern[str]:
    """2026년 3월 5일 and every part of it, ranges such as 5~7일; gap is the space allowed before 년/월/일."""
    return re.compile(
        rf"(?=[\d'’‘])(?<![\d.,])(?:(?:(?P<y>{_YEAR})|{_BARE_YEAR}){gap}년"
        rf"(?: ?(?P<ym>{_PART}){gap}월(?: ?(?P<ymd>{_PART}){gap}일)?)?"
        rf"|(?P<m>{_PART}){gap}월(?: ?(?P<md>{_PART}){gap}일)?|(?P<d>{_PART}){gap}일)"
    )


_KOREAN = _korean_pattern("")
_KOREAN_LENIENT = _korean_pattern(r" ?")


@dataclass(frozen=True)
class DateHit:
    start: int
    end: int
    text: str
    stated: Facets  # the components as written
    prefix: str = ""  # 지난 | 오는 | ""
    clock: bool = False  # an hour without 오전/오후: it may be h or h+12


def find_dates(text: str, *, lenient: bool = False) -> list[DateHit]:
    """Every date, time and relative word; where patterns overlap the earliest, then longest, wins."""
    groups = [
        *(_dotted(m) for m in _DOTTED.finditer(text)),
        *(_weekday(m) for m in _WEEKDAY.finditer(text)),
        *(_weekday(m) for m in _DOTTED_DAY.finditer(text)),
        *(_dotted_month(m) for m in _DOTTED_MONTH.finditer(text)),
        *(_weekday(m) for m in _MIDDOT_DAY.finditer(text)),
        *(_short_range(m) for m in _SHORT_RANGE.finditer(text)),
        *(_korean(m) for m in (_KOREAN_LENIENT if lenient else _KOREAN).finditer(text)),
        *(_time(m) for m in _TIME.finditer(text)),
        *(_relative(m) for m in _RELATIVE.finditer(text)),
    ]
    chosen: list[DateHit] = []
    end = 0
    for hits in sorted((g for g in groups if g), key=lambda g: (g[0].start, -g[0].end)):
        if hits[0].start >= end:
            chosen += [_with_prefix(text, hit) for hit in hits]
            end = hits[0].end
    if lenient:
        chosen = _joined_years(text, chosen)
        chosen += [h for m in _YEAR_TO_DATE.finditer(text) for h in _january(m)]
        chosen += [h for m in _NEXT_DAY.finditer(text) for h in _next_day(m, chosen)]
        chosen.sort(key=lambda h: h.start)
    return chosen


def _joined_years(text: str, found: list[DateHit]) -> list[DateHit]:
    """ "지난해 11월", "내년 2월 1일" in a source: a relative year and the month after it are one
    date, which a reference date resolves, so it supports an article's "2019년 11월". An article's
    own "지난해 8월" stays two facts, each looked up (a release says "전년동월" as often)."""
    joined: list[DateHit] = []
    for hit in found:
        before = joined[-1] if joined else None
        word = dict(before.stated).get("r") if before else None
        stated = dict(hit.stated)
        if (
            before is not None
            and word in YEARS
            and len(before.stated) == 1
            and "m" in stated
            and "y" not in stated
            and text[before.end : hit.start] in ("", " ")
        ):
            # The year stays a date of its own too: "지난해 11월" also says what "지난해" alone does.
            joined.append(
                DateHit(before.start, hit.end, text[before.start : hit.end], hit.stated | before.stated)
            )
        else:
            joined.append(hit)
    return joined


def _next_day(match: re.Match[str], found: list[DateHit]) -> list[DateHit]:
    """ "10일까지 지침을 마련해 다음 날부터": the day after the date written just before."""
    before = [h for h in found if h.end <= match.start() and match.start() - h.end <= _NEXT_DAY_REACH]
    stated = {k: v for k, v in before[-1].stated if isinstance(v, int)} if before else {}
    y, m, d = stated.get("y"), stated.get("m"), stated.get("d")
    if d is None or (d >= 28 and (y is None or m is None)):
        return []
    if d < 28:
        hit = _make(match, y=y, m=m, d=d + 1)
    else:
        following = date(y or 2000, m or 1, d) + timedelta(days=1)
        hit = _make(match, y=following.year, m=following.month, d=following.day)
    return [hit] if hit else []


def _short_range(match: re.Match[str]) -> list[DateHit]:
    years = [int(match[part]) for part in ("a", "b")]
    hits = [_make(match, y=2000 + y if y < 70 else 1900 + y) for y in years]
    return [h for h in hits if h] if years[0] < years[1] or years[0] >= 70 > years[1] else []


def _january(match: re.Match[str]) -> list[DateHit]:
    """The start of a year-to-date span, as the January it counts from."""
    hit = _make(match, y=int(match["y"]) if match["y"] else None, m=1)
    return [hit] if hit and int(match["m"]) > 1 else []


def alternatives(hit: DateHit, reference: date | None) -> list[Facets]:
    """The readings of an article mention; any one found in a source supports it."""
    literal = dict(hit.stated).get("r")
    if isinstance(literal, str):
        rest = frozenset(f for f in hit.stated if f[0] != "r")  # "지난해 11월": the month stays
        resolved = resolve_relative(literal, reference) if reference else None
        if not rest:
            return [f for f in (resolved, hit.stated) if f]
        # With no reference the year cannot be read: the month is checked as written.
        return [resolved | rest] if resolved else [hit.stated, rest]
    if hit.clock:
        hour, minute = dict(hit.stated)["h"], dict(hit.stated)["mi"]
        if isinstance(hour, int) and 0 < hour < 12:
            return [hit.stated, frozenset({("h", hour + 12), ("mi", minute)})]
    return [hit.stated]


def source_keys(hit: DateHit, reference: date | None) -> frozenset[str]:
    """The index keys a source mention supports: every part of what it states and, with a reference,
    parts of the date it resolves to that include what was written. So "10일" resolved to
    2026-03-10 supports "3월 10일" but never a bare "3월": the month was inferred, not stated.
    """
    # Sources repeat the same dates over and over; the keys depend only on what the mention says.
    return _source_keys(DateHit(0, 0, "", hit.stated, hit.prefix, hit.clock), reference)


@lru_cache(maxsize=4096)
def _source_keys(hit: DateHit, reference: date | None) -> frozenset[str]:
    stated = dict(hit.stated)
    readings: list[tuple[Facets, frozenset[str]]] = []
    for facets in alternatives(hit, reference):
        resolved = "r" in stated and "r" not in dict(facets)  # a relative word turned into a date
        readings.append((facets, _finest(facets) if resolved else frozenset()))
    if reference and "r" not in stated:
        partial = resolve_partial(hit.stated, hit.prefix, reference)
        readings += [(partial, frozenset(stated))] if partial else []
    readings += [(w, frozenset()) for f, _ in readings if (w := week(f))]
    return frozenset(key for facets, required in readings for key in _subsets(facets, required))


def _subsets(facets: Facets, required: frozenset[str]) -> Iterable[str]:
    """Keys of every subset keeping the required components, so a partial article date finds a fuller one."""
    items = sorted(facets, key=lambda f: f[0])
    for size in range(1, len(items) + 1):
        for combo in combinations(items, size):
            if required <= {k for k, _ in combo}:
                yield facet_key(frozenset(combo))


def _finest(facets: Facets) -> frozenset[str]:
    """What a relative word really names: 어제 a day, 지난달 a month, 올해 a year, 이번 주 a week."""
    names = {k for k, _ in facets}
    return frozenset(next(({n} for n in ("d", "m") if n in names), names))


def facet_key(facets: Facets) -> str:
    return "t:" + ",".join(f"{k}={v}" for k, v in sorted(facets, key=lambda f: f[0]))


def date_key(hit: DateHit, reference: date | None) -> str:
    """A readable key: 2026-03-05, d:5, m:3|d:5, y:2026, t:15:00, w:2026-W10, r:어제."""
    parts = dict(alternatives(hit, reference)[0])
    if {"y", "m", "d"} <= parts.keys():
        return f"{parts['y']:04}-{parts['m']:02}-{parts['d']:02}"
    if "h" in parts:
        return f"t:{parts['h']}:{parts['mi']:02}"
    if "wy" in parts:
        return f"w:{parts['wy']}-W{parts['ww']:02}"
    if "r" in parts:
        return f"r:{parts['r']}"
    return "|".join(f"{k}:{parts[k]}" for k in ("y", "m", "d") if k in parts)


# "6·13 지방선거", "5·18 민주화운동": a day with a middle dot that names an election or a historic
# event. A policy named by its day ("7·10 대책") stays a date: articles exchange such days.
_NAMED = re.compile(r" ?[가-힣]{0,6}(?:선거|총선|대선|운동|항쟁|혁명|의거|참사|사태|전쟁)")


# A table's header row of years: "구분 2022 2023 증감", "’22 ’23" is read by _SHORT_YEAR elsewhere.
_HEADER_YEAR = re.compile(r"(?<![\d.,])(?:19[5-9]\d|20\d\d)(?![\d.,%])")


# A table's row labelled by its year: "2020  203.8  203.1", the year opening a line of figures.
_ROW_YEAR = re.compile(r"\s*(?:19[5-9]\d|20\d\d)(?=\s+[△∆-]?\d[\d,.]*\s+[△∆-]?\d)")


def header_years(text: str) -> list[DateHit]:
    """The years of a table's header row, a line that lists two or more bare years, and of its
    rows labelled by a year."""
    found: list[DateHit] = []
    start = 0
    for line in text.split("\n"):
        years_ = list(_HEADER_YEAR.finditer(line))
        if _ROW_YEAR.match(line):
            years_ = years_[:1]
        if len(years_) >= 2 or _ROW_YEAR.match(line):
            found += [
                DateHit(start + m.start(), start + m.end(), m.group(), frozenset({("y", int(m.group()))}))
                for m in years_
            ]
        start += len(line) + 1
    return found


def is_name(text: str, hit: DateHit) -> bool:
    """Whether the date is part of an event's name, which an article may use without a claim."""
    return any(dot in hit.text for dot in "·ㆍ・") and bool(_NAMED.match(text, hit.end))


def years(hit: DateHit) -> list[int]:
    return [v for k, v in hit.stated if k == "y" and isinstance(v, int)]


# --- parsing ----------------------------------------------------------------------------------
def _make(match: re.Match[str], **parts: int | None) -> DateHit | None:
    y, m, d = parts.get("y"), parts.get("m"), parts.get("d")
    if (y is not None and not 1900 <= y <= 2100) or (m is not None and not 1 <= m <= 12):
        return None
    if d is not None and not 1 <= d <= 31:
        return None
    facets = frozenset((k, v) for k, v in parts.items() if v is not None)
    return DateHit(match.start(), match.end(), match.group(), facets)


def _dotted(match: re.Match[str]) -> list[DateHit]:
    hit = _make(match, y=_year(match), m=int(match["m"]), d=int(match["d"]))
    return [hit] if hit else []


def _dotted_month(match: re.Match[str]) -> list[DateHit]:
    hit = _make(match, y=_year(match), m=int(match["m"] or match["m2"]))
    return [hit] if hit else []


def _weekday(match: re.Match[str]) -> list[DateHit]:
    hit = _make(match, m=int(match["m"]), d=int(match["d"]))
    return [hit] if hit else []


def _year(match: re.Match[str]) -> int:
    """A four-digit year, or '07 read as 2007 and '98 as 1998."""
    if match["y"]:
        return int(match["y"])
    short = int(match["yy"])
    return 2000 + short if short < 70 else 1900 + short


def _korean(match: re.Match[str]) -> list[DateHit]:
    """One hit per day of a range: "3월 5~7일" states 3월 5일 and 3월 7일."""
    ys = [_year(match)] if match["yy"] else _values(match["y"])
    ms = _values(match["ym"] or match["m"])
    ds = _values(match["ymd"] or match["md"] or match["d"])
    hits = [_make(match, y=y, m=m, d=d) for y, m, d in product(ys, ms, ds)]
    return [] if None in hits else [h for h in hits if h]


def _values(part: str | None) -> list[int | None]:
    return [int(v) for v in re.findall(r"\d+", part)] if part else [None]


def _time(match: re.Match[str]) -> list[DateHit]:
    hour = int(match["h"])
    minute = int(match["mi"] or match["mm"] or (30 if match["half"] else 0))
    if hour > 24 or minute > 59:
        return []
    afternoon = match["ap"] in _AFTERNOON and 0 < hour < 12
    facets = frozenset({("h", hour + 12 if afternoon else hour), ("mi", minute)})
    return [DateHit(match.start(), match.end(), match.group(), facets, clock=match["ap"] is None)]


def _relative(match: re.Match[str]) -> list[DateHit]:
    word = match["w"].replace(" ", "")
    word = _CANONICAL.get(word, word)
    return [DateHit(match.start(), match.end(), match.group(), frozenset({("r", word)}))]


def _with_prefix(text: str, hit: DateHit) -> DateHit:
    """Attach a preceding 지난/오는 to a day or month: it tells which way to resolve it."""
    stated = dict(hit.stated)
    if not ({"d", "m"} & stated.keys()) or "y" in stated:
        return hit
    found = _PREFIX.search(text[max(0, hit.start - 3) : hit.start])
    if not found:
        return hit
    start = hit.start - len(found.group())
    return replace(hit, start=start, text=text[start : hit.end], prefix=found.group(1))

"""Partial dates and relative day words resolved against the article's date, apart from dates.py's reading."""

from __future__ import annotations

from datetime import date, timedelta

Facet = tuple[str, int | str]
Facets = frozenset[Facet]

_DAYS = {"오늘": 0, "어제": -1, "그제": -2, "내일": 1, "모레": 2}
YEARS = {"올해": 0, "지난해": -1, "재작년": -2, "내년": 1}
_MONTHS = {"지난달": -1, "이번달": 0, "다음달": 1}
_WEEKS = {"지난주": -1, "이번주": 0, "다음주": 1}


def resolve_relative(word: str, reference: date) -> Facets | None:
    if word in _DAYS:
        return _full(reference + timedelta(days=_DAYS[word]))
    if word in YEARS:
        return frozenset({("y", reference.year + YEARS[word])})
    if word in _MONTHS:
        y, m = _shift_month(reference.year, reference.month, _MONTHS[word])
        return frozenset({("y", y), ("m", m)})
    if word in _WEEKS:
        iso = (reference + timedelta(weeks=_WEEKS[word])).isocalendar()
        return frozenset({("wy", iso.year), ("ww", iso.week)})
    return None


def resolve_partial(stated: Facets, prefix: str, reference: date) -> Facets | None:
    """The nearest full date (or year and month) a source mention without a year refers to; prefix is
    a preceding 지난 or 오는, which tells which way to look."""
    parts = dict(stated)
    if "y" in parts or "h" in parts:
        return None
    month, day = parts.get("m"), parts.get("d")
    if isinstance(day, int):
        months = [month] if isinstance(month, int) else None
        options = [o for o in _day_options(reference, months, day) if _allowed(o, reference, prefix)]
        best = min(options, key=lambda o: abs((o - reference).days), default=None)
        return _full(best) if best else None
    if isinstance(month, int):
        first = reference.replace(day=1)
        years = [y for y in _around(reference.year) if _allowed(date(y, month, 1), first, prefix)]
        best_year = min(years, key=lambda y: abs(y - reference.year), default=None)
        return frozenset({("y", best_year), ("m", month)}) if best_year else None
    return None


def _day_options(reference: date, months: list[int] | None, day: int) -> list[date]:
    if months is None:  # a bare day: this month or a neighbouring one
        pairs = [_shift_month(reference.year, reference.month, delta) for delta in (-1, 0, 1)]
    else:
        pairs = [(y, months[0]) for y in _around(reference.year)]
    options = []
    for y, m in pairs:
        try:
            options.append(date(y, m, day))
        except ValueError:  # 31일 in a 30-day month
            continue
    return options


def _allowed(option: date, reference: date, prefix: str) -> bool:
    return not (prefix == "지난" and option > reference) and not (prefix == "오는" and option < reference)


def _around(year: int) -> tuple[int, int, int]:
    return year - 1, year, year + 1


def _shift_month(year: int, month: int, delta: int) -> tuple[int, int]:
    index = year * 12 + month - 1 + delta
    return index // 12, index % 12 + 1


def _full(day: date) -> Facets:
    return frozenset({("y", day.year), ("m", day.month), ("d", day.day)})


def week(facets: Facets) -> Facets | None:
    parts = dict(facets)
    y, m, d = parts.get("y"), parts.get("m"), parts.get("d")
    if not (isinstance(y, int) and isinstance(m, int) and isinstance(d, int)):
        return None
    try:
        iso = date(y, m, d).isocalendar()
    except ValueError:
        return None
    return frozenset({("wy", iso.year), ("ww", iso.week)})

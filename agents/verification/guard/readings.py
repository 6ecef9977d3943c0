"""More readings of a source figure than its text gives alone: numbers a PDF broke apart, an
amount in 억 or 조 whose 원 the release left out, and bare numbers under a table's "단위:" header.
"""

from __future__ import annotations

import re
from dataclasses import replace
from decimal import Decimal
from functools import lru_cache

from agents.verification.guard.numbers import NumberHit, find_numbers
from agents.verification.guard.within import MAGNITUDES

_HEADER = re.compile(r"단위\s?[:：]?\s?(?P<units>[^)\]\n]{1,24}?)\s?(?:[)\]]|\n|$)")
# A bracket holding nothing but a unit: a table's column or row label, "출생아(명)", "(억 달러)".
_UNIT_LABEL = re.compile(r"\((?P<unit>[^()\d\n]{1,8})\)")
_TABLE_REACH = 2000  # characters after a "단위:" header in which bare numbers take its unit
_BROKEN = re.compile(r"(?<![\d.,])(\d{1,3})(, | )$")


def rejoined(text: str, hit: NumberHit) -> list[NumberHit]:
    """PDF text breaks numbers apart: "3, 300만 달러" is 3,300만 달러 and "2 45.5%" is 245.5%."""
    broken = _BROKEN.search(text, max(0, hit.start - 6), hit.start)
    if not broken or (broken.group(2) == ", " and not re.match(r"\d{3}(?!\d)", hit.text)):
        return []
    joined = find_numbers(broken.group(1) + broken.group(2).strip() + hit.text, lenient=True)
    return [replace(joined[0], start=hit.start, end=hit.end)] if joined and joined[0].unit == hit.unit else []


# "삼성전자 외 9개사": the named one and nine others, ten in all.
_BESIDES = re.compile(r"[가-힣A-Za-z0-9)’”'\"] 외 ?$")  # a word, then 외 apart: not "국내외 4곳"


def besides(text: str, hit: NumberHit) -> list[NumberHit]:
    """ "A 외 9개사" also read as the 10개사 it counts with A."""
    if (
        not hit.unit
        or hit.scaled
        or "." in hit.text
        or not _BESIDES.search(text, max(0, hit.start - 4), hit.start)
    ):
        return []
    return [replace(hit, value=hit.value + 1)]


def won(hit: NumberHit) -> list[NumberHit]:
    """ "총 2,000억 규모의 사업": releases often leave 원 out of an amount in 억 or 조."""
    return [replace(hit, unit="원")] if not hit.unit and hit.scaled and hit.value >= MAGNITUDES["억"] else []


def table_readings(text: str, hits: list[NumberHit]) -> list[NumberHit]:
    """Bare numbers under a "(단위: 억원)" header, or a line of unit labels ("출생아(명)",
    "수출액(억 달러)", "(%)"), also read as amounts of those units."""
    readings: list[NumberHit] = []
    headers = _headers(text)
    for i, (_, end, units, note) in enumerate(headers):
        # A "단위:" note holds for its whole table: a line of column labels inside it ("증감률(%)")
        # adds their units for the figures below, it does not end the note's reach.
        after = [h[0] for h in headers[i + 1 :] if h[3] or not note]
        reach = min(end + _TABLE_REACH, after[0] if after else len(text))
        for hit in hits:
            if end <= hit.start < reach and not hit.unit and not hit.scaled:
                readings += [replace(hit, value=hit.value * scale, unit=unit) for scale, unit in units]
    return readings


def _headers(text: str) -> list[tuple[int, int, list[tuple[Decimal, str]], bool]]:
    """(start, end, units, whether a "단위:" note) of each unit header: a "단위:" note, or a line's
    bracketed unit labels, all of whose units the figures below may take (a column each)."""
    found = []
    for header in _HEADER.finditer(text):
        units = [u for u in (_unit_of(part) for part in re.split(r"[,/·]", header["units"])) if u]
        found.append((header.start(), header.end(), units, True))
    by_line: dict[int, list[re.Match[str]]] = {}
    for label in _UNIT_LABEL.finditer(text):
        if _unit_of(label["unit"]) and not any(s <= label.start() < e for s, e, _, _ in found):
            by_line.setdefault(text.rfind("\n", 0, label.start()), []).append(label)
    for labels in by_line.values():
        units = list(dict.fromkeys(u for u in (_unit_of(m["unit"]) for m in labels) if u))
        found.append((labels[0].start(), labels[-1].end(), units, False))
    return sorted(found, key=lambda h: h[0])


@lru_cache(maxsize=1024)
def _unit_of(written: str) -> tuple[Decimal, str] | None:
    """ "억원" → (10^8, 원); "천 달러" → (1000, 달러); "%" → (1, %)."""
    found = find_numbers(f"1{written.strip()}", lenient=True)
    if len(found) != 1 or not found[0].unit:
        return None
    return found[0].value, found[0].unit

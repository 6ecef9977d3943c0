"""More readings of a source figure than its text gives alone: numbers a PDF broke apart, an
amount in 억 or 조 whose 원 the release left out, and bare numbers under a table's "단위:" header.
"""

from __future__ import annotations

import re
from dataclasses import replace
from decimal import Decimal

from agents.verification.guard.numbers import NumberHit, find_numbers
from agents.verification.guard.within import MAGNITUDES

_HEADER = re.compile(r"단위\s?[:：]?\s?(?P<units>[^)\]\n]{1,24}?)\s?(?:[)\]]|\n|$)")
_TABLE_REACH = 2000  # characters after a "단위:" header in which bare numbers take its unit
_BROKEN = re.compile(r"(?<![\d.,])(\d{1,3})(, | )$")


def rejoined(text: str, hit: NumberHit) -> list[NumberHit]:
    """PDF text breaks numbers apart: "3, 300만 달러" is 3,300만 달러 and "2 45.5%" is 245.5%."""
    broken = _BROKEN.search(text, max(0, hit.start - 6), hit.start)
    if not broken or (broken.group(2) == ", " and not re.match(r"\d{3}(?!\d)", hit.text)):
        return []
    joined = find_numbers(broken.group(1) + broken.group(2).strip() + hit.text, lenient=True)
    return [replace(joined[0], start=hit.start, end=hit.end)] if joined and joined[0].unit == hit.unit else []


def won(hit: NumberHit) -> list[NumberHit]:
    """ "총 2,000억 규모의 사업": releases often leave 원 out of an amount in 억 or 조."""
    return [replace(hit, unit="원")] if not hit.unit and hit.scaled and hit.value >= MAGNITUDES["억"] else []


def table_readings(text: str, hits: list[NumberHit]) -> list[NumberHit]:
    """Bare numbers under a "(단위: 억원)" header also read as amounts of that unit."""
    readings: list[NumberHit] = []
    headers = list(_HEADER.finditer(text))
    for i, header in enumerate(headers):
        units = [u for u in (_unit_of(part) for part in re.split(r"[,/·]", header["units"])) if u]
        reach = min(
            header.end() + _TABLE_REACH, headers[i + 1].start() if i + 1 < len(headers) else len(text)
        )
        for hit in hits:
            if header.end() <= hit.start < reach and not hit.unit and not hit.scaled:
                readings += [replace(hit, value=hit.value * scale, unit=unit) for scale, unit in units]
    return readings


def _unit_of(written: str) -> tuple[Decimal, str] | None:
    """ "억원" → (10^8, 원); "천 달러" → (1000, 달러); "%" → (1, %)."""
    found = find_numbers(f"1{written.strip()}", lenient=True)
    if len(found) != 1 or not found[0].unit:
        return None
    return found[0].value, found[0].unit

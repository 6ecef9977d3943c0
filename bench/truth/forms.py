"""Korean ways of writing one value, as papers rewrite a release's figures.

Every function returns the new surface or None where the form does not fit the value (a form that
would change the value, or one no paper writes for it). The caller never has to check the meaning:
each form here writes exactly the value it is given, or a value that "약", "여" or "가량" states
truthfully.
"""

from __future__ import annotations

from decimal import ROUND_DOWN, ROUND_HALF_UP, Decimal

from bench.truth.figures import PERCENT, PERCENT_POINT

_BIG = [("조", Decimal(10) ** 12), ("억", Decimal(10) ** 8), ("만", Decimal(10) ** 4)]
NATIVE = {1: "한", 2: "두", 3: "세", 4: "네", 5: "다섯", 6: "여섯", 7: "일곱", 8: "여덟", 9: "아홉", 10: "열"}
# Counters that take a native numeral in papers ("세 곳", "두 배"); a Sino counter ("3년", "5%",
# "2개사") never does. 개월 is written 달 after a native numeral ("두 달").
NATIVE_COUNTERS = {
    **{
        c: c
        for c in [
            "명",
            "개",
            "곳",
            "가지",
            "마리",
            "대",
            "척",
            "권",
            "채",
            "배",
            "차례",
            "건",
            "가구",
            "시간",
        ]
    },
    "개월": "달",
}


def digits(value: Decimal, *, comma: bool) -> str:
    """1234567 → "1,234,567" or "1234567"; decimals keep their written precision."""
    text = format(value, "f")
    whole, _, frac = text.partition(".")
    if comma:
        whole = f"{int(whole):,}"
    return whole + ("." + frac if frac else "")


def man_form(value: Decimal, *, style: str) -> str | None:
    """An integral value of 10,000 or more in 조/억/만 groups.

    style "compact": 2867만8000 · "comma": 2,867만8,000 · "cheon": 2천867만8천 (천 inside a
    group only where the group reads so) · "spaced": 2,867만 8천 (groups spaced, a remainder of
    whole thousands as 천).
    """
    if value != value.to_integral_value() or value < 10_000:
        return None
    rest = int(value)
    parts: list[str] = []
    for word, size in _BIG:
        count, rest = divmod(rest, int(size))
        if count:
            parts.append(_group(count, style) + word)
    if rest:
        parts.append(_group(rest, style, last=True))
    return (" " if style == "spaced" else "").join(parts)


def _group(count: int, style: str, *, last: bool = False) -> str:
    if style == "compact":
        return str(count)
    if style == "comma":
        return f"{count:,}"
    if style == "cheon":
        thousands, rest = divmod(count, 1000)
        if thousands and rest == 0:
            return f"{thousands}천"
        return f"{thousands}천{rest}" if thousands and rest >= 100 else str(count)
    # spaced: a remainder of whole thousands reads "8천"; groups keep their comma
    if last and count % 1000 == 0:
        return f"{count // 1000}천"
    return f"{count:,}"


def scaled_decimal(value: Decimal, unit_word: str) -> str | None:
    """1,420,000,000 with "억" → "14.2억": a decimal amount over one magnitude (as "14.2억 달러")."""
    size = dict(_BIG)[unit_word]
    scaled = value / size
    if scaled < 1 or scaled == scaled.to_integral_value():
        return None
    text = format(scaled.normalize(), "f")
    return text + unit_word if len(text.partition(".")[2]) <= 2 else None


def percent_word(unit: str) -> str | None:
    """% ↔ 퍼센트, %p ↔ %포인트 ↔ 퍼센트포인트."""
    if unit in PERCENT:
        return "퍼센트" if unit != "퍼센트" else "%"
    if unit in PERCENT_POINT:
        return "%포인트" if unit in ("%p", "%P", "％p") else "%p"
    return None


def native(value: Decimal, unit: str) -> str | None:
    """3개 → "세 개", 2개월 → "두 달"; only 1 to 10 and only before a native counter."""
    if unit not in NATIVE_COUNTERS or value != value.to_integral_value() or int(value) not in NATIVE:
        return None
    return f"{NATIVE[int(value)]} {NATIVE_COUNTERS[unit]}"


def rounded(value: Decimal) -> tuple[Decimal, Decimal] | None:
    """(nearest, floor) of an integral value of 1,000 or more that is not already round, at the
    precision papers keep: two significant digits below 100,000 ("약 1만4000명" for 13,978), three
    from there on ("약 222만 명", "221만여 명" for 2,216,612). None where the value is round."""
    if value != value.to_integral_value() or value < 1000:
        return None
    digits_ = len(str(int(value)))
    step = Decimal(10) ** (digits_ - (2 if value < 100_000 else 3))
    nearest = (value / step).quantize(Decimal(1), rounding=ROUND_HALF_UP) * step
    floor = (value / step).quantize(Decimal(1), rounding=ROUND_DOWN) * step
    if floor == value:
        return None
    return nearest, floor


def one_decimal(value: Decimal) -> Decimal | None:
    """23.46 → 23.5 ("약 23.5%"); only for two or more decimals."""
    frac = format(value, "f").partition(".")[2]
    if len(frac) < 2:
        return None
    result = value.quantize(Decimal("0.1"), rounding=ROUND_HALF_UP)
    return result if result != value and result != 0 else None


def amount(value: Decimal) -> str:
    """The plainest paper form of a value: 만-groups from 10,000 on, digits with commas below."""
    return man_form(value, style="compact") or digits(value, comma=value >= 1000)

"""Numbers with Korean magnitudes and units, compared by exact value and canonical unit.

"1,200억원", "1200억 원" and "0.12조원" all become (120000000000, 원); "3.5%" and "3.5퍼센트" both
become (3.5, %). Values are Decimals so that no digit is ever lost to floating point.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from decimal import Decimal
from functools import lru_cache

from agents.verification.guard.hangul import HangulHit, find_hangul, firsts_in_words

# Surface form → canonical unit. Words that are also particles (도, 부터) are left out on purpose:
# "100도 넘는다" would otherwise become a unit the source never wrote.


def _words(text: str) -> list[str]:
    return text.split()


_UNITS: dict[str, str] = {
    **{word: word for word in _words("원 달러 엔 유로 위안 파운드 포인트 배 bp")},
    **{"%": "%", "％": "%", "퍼센트": "%"},
    **{form: "%p" for form in ("%p", "%P", "％p", "%포인트", "％포인트", "퍼센트포인트")},
    **{
        word: word
        for word in _words(
            "명 인 건 개 개사 개국 개소 개교 곳 대 채 가구 세대 마리 권 편 곡 점 표 석 종 가지 척 층 호 호선 "
            "병상 단계 학년 쪽 장 위 회 회차 차 차례 번 번째 주택 년 주년 개월 주 일 시간 분 분기 초 세 평"
        )
    },
    **{"개년": "년", "주일": "주", "살": "세", "교": "교"},
    **{"톤": "t", "t": "t", "kg": "kg", "㎏": "kg", "km": "km", "㎞": "km", "m": "m", "cm": "cm", "㎝": "cm"},
    **{"mm": "mm", "㎜": "mm", "㎡": "㎡", "m²": "㎡", "㎢": "㎢", "km²": "㎢", "ha": "ha", "㏊": "ha"},
    **{"L": "L", "ℓ": "L", "리터": "L", "℃": "℃", "°C": "℃", "GB": "GB", "TB": "TB", "MB": "MB"},
    **{"MW": "MW", "㎿": "MW", "GW": "GW", "kW": "kW", "㎾": "kW", "kWh": "kWh", "㎾h": "kWh"},
    **{"MWh": "MWh", "GWh": "GWh", "TWh": "TWh"},
    # A release writes the symbol, an article often the word: "30㎞" is "30킬로미터", "84㎡" is
    # "84제곱미터", "1.5GW" is "1.5기가와트".
    **{"킬로미터": "km", "미터": "m", "센티미터": "cm", "밀리미터": "mm", "킬로그램": "kg"},
    **{"제곱미터": "㎡", "평방미터": "㎡", "제곱킬로미터": "㎢", "평방킬로미터": "㎢", "헥타르": "ha"},
    **{"메가와트": "MW", "기가와트": "GW", "킬로와트": "kW", "킬로와트시": "kWh"},
    **{"메가와트시": "MWh", "기가와트시": "GWh", "테라와트시": "TWh"},
}
# "24.7도" is a temperature where the figure has a fraction or the words before it speak of one
# ("영하 10도", "낮 최고기온이 35도"); elsewhere 도 is the particle "also" ("3000도 무너졌다").
_DEGREES = re.compile(r"도(?![시청민내의])")
_TEMPERATURE = re.compile(r"기온|온도|수온|체온")
_WARM = re.compile(r"(?:기온|온도|수온|체온|섭씨|영하|영상)[^.!?\n]{0,20}$")
# Counters that count the same thing: "7곳", "7개소" and "7개" of sites, "12교" and "12개교" of
# schools, "300개사" and "300개 기업" of firms; rounds "3차" and "3회". A figure is compared by its
# family, so a reporter's choice of counter is never a false flag.
_FAMILIES = {**dict.fromkeys(_words("곳 개 개소 교 개교 개사"), "개"), "살": "세"}
# 3차 추경 is the 3회 추경, and "정밀검사(5회 연속)" is "다섯 차례 연속 정밀검사".
_FAMILIES |= dict.fromkeys(_words("차 회 회차 차례"), "회")
# A rank is an ordinal: "1973년 이래 4위" is the "4번째로 높은" record. (차 stays a round: "1차
# 메가프로젝트" is no "첫번째 금융지원".)
_FAMILIES |= dict.fromkeys(_words("번째 위"), "번째")
# Dwellings: housing statistics count 호, papers write 가구 or 세대 for the same homes
# ("미분양 주택 65,836호" is "미분양 주택 6만5836가구").
_FAMILIES |= dict.fromkeys(_words("호 가구 세대"), "호")
# Ordinals: in "제3조" 조 is an article of a law, not a trillion.
_ORDINAL_COUNTERS = _words("조 항 호 장 절 차 회 기 대 권 편 관 위")


def _unit_pattern() -> str:
    """Longest first, so 개월 wins over 개 and 위안 over 위; Latin units must not run into a word."""
    forms = sorted(_UNITS, key=len, reverse=True)
    latin = re.compile(r"[A-Za-z]$")
    guards = {**dict.fromkeys(_words("교"), "(?!시|대|육|사|류|통|수|원|회|체)")}
    return "|".join(re.escape(f) + ("(?![A-Za-z])" if latin.search(f) else guards.get(f, "")) for f in forms)


_UNIT = _unit_pattern()
_NUM = r"(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?"
_SCALE = r"(?:[천백](?:조|억|만)?|조|억|만)"
# PDF text puts spaces inside amounts ("3조 2,150 억원", "1,830 억 원", "5 조"): a magnitude after a
# space counts when what follows cannot be a word of its own (a unit, a mark, the end).
_SPACED_SCALE = r"(?: (?:조|억|만)(?=[^가-힣]|$| ?(?:원|달러|명|개|곳|가구|건|대|t|톤)))"
_ANY_SCALE = rf"(?:{_SCALE}|{_SPACED_SCALE})"
# 1조2000억 / 3조 5,000억 / 2만5000 / 2만 5000명 / 4만 1000여 명 / 1억2천만 / 1천200억
_COMPOUND = rf"{_NUM}(?:{_ANY_SCALE}(?: ?{_NUM}{_ANY_SCALE})*(?:{_NUM}| {_NUM}(?= ?(?:여 ?)?(?:{_UNIT})))?)?"
# The lookaheads in front let a scan pass over the characters no match starts with at once.
_QUANTITY = re.compile(rf"(?=\d)(?<![\d.’‘'])(?P<num>{_COMPOUND})(?P<gap>(?: ?여)? ?)(?P<unit>{_UNIT})?")
# "제3조", "제3차"; and "제1총괄조정관", "제2공항": a numbered name is a figure too (unit 제).
_ORDINAL = re.compile(
    rf"(?=제)(?<![가-힣])제 ?(?P<num>\d+)(?: ?(?P<unit>{'|'.join(_ORDINAL_COUNTERS)})|(?=[가-힣]))"
)
_TOKEN = re.compile(rf"(?P<num>{_NUM}) ?(?P<small>[천백])?(?P<big>조|억|만)?")
_SMALL = {"천": Decimal(1000), "백": Decimal(100)}
_BIG = {"조": Decimal(10) ** 12, "억": Decimal(10) ** 8, "만": Decimal(10) ** 4}
_RANGE = re.compile(r" ?[~∼〜] ?")
# Between the two figures a short label in brackets may stand: "(’20년) 1,029 → (’21안) 1,311억 원".
_LABEL = r"(?: ?\([^()\d]{0,8}\d{0,4}[^()\d]{0,8}\))?"
_ARROW = re.compile(rf"{_LABEL} ?(?:→|->|⟶|에서|/){_LABEL} ?")
_LIST = re.compile(r" ?(?:,|、|·|및 |와 |과 |또는 ) ?")


@dataclass(frozen=True)
class NumberHit:
    start: int
    end: int
    text: str
    value: Decimal
    unit: str  # canonical unit, "" for a bare number
    digits: int  # digits written, to drop bare one-digit numbers from articles
    scaled: bool  # a magnitude word (만, 억, 조, 천) was used
    scale: Decimal  # the multiplier of a one-token amount (5조 → 10^12), for "3~5조원"

    items: int = 0  # a Hangul numeral summing up a list written before it: the list's length

    @property
    def key(self) -> str:
        return f"{format_value(self.value)}|{self.unit}"

    @property
    def family(self) -> str:
        """The unit compared: counters of the same thing share one family."""
        return family(self.unit)


def family(unit: str) -> str:
    """Counters of the same thing share a family; "두 지표" and "세 분야" (a numeral before any noun,
    unit "~지표") are all counts of listed things."""
    return "~" if unit.startswith("~") else _FAMILIES.get(unit, unit)


def format_value(value: Decimal) -> str:
    """Canonical text of a value: 1.2E+11 → 120000000000, 3.50 → 3.5."""
    return format(value.normalize(), "f")


def find_numbers(text: str, *, lenient: bool = False) -> list[NumberHit]:
    """Every number in text. lenient also accepts a space before a Korean unit ("1,200 명").

    Sources are read leniently because text pulled out of PDFs is often spaced oddly; articles
    strictly, so that "3 대 1" or "10 일자리" never invent a unit.
    """
    hits = [_ordinal(m) for m in _ORDINAL.finditer(text)]
    hits += [_ratio(m) for m in _RATIO.finditer(text) if m["num"] != "1"]  # "1:1 상담" is no figure
    hits += [_native(h) for h in find_hangul(text) if not _covered(h, hits)]
    if lenient:
        hits += [_native(h) for h in firsts_in_words(text) if not _covered(h, hits)]
    masked = mask(text, [(h.start, h.end) for h in hits])
    hits += [_quantity(m, lenient) for m in _QUANTITY.finditer(masked)]
    hits.sort(key=lambda h: h.start)
    return _inherit_ranges(text, hits)


# A ratio to one: "5.22:1" is "5.22대 1" (a competition rate), never 5.22 vehicles.
# With a space before 대 it is a score: "30 대 1로 끝났다".
_RATIO = re.compile(r"(?=\d)(?<![\d.,:])(?P<num>\d+(?:\.\d+)?)(?: ?: ?|대 ?)1(?![\d.,:])")
RATIO = "대1"


def _ratio(match: re.Match[str]) -> NumberHit:
    number = match.group("num")
    digits = sum(c.isdigit() for c in number)
    return NumberHit(
        match.start(), match.end(), match.group(), Decimal(number), RATIO, digits, False, Decimal(1)
    )


def _covered(hit: HangulHit, hits: list[NumberHit]) -> bool:
    return any(other.start < hit.end and hit.start < other.end for other in hits)


def mask(text: str, spans: list[tuple[int, int]]) -> str:
    """Blank out spans (same length, so positions stay valid) with a character no pattern matches."""
    chars = list(text)
    for start, end in spans:
        chars[start:end] = "\x00" * (end - start)
    return "".join(chars)


def _native(hit: HangulHit) -> NumberHit:
    """A Hangul numeral is compared like the digits it stands for."""
    value = Decimal(hit.value)
    return NumberHit(hit.start, hit.end, hit.text, value, hit.unit, 2, False, Decimal(1), hit.items)


def _ordinal(match: re.Match[str]) -> NumberHit:
    number = match.group("num")
    value = Decimal(number)
    unit = match.group("unit") or "제"
    return NumberHit(match.start(), match.end(), match.group(), value, unit, len(number), False, Decimal(1))


def _quantity(match: re.Match[str], lenient: bool) -> NumberHit:
    number, gap, unit = match.group("num"), match.group("gap"), match.group("unit") or ""
    value, scale, scaled = _parse(number)
    # A space before a Korean unit counts only after a magnitude ("1200억 원", "5만 명") or after
    # 여 ("about": "7800여 곳", "30여 명").
    loose = scaled or "여" in gap
    if unit and gap == " " and not (lenient or loose or unit[0].isascii() or not unit[0].isalpha()):
        unit = ""
    end = match.end() if unit else match.end("num")
    canonical = _UNITS.get(unit, "")
    if not unit and _degrees(match.string, match.end("num"), warm="." in number):
        canonical, end = "℃", match.end("num") + 1
    digits = sum(map(str.isdigit, number))
    text = match.string[match.start() : end]
    return NumberHit(match.start(), end, text, value, canonical, digits, scaled, scale)


def celsius(text: str, hit: NumberHit) -> list[NumberHit]:
    """A release's table leaves the unit to its row: "일최고기온 극값 경신 지점: 울진 37.3 (2위)"
    is 37.3℃. A bare figure with a fraction on a line that speaks of a temperature before it also
    reads as degrees, as "37.3도" in the article does."""
    line = text.rfind("\n", 0, hit.start) + 1
    if hit.unit or hit.scaled or "." not in hit.text or not _TEMPERATURE.search(text, line, hit.start):
        return []
    return [replace(hit, unit="℃")]


def _degrees(text: str, end: int, *, warm: bool) -> bool:
    """Whether 도 right after a figure ending at `end` is degrees Celsius (see _DEGREES)."""
    if not _DEGREES.match(text, end):
        return False
    return warm or bool(_WARM.search(text, 0, end))


_PLAIN = re.compile(r"[\d,]{1,20}(?:\.\d{1,8})?")  # no magnitude word, few enough digits to be exact


@lru_cache(maxsize=4096)
def _parse(number: str) -> tuple[Decimal, Decimal, bool]:
    """(value, scale of a one-token amount, whether any magnitude word was used)."""
    if _PLAIN.fullmatch(number):  # most figures: the tokens below would give just this
        return Decimal(number.replace(",", "")), Decimal(1), False
    total = group = Decimal(0)
    tokens = list(_TOKEN.finditer(number))
    scale = Decimal(1)
    for token in tokens:
        small = _SMALL.get(token.group("small") or "", Decimal(1))
        group += Decimal(token.group("num").replace(",", "")) * small
        big = _BIG.get(token.group("big") or "", Decimal(1))
        scale = small * big
        if token.group("big"):
            total, group = total + group * big, Decimal(0)
    scaled = any(t.group("small") or t.group("big") for t in tokens)
    return total + group, scale if len(tokens) == 1 else Decimal(1), scaled


def _inherit_ranges(text: str, hits: list[NumberHit]) -> list[NumberHit]:
    """A unit written once for a range, an arrow or a list belongs to every number of it.

    "19~39세" and "3~5조원": the first number borrows the unit and magnitude of the second.
    "1,250억 → 1,480억원", "820억에서 960억원으로", "예산 30억, 25억원": an amount with its own
    magnitude but no unit borrows the unit of the next one.
    """
    result = list(hits)
    for i in range(len(result) - 1, 0, -1):
        first, second = result[i - 1], result[i]
        if first.unit or not second.unit:
            continue
        between = text[first.end : second.start]
        if not first.scaled and (_RANGE.fullmatch(between) or _ARROW.fullmatch(between)):
            value, scaled = first.value * second.scale, second.scaled
        elif first.scaled and (
            _RANGE.fullmatch(between) or _ARROW.fullmatch(between) or _LIST.fullmatch(between)
        ):
            value, scaled = first.value, True
        else:
            continue
        result[i - 1] = replace(first, value=value, unit=second.unit, scaled=scaled, scale=Decimal(1))
    return result

"""Faithful rewrites of one sentence, one format kind at a time, the way papers rewrite releases.

Each kind returns the rewritten sentence, or None where it does not apply or would not change the
sentence. A kind that cannot be sure of a figure leaves that figure as it is (`Figure.plain`), and a
kind that would leave nothing rewritten returns None: no case is better than a wrong case.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date

from bench.truth import forms
from bench.truth.figures import DateMention, Figure, find_dates, find_figures

Edit = tuple[int, int, str]


@dataclass(frozen=True)
class Context:
    reference: date | None
    kind: str  # the text's kind: a release's own announcement day is its date
    seed: str


def apply(text: str, edits: list[Edit]) -> str:
    for start, end, new in sorted(edits, reverse=True):
        text = text[:start] + new + text[end:]
    return text


# Quotations and titles are written as said or named: "작년보다 2.1% 감소" in quotes, or the year in
# ‘2019년 초중고 사교육비조사’, stays as it is in every rewrite.
_QUOTED = re.compile(r'"[^"]*"|“[^”]*”|‘[^’]*’|\'[^\']*\'|「[^」]*」|『[^』]*』|《[^》]*》|<[^>]*>')


def _rewrite(sentence: str, edits: list[Edit]) -> str | None:
    quoted = [m.span() for m in _QUOTED.finditer(sentence)]
    edits = [e for e in edits if not any(e[0] < end and start < e[1] for start, end in quoted)]
    if not edits:
        return None
    result = apply(sentence, edits)
    return result if result != sentence else None


def _amounts(sentence: str) -> list[Figure]:
    return [f for f in find_figures(sentence) if f.plain and f.unit and not f.is_time]


def _compose(amount: str, figure: Figure, *, gap: bool | None = None) -> str:
    """An amount with the figure's 여 and unit; a space before a Hangul unit only where asked."""
    spaced = figure.unit_gap if gap is None else gap
    unit_gap = " " if spaced and figure.unit and not figure.unit.isascii() and figure.unit[0] >= "가" else ""
    return amount + ("여" if figure.approx else "") + unit_gap + figure.unit


def separators(sentence: str, ctx: Context) -> str | None:
    """1,234명 ↔ 1234명: digits of an amount written without magnitude words."""
    edits = []
    for f in _amounts(sentence):
        if f.scaled or f.value < 1000 or not f.integral or f.value >= 10**8:
            continue
        comma = "," not in f.amount
        edits.append((f.start, f.start + len(f.amount), forms.digits(f.value, comma=comma)))
    return _rewrite(sentence, edits)


_STYLES = ("compact", "comma", "cheon", "spaced")


def magnitude(sentence: str, ctx: Context) -> str | None:
    """123,000명 → 12만3000명, 2,867만 8천명 → 2867만8000명 / 2천867만8천명, 14.2억 달러 → 14억2000만
    달러: the same value in another arrangement of 조/억/만 groups."""
    rng = random.Random(ctx.seed)
    edits = []
    for f in _amounts(sentence):
        if f.is_percent or f.is_point or f.value < 10_000 or not f.integral:
            continue
        styles = [s for s in _STYLES if forms.man_form(f.value, style=s) not in (None, f.amount)]
        if not styles:
            continue
        style = rng.choice(styles)
        new = forms.man_form(f.value, style=style)
        assert new is not None
        edits.append((f.start, f.end, _compose(new, f, gap=style == "spaced")))
    return _rewrite(sentence, edits)


def percent(sentence: str, ctx: Context) -> str | None:
    """3.5% ↔ 3.5퍼센트, 0.7%p ↔ 0.7%포인트."""
    edits = []
    for f in _amounts(sentence):
        word = forms.percent_word(f.unit)
        if word:
            edits.append((f.end - len(f.unit), f.end, word))
    return _rewrite(sentence, edits)


def native(sentence: str, ctx: Context) -> str | None:
    """3개 → 세 개, 2명 → 두 명, 3개월 → 세 달: small counts in Hangul numerals."""
    edits = []
    for f in find_figures(sentence):  # 개월 and 시간 too: "두 달", "세 시간"
        if not f.plain or f.scaled or f.approx:
            continue
        word = forms.native(f.value, f.unit)
        if word:
            edits.append((f.start, f.end, word))
    return _rewrite(sentence, edits)


_BATCHIM_JOSA = ("로", "는", "가", "를", "와", "라")


def rounding(sentence: str, ctx: Context) -> str | None:
    """2,867만 8천명 → 약 2870만 명 / 2860만여 명 / 2870만 명가량; 23.46% → 약 23.5%. One figure per
    sentence, as papers round the figure they lead with; two figures rounded together could meet."""
    rng = random.Random(ctx.seed)
    for f in _amounts(sentence):
        if f.approx or sentence[max(0, f.start - 2) : f.start].strip() in ("약", "총"):
            continue
        if f.is_percent or f.is_point:
            near = forms.one_decimal(f.value)
            if near:
                return _rewrite(
                    sentence, [(f.start, f.end, "약 " + forms.digits(near, comma=False) + f.unit)]
                )
            continue
        pair = forms.rounded(f.value)
        if pair is None:
            continue
        nearest, floor = pair
        gap = " " if f.unit_gap else ""
        choices = ["about", "over"]
        if not sentence[f.end : f.end + 1] or sentence[f.end] not in _BATCHIM_JOSA:
            choices.append("around")  # "가량" takes the particle of a closed syllable
        choice = rng.choice(choices)
        if choice == "over":
            new = forms.amount(floor) + "여" + gap + f.unit
        elif choice == "around":
            new = forms.amount(nearest) + gap + f.unit + "가량"
        else:
            new = "약 " + forms.amount(nearest) + gap + f.unit
        return _rewrite(sentence, [(f.start, f.end, new)])
    return None


def spacing(sentence: str, ctx: Context) -> str | None:
    """1200억 원 ↔ 1200억원, 12만 3000명 ↔ 12만3000명."""
    edits = []
    for f in _amounts(sentence):
        if not f.scaled:
            continue
        amount = f.amount.replace(" ", "") if " " in f.amount else f.amount
        if f.unit.isascii() or f.unit[0] < "가":
            if amount != f.amount:
                edits.append((f.start, f.end, _compose(amount, f)))
            continue
        edits.append((f.start, f.end, _compose(amount, f, gap=not f.unit_gap)))
    return _rewrite(sentence, edits)


_LEAD_VERB = re.compile(
    r"(?<=[다라]고 )(밝혔다|발표했다|발표하였다|밝혔습니다)|(?<=[을를] )(발표했다|발표하였다)"
)


def lead(sentence: str, ctx: Context) -> str | None:
    """ "…고 밝혔다" → "…고 25일 밝혔다" where the release is dated the 25th: the announcement day."""
    if ctx.kind != "release" or ctx.reference is None or any(d.day for d in find_dates(sentence)):
        return None  # a sentence that names a day already says when
    m = _LEAD_VERB.search(sentence)
    if m is None:
        return None
    verb = "밝혔다" if m.group().startswith("밝혔") else "발표했다"
    if m.group().endswith("습니다"):
        verb = "밝혔습니다"
    return _rewrite(sentence, [(m.start(), m.end(), f"{ctx.reference.day}일 {verb}")])


_PAREN = re.compile(r"\(([^()]{1,40})\)")


def brackets(sentence: str, ctx: Context) -> str | None:
    """제조업(10만8천명) → 제조업 10만8천명; 환경부(장관 한화진)는 → 환경부는."""
    edits = []
    figures = find_figures(sentence)
    for m in _PAREN.finditer(sentence):
        inner = m.group(1)
        before = sentence[m.start() - 1 : m.start()]
        if not re.fullmatch(r"[가-힣]", before or " "):
            continue
        inside = [f for f in figures if m.start() < f.start and f.end <= m.end()]
        if not inside and not re.search(r"\d", inner):
            edits.append((m.start(), m.end(), ""))
        elif len(inside) == 1 and inside[0].plain and inside[0].text == inner.strip():
            edits.append((m.start(), m.end(), " " + inner.strip()))
    return _rewrite(sentence, edits)


def dates(sentence: str, ctx: Context) -> str | None:
    """2024년 3월 5일 → 3월 5일 (this year) / 지난 5일 (this month, before the date) / 2024.3.5.;
    2023년 → 지난해; 지난해 → 2023년."""
    rng = random.Random(ctx.seed)
    ref = ctx.reference
    edits = []
    for d in find_dates(sentence):
        options = _date_options(d, ref)
        if options:
            edits.append((d.start, d.end, rng.choice(options)))
    if ref is not None and not edits:
        for m in re.finditer(r"(?<![가-힣])(지난해|올해)(?![가-힣])", sentence):
            year = ref.year - 1 if m.group() == "지난해" else ref.year
            edits.append((m.start(), m.end(), f"{year}년"))
    return _rewrite(sentence, edits)


def _date_options(d: DateMention, ref: date | None) -> list[str]:
    options = []
    if d.style == "full" and d.year and d.month and d.day:
        options.append(f"{d.year}.{d.month}.{d.day}.")
        if ref and d.year == ref.year:
            options.append(f"{d.month}월 {d.day}일")
            if d.month == ref.month and d.day < ref.day:
                options.append(f"지난 {d.day}일")
    elif d.style == "dotted" and d.year and d.month and d.day:
        options.append(f"{d.year}년 {d.month}월 {d.day}일")
    elif d.style == "month-day" and ref and d.month == ref.month and d.day:
        if d.day < ref.day:
            options.append(f"지난 {d.day}일")
        elif d.day > ref.day:
            options.append(f"오는 {d.day}일")
    elif d.style == "year" and ref and d.year:
        words = {ref.year: "올해", ref.year - 1: "지난해", ref.year - 2: "재작년"}
        if d.year in words:
            options.append(words[d.year])
    return options


KINDS: dict[str, Callable[[str, Context], str | None]] = {
    "separators": separators,
    "magnitude": magnitude,
    "percent": percent,
    "native": native,
    "rounding": rounding,
    "spacing": spacing,
    "dates": dates,
    "lead": lead,
    "brackets": brackets,
}


def rewrites(sentence: str, ctx: Context) -> dict[str, str]:
    """Every applicable kind's rewrite of the sentence."""
    out = {}
    for kind, rewrite in KINDS.items():
        result = rewrite(sentence, Context(ctx.reference, ctx.kind, f"{ctx.seed}:{kind}"))
        if result:
            out[kind] = result
    return out


def _batchim(word: str) -> int | None:
    """The final consonant index of the last syllable (0 = none), reading digits and % aloud."""
    last = word.rstrip()[-1:]
    if "가" <= last <= "힣":
        return (ord(last) - 0xAC00) % 28
    readings = {"0": 21, "1": 8, "2": 0, "3": 16, "4": 0, "5": 0, "6": 1, "7": 8, "8": 8, "9": 0, "%": 0}
    return readings.get(last)

"""Single injected errors in one sentence: each mutated sentence states something the text does not.

Every injector returns (mutated sentence, note) or None where it does not apply. An injection must be
a real error: a changed digit gives a value the text never states with that unit, a swap exchanges
two different values, a flipped direction word sits right after a figure, and so on.
"""

from __future__ import annotations

import itertools
import random
import re
from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal

from bench.truth import forms
from bench.truth.figures import Figure, find_dates, find_figures
from bench.truth.rewrite import Context, _batchim, apply, native

Injection = tuple[str, str]  # (mutated sentence, note)


@dataclass(frozen=True)
class Source:
    text: str  # the whole text the sentence comes from
    values: frozenset[tuple[Decimal, str]]  # (value, unit) of every figure the text states
    days: frozenset[int]
    years: frozenset[int]


def source_of(text: str) -> Source:
    values = frozenset((f.value, f.unit) for f in find_figures(text))
    dates = find_dates(text)
    days = frozenset(d.day for d in dates if d.day)
    years = frozenset(d.year for d in dates if d.year) | frozenset(
        int(y) for y in re.findall(r"(?<!\d)(?:19|20)\d\d(?!\d)", text)
    )
    return Source(text, values, days, years)


def _amounts(sentence: str) -> list[Figure]:
    return [f for f in find_figures(sentence) if f.plain and f.unit and not f.is_time]


def digit(sentence: str, src: Source, ctx: Context) -> Injection | None:
    """2,867만 8천명 → 3,867만 8천명: the first digit of a figure changed to a value the text lacks."""
    for f in _amounts(sentence):
        at = next(i for i, c in enumerate(f.amount) if c.isdigit())
        new_digit = "8" if f.amount[at] == "9" else str(int(f.amount[at]) + 1)
        amount = f.amount[:at] + new_digit + f.amount[at + 1 :]
        mutated = apply(sentence, [(f.start, f.start + len(f.amount), amount)])
        changed = [g for g in find_figures(mutated) if g.start == f.start]
        if changed and (changed[0].value, f.unit) not in src.values:
            return mutated, f"{f.text} → {changed[0].text}"
    return None


_SCALE_SWAP = {"만": "억", "억": "만", "조": "억"}
_POINT_SWAP = {"%": "%p", "%p": "%", "%P": "%", "%포인트": "%", "퍼센트": "퍼센트포인트"}


def unit(sentence: str, src: Source, ctx: Context) -> Injection | None:
    """1200억 원 → 1200만 원, 0.7%p → 0.7%, 2.1% → 2.1%p."""
    for f in _amounts(sentence):
        big = next((c for c in f.amount if c in _SCALE_SWAP), "")
        if big:
            amount = f.amount.replace(big, _SCALE_SWAP[big], 1)
            return apply(
                sentence, [(f.start, f.start + len(f.amount), amount)]
            ), f"{big} → {_SCALE_SWAP[big]}"
        if f.unit in _POINT_SWAP:
            new = _POINT_SWAP[f.unit]
            return apply(sentence, [(f.end - len(f.unit), f.end, new)]), f"{f.unit} → {new}"
    return None


_FROM_TO = re.compile(r"^\s*(?:\([^()]{0,12}\)\s*)?(?:에서|→|->)\s*(?:\([^()]{0,12}\)\s*)?$")
_WITHIN = re.compile(r"(?:이 ?중|그 ?중|가운데|중)")


def _pairs(sentence: str) -> list[tuple[Figure, Figure, str]]:
    figures = _amounts(sentence)
    out = []
    for i, a in enumerate(figures):
        for b in figures[i + 1 :]:
            if a.unit == b.unit and a.value != b.value:
                out.append((a, b, sentence[a.end : b.start]))
    return out


def _swap(sentence: str, a: Figure, b: Figure) -> str:
    return apply(sentence, [(a.start, a.end, b.text), (b.start, b.end, a.text)])


def swap(sentence: str, src: Source, ctx: Context) -> Injection | None:
    """ "A는 3.5%, B는 2.1%" → "A는 2.1%, B는 3.5%": two subjects' figures exchanged."""
    for a, b, between in _pairs(sentence):
        if _FROM_TO.match(between) or _WITHIN.search(between) or not re.search(r"[가-힣]{2}", between):
            continue
        return _swap(sentence, a, b), f"{a.text} ⇄ {b.text}"
    return None


def before_after(sentence: str, src: Source, ctx: Context) -> Injection | None:
    """ "0.98명에서 1.05명으로" → "1.05명에서 0.98명으로": the order of a change reversed."""
    for a, b, between in _pairs(sentence):
        if re.fullmatch(r"\s*에서\s*", between) or _FROM_TO.match(between):
            return _swap(sentence, a, b), f"{a.text} → {b.text} reversed"
    return None


def total_part(sentence: str, src: Source, ctx: Context) -> Injection | None:
    """ "총 3만1천명 중 4천명" → "총 4천명 중 3만1천명": a total and its part exchanged."""
    for a, b, between in _pairs(sentence):
        if _WITHIN.search(between) and a.value > b.value and len(between) <= 40:
            return _swap(sentence, a, b), f"total {a.text} ⇄ part {b.text}"
    return None


_FLIPS = [
    ("증가세", "감소세"),
    ("증가", "감소"),
    ("늘었", "줄었"),
    ("늘어", "줄어"),
    ("늘고", "줄고"),
    ("늘린", "줄인"),
    ("급증", "급감"),
    ("상승", "하락"),
    ("확대", "축소"),
    ("흑자", "적자"),
    ("개선", "악화"),
    ("높아", "낮아"),
    ("높았", "낮았"),
    ("높은", "낮은"),
    ("높게", "낮게"),
    ("앞당기", "늦추"),
    ("올랐", "내렸"),
    ("많았", "적었"),
]
_FLIP = {a: b for a, b in _FLIPS} | {b: a for a, b in _FLIPS}
_FLIP_WORD = re.compile("|".join(sorted(map(re.escape, _FLIP), key=len, reverse=True)))


def direction(sentence: str, src: Source, ctx: Context) -> Injection | None:
    """ "26만 8천명 증가" → "26만 8천명 감소": a change word right after a figure flipped."""
    figures = find_figures(sentence)
    for m in _FLIP_WORD.finditer(sentence):
        near = [f for f in figures if f.plain and 0 <= m.start() - f.end <= 25 and not f.is_time]
        if near and "," not in sentence[near[-1].end : m.start()].replace("(", ""):
            return apply(
                sentence, [(m.start(), m.end(), _FLIP[m.group()])]
            ), f"{m.group()} → {_FLIP[m.group()]}"
    return None


_LABELLED = re.compile(r"(?<![가-힣A-Za-z])([가-힣A-Za-z][가-힣A-Za-z·]{0,15})\(([^()]*\d[^()]*)\)")
_SUBJECT = re.compile(r"(?<![가-힣])([가-힣]{2,10})(은|는|이|가) (?=[\d(])")


def subject(sentence: str, src: Source, ctx: Context) -> Injection | None:
    """ "반도체(27.5%), 승용차(45.9%)" → "승용차(27.5%), 반도체(45.9%)", or "A는 3%, B는 5%" → "B는 3%,
    A는 5%": two subjects exchanged around their figures, no figure moving."""
    items = list(_LABELLED.finditer(sentence))
    for a, b in itertools.pairwise(items):
        if a.group(2) != b.group(2) and a.group(1) != b.group(1) and b.start() - a.end() <= 3:
            edits = [(a.start(1), a.end(1), b.group(1)), (b.start(1), b.end(1), a.group(1))]
            return apply(sentence, edits), f"{a.group(1)} ⇄ {b.group(1)}"
    subjects = list(_SUBJECT.finditer(sentence))
    for a, b in itertools.pairwise(subjects):
        if a.group(1) == b.group(1):
            continue
        edits = [
            (a.start(), a.end(2), b.group(1) + _josa(b.group(1), a.group(2))),
            (b.start(), b.end(2), a.group(1) + _josa(a.group(1), b.group(2))),
        ]
        return apply(sentence, edits), f"{a.group(1)} ⇄ {b.group(1)}"
    return None


def _josa(word: str, josa: str) -> str:
    final = bool(_batchim(word))
    if josa in ("은", "는"):
        return "은" if final else "는"
    return "이" if final else "가"


def date(sentence: str, src: Source, ctx: Context) -> Injection | None:
    """3월 5일 → 3월 6일, 2023년 → 2022년: a day or a year the text does not state."""
    for d in find_dates(sentence):
        if d.day:
            day = d.day + 1 if d.day < 28 else d.day - 1
            while day in src.days and day < 28:
                day += 1
            new = re.sub(rf"{d.day}(\.?)(일|\.?)$", rf"{day}\1\2", d.text)
            if new != d.text:
                return apply(sentence, [(d.start, d.end, new)]), f"{d.text} → {new}"
        if d.style == "year" and d.year:
            year = next((y for y in (d.year - 1, d.year + 1, d.year - 2) if y not in src.years), None)
            if year:
                return apply(sentence, [(d.start, d.end, f"{year}년")]), f"{d.year} → {year}"
    return None


_NATIVE_NEXT = {"한": "두", "두": "세", "세": "네", "네": "다섯", "다섯": "여섯", "여섯": "일곱"}
_NATIVE_NEXT |= {"일곱": "여덟", "여덟": "아홉", "아홉": "열", "열": "아홉"}
_NATIVE_WORD = re.compile(r"(?<![가-힣])(" + "|".join(sorted(_NATIVE_NEXT, key=len, reverse=True)) + r") ")


def hangul(sentence: str, src: Source, ctx: Context) -> tuple[str, Injection] | None:
    """On the Hangul-numeral rewrite of the sentence, one numeral changed: 세 곳 → 네 곳. Returns the
    faithful base as well, since the error is only an error against that base."""
    base = native(sentence, ctx)
    if base is None:
        return None
    for m in _NATIVE_WORD.finditer(base):
        counter = base[m.end() :].split(" ", 1)[0]
        if any(counter.startswith(c) for c in forms.NATIVE_COUNTERS.values()):
            new = _NATIVE_NEXT[m.group(1)]
            return base, (apply(base, [(m.start(1), m.end(1), new)]), f"{m.group(1)} → {new}")
    return None


def added(sentence: str, src: Source, ctx: Context) -> Injection | None:
    """A figure the text does not state, added in a sentence of its own after this one: a change in
    % at least one point away from every percentage the text gives, so it cannot be read as one of
    them rounded."""
    rng = random.Random(ctx.seed)
    stated = [v for v, u in src.values if u in ("%", "％", "퍼센트")]
    for _ in range(50):
        value = Decimal(rng.randint(21, 199)) / 10
        if value != value.to_integral_value() and all(abs(value - v) >= 1 for v in stated):
            return sentence + f" 이는 1년 전보다 {value}% 늘어난 규모다.", f"added {value}%"
    return None


KINDS: dict[str, Callable[[str, Source, Context], Injection | None]] = {
    "digit": digit,
    "unit": unit,
    "swap": swap,
    "before_after": before_after,
    "total_part": total_part,
    "direction": direction,
    "subject": subject,
    "date": date,
    "added": added,
}
ALL_KINDS = (*KINDS, "hangul")

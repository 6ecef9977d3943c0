"""Figures a release implies but never writes: sums, differences, ratios and percentage changes.

"지원 인원이 1만3000명 늘었다" is confirmed by "3만2000명에서 4만5000명으로" as 45,000 − 32,000; "40.6%
늘었다" by the same pair as a change of (45,000 − 32,000) ÷ 32,000. A result counts when it rounds to
the figure as written (newspapers round to the last digit they write), and only from figures that
stand close together in one source, so that two unrelated numbers never add up by chance.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from decimal import ROUND_DOWN, ROUND_HALF_UP, Decimal, InvalidOperation

from agents.verification.guard.numbers import format_value

NEIGHBOURHOOD = 300  # characters: operands must be this close in one source
SPREAD = 50  # the parts of a sum or difference are of a size: at most this many times apart
_HUNDRED = Decimal(100)
# Ordinals, ages and durations have no share or growth rate.
_NO_RATES = frozenset(("세", "위", "번째", "차", "회", "회차", "분기", "학년", "호", "층", "호선", "단계"))
_NO_RATES |= {"년", "주년", "개월", "주", "일", "시간", "분", "초"}


@dataclass(frozen=True)
class Operand:
    value: Decimal
    family: str
    source: int
    start: int
    end: int
    text: str
    sentence: int = 0  # where its source sentence starts: a rate comes from one sentence


@dataclass(frozen=True)
class Derivation:
    formula: str
    operands: tuple[Operand, Operand]
    result: Decimal


def derive(value: Decimal, family: str, operands: Sequence[Operand], quantum: Decimal) -> Derivation | None:
    """The first formula over two nearby operands whose result, rounded to quantum (the last digit
    the article writes: 0.1 for "40.6%", 1억 for "1,200억원"), is value."""
    significant = len(str(int(value / quantum))) if value >= quantum else 0
    for first, second in _pairs(operands):
        for formula, result, wanted in _results(first, second, family, significant):
            if wanted and result is not None and rounds_to(result, value, quantum, multiple=family == "배"):
                return Derivation(formula, (first, second), result)
    return None


def derive_total(
    value: Decimal, family: str, operands: Sequence[Operand], quantum: Decimal
) -> Derivation | None:
    """A total of three to six figures listed one after another ("세 분야를 합하면 …")."""
    ordered = sorted((o for o in operands if o.family == family), key=lambda o: (o.source, o.start))
    for i in range(len(ordered)):
        run = [ordered[i]]
        for following in ordered[i + 1 : i + 6]:
            if following.source != run[-1].source or following.start - run[-1].end > NEIGHBOURHOOD // 2:
                break
            run.append(following)
            total = sum((o.value for o in run), Decimal(0))
            if len(run) >= 3 and rounds_to(total, value, quantum):
                return Derivation(" + ".join(o.text for o in run), (run[0], run[-1]), total)
    return None


def _pairs(operands: Sequence[Operand]) -> Iterator[tuple[Operand, Operand]]:
    ordered = sorted(operands, key=lambda o: (o.source, o.start))
    for i, first in enumerate(ordered):
        for second in ordered[i + 1 :]:
            if second.source != first.source or second.start - first.end > NEIGHBOURHOOD:
                break
            if first.value != second.value:
                yield first, second


def _results(
    a: Operand, b: Operand, family: str, significant: int
) -> Iterator[tuple[str, Decimal | None, bool]]:
    same = a.family == b.family
    one_sentence = a.sentence == b.sentence
    # A one-digit count ("9명") is too easily the difference of two others to be read as one.
    if same and a.family == family and _of_a_size(a.value, b.value) and significant >= 2:
        yield f"{a.text} + {b.text}", a.value + b.value, True
        big, small = (a, b) if a.value > b.value else (b, a)
        yield f"{big.text} − {small.text}", big.value - small.value, True
    if same and family == "%p" and a.family == "%":
        big, small = (a, b) if a.value > b.value else (b, a)
        yield f"{big.text} − {small.text}", big.value - small.value, True
    if same and one_sentence and family == "%" and a.family not in ("%", "%p", *_NO_RATES):
        yield f"({b.text} − {a.text}) ÷ {a.text} × 100", _change(a.value, b.value), True
        yield f"({a.text} − {b.text}) ÷ {b.text} × 100", _change(b.value, a.value), True
        yield f"{a.text} ÷ {b.text} × 100", _ratio(a.value, b.value, _HUNDRED), True
        yield f"{b.text} ÷ {a.text} × 100", _ratio(b.value, a.value, _HUNDRED), True
    if same and one_sentence and family == "배" and a.family not in ("%p", *_NO_RATES):
        yield f"{b.text} ÷ {a.text}", _ratio(b.value, a.value, Decimal(1)), True
        yield f"{a.text} ÷ {b.text}", _ratio(a.value, b.value, Decimal(1)), True


def _change(before: Decimal, after: Decimal) -> Decimal | None:
    """A percentage change, always positive: "늘었다" and "줄었다" carry the sign in words."""
    if before == 0:
        return None
    return abs((after - before) / before * _HUNDRED)


def _ratio(top: Decimal, bottom: Decimal, scale: Decimal) -> Decimal | None:
    if bottom == 0:
        return None
    return top / bottom * scale


def _of_a_size(a: Decimal, b: Decimal) -> bool:
    small, big = sorted((abs(a), abs(b)))
    return small > 0 and big <= small * SPREAD


def rounds_to(result: Decimal, written: Decimal, quantum: Decimal, *, multiple: bool = False) -> bool:
    """result rounded (half up, or cut off) to the written quantum is the written figure."""
    if written <= 0 or quantum <= 0:
        return False
    try:
        rounded = {
            (result / quantum).quantize(Decimal(1), ROUND_HALF_UP) * quantum,
            (result / quantum).quantize(Decimal(1), ROUND_DOWN) * quantum,
        }
    except InvalidOperation:
        return False
    # A written "2조" may stand for 1조9,800억, but not for 1조5,000억: stay within 5% as well.
    # A whole multiple is often cut off ("네 배를 넘는다" for 4.3): within one of it, then.
    cut_off = multiple and written <= result < written + quantum
    close = abs(result - written) <= written * Decimal("0.05") or cut_off
    return written in rounded and close


def describe(derivation: Derivation) -> str:
    """The formula with its result, as shown to the reporter: "45,000명 − 32,000명 = 13000"."""
    result = derivation.result
    shown = result if result == result.to_integral_value() else result.quantize(Decimal("0.01"))
    return f"{derivation.formula} = {format_value(shown)}"

"""Figures an article implies from what it states itself, for a figure no source states.

Newspapers turn what they write into a figure of their own: "2000년 … 지난해 …" becomes "22년 새",
"2020년 첫 자연감소 이후" becomes "다섯 해째"; "자연·유휴시설·식문화·경관 등" becomes "이들 네 가지";
"7500억원 … 전체 사업비는 3조4000억원으로, 대출액은 이 가운데 약 22%" is a share of two figures
sentences apart. Such a figure is confirmed when the article's own years, list or figures give it;
those are checked against the sources on their own, so a changed one is still flagged there.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from itertools import combinations

from agents.verification.guard import dates
from agents.verification.guard.agreement import related
from agents.verification.guard.context import Context, words
from agents.verification.guard.derived import rounds_to
from agents.verification.guard.numbers import NumberHit, format_value
from agents.verification.guard.within import quantum


@dataclass(frozen=True)
class Said:
    """A sentence of the article already read: its text and figures."""

    text: str
    numbers: tuple[NumberHit, ...]


# After a span of years: "22년 새", "10년 남짓한 사이", "5년 만에", "3년간", "다섯 해째".
_SPAN = re.compile(
    r" ?(?:(?:남짓|여|가량|넘게|이상)(?:한|의)? ?)?"
    r"(?P<how>새(?![가-힣])|사이|만에|동안|간|째|이 지나|이 흘러)"
)
# A count that points back at a list: "이들 네 가지 자원", "이 세 곳", "이러한 두 분야".
_BACK = re.compile(r"(?<![가-힣])(?:이들|이런|이러한|이와 같은|위|이)\s?$")
_CHAIN = re.compile(r"[가-힣A-Za-z]+(?:[·ㆍ][가-힣A-Za-z]+)+")
_PROSE = re.compile(r"(?:[가-힣A-Za-z]+(?:, |[와과] |및 )){1,}[가-힣A-Za-z]+")
_CLAUSE = re.compile(r"[,;]")
# A share names the whole it is taken of: "이 가운데 22%", "전체의 22%", "22%를 차지".
_SHARE = re.compile(r"가운데|중(?![가-힣])|전체의|차지|비중")
_RATES = frozenset(("", "%", "%p", "배"))


def implied(
    number: NumberHit, text: str, numbers: Sequence[NumberHit], said: Sequence[Said], reference: date | None
) -> str | None:
    """The formula by which the article's own years, list or figures give number, a figure of the
    sentence text with the figures numbers; None otherwise. said holds the article's earlier
    sentences, the nearest last."""
    if number.family == "년":
        return years_between(number, text, said[-1:], reference)
    if number.family == "%":
        return share_across(number, text, numbers, said)
    if _BACK.search(text, 0, number.start):
        return list_before(number, text[: number.start], said[-1:])
    return None


def years_between(number: NumberHit, text: str, said: Sequence[Said], reference: date | None) -> str | None:
    """A span of years between two years the sentence or the one before it states; "째" counts the
    first year too ("2020년 … 이후 다섯 해째" is 2024)."""
    span = _SPAN.match(text, number.end)
    if not span:
        return None
    stated = sorted({y for part in (*(s.text for s in said), text) for y in _years(part, reference)})
    inclusive = span["how"] == "째"
    for first, last in combinations(stated, 2):
        if last - first + inclusive == number.value:
            counted = " + 1" if inclusive else ""
            return f"{last}년 − {first}년{counted} = {number.text}"
    return None


def _years(text: str, reference: date | None) -> list[int]:
    found = []
    for hit in dates.find_dates(text):
        year = dict(dates.alternatives(hit, reference)[0]).get("y")
        if isinstance(year, int):
            found.append(year)
    return found


def list_before(number: NumberHit, before: str, said: Sequence[Said]) -> str | None:
    """A count after 이들/이런 is the length of a list named just before it."""
    if number.value < 2 or number.value != number.value.to_integral_value():
        return None
    for part in (before, *(s.text for s in reversed(said))):
        if int(number.value) in _list_lengths(part):
            return f"앞에 나열한 항목 {number.value}개"
    return None


def _list_lengths(text: str) -> set[int]:
    """ "자연·유휴시설·식문화·경관" is four, "서울, 인천과 경기도" three."""
    lengths = {m.group().count("·") + m.group().count("ㆍ") + 1 for m in _CHAIN.finditer(text)}
    for match in _PROSE.finditer(text):
        lengths.add(1 + len(re.findall(r", |(?<=[가-힣])[와과] |및 ", match.group())))
    return lengths


def share_across(
    number: NumberHit, text: str, numbers: Sequence[NumberHit], said: Sequence[Said]
) -> str | None:
    """A share ("이 가운데 약 22%") of a whole this sentence states, taken by a part an earlier
    sentence states about the same thing (it shares a word with the clause of the share)."""
    clause = text[max((m.end() for m in _CLAUSE.finditer(text, 0, number.start)), default=0) : number.start]
    about = Context.of(frozenset(words(clause)), frozenset(), "")
    if not about.own or not _SHARE.search(clause):
        return None
    wholes = [n for n in numbers if n is not number and n.family not in _RATES]
    parts = [n for s in said if related(about, _sentence(s.text)) for n in s.numbers]
    for whole in wholes:
        for part in parts:
            if part.family != whole.family or not 0 < part.value < whole.value:
                continue
            share = part.value / whole.value * 100
            if rounds_to(share, number.value, quantum(number)):
                return f"{part.text} ÷ {whole.text} × 100 = {format_value(share.quantize(Decimal('0.01')))}"
    return None


def _sentence(text: str) -> Context:
    return Context.of(frozenset(), frozenset(words(text)), "")

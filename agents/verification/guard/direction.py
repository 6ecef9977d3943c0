"""The direction of a change said of a figure: "3.2% 늘었다" where the source says the 3.2% fell.

A flipped change word leaves every figure in place, so each is confirmed on its own. The change word
that follows a figure (up to its clause's end or the next figure) is read as up or down, for the
article's figure and for each source mention of the same value; the article is contradicted when
every source mention that says a direction says the other one.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from agents.verification.guard.occurrences import Occurrence

# Words of a change, up or down, as they start a word or follow a noun ("전년 대비 증가", "감소세",
# "늘어난", "높아져"). 많/적 and 높/낮 only as predicates: 적 starts 적용, 높 starts 높이 (a height).
# 내리다 counts only after a rate or a price ("0.1% 내렸다"): rain "291.2mm 더 내려" is more rain.
_UP = (
    r"증가|급증|늘[어었고린리려는]|상승|확대|흑자|개선|높[아았은게]|앞당[기겨긴]|올[랐라린려]|오[른르름]"
    r"|많[아았은]|신장|반등"
)
_DOWN = (
    r"감소|급감|줄[어었고인이여는]|하락|축소|적자|악화|낮[아았은게]|늦[추춰췄춘]|떨어|적[었은게]|둔화|하회"
)
_CHANGE = re.compile(f"(?P<up>{_UP})|(?P<down>{_DOWN})")
_LOWERED = re.compile(r"내[렸린려]")
_RATE = re.compile(r"(?:%|%p|%P|포인트|퍼센트|원)$")
# The reach of a change word after its figure: the clause, never past another figure or a comma.
_REACH = 24
_SIGNS = {"+": 1, "▲": 1, "-": -1, "−": -1, "▽": -1, "▼": -1}
_STOP = re.compile(r"[\d,;.·\n]|\s(?:반면|하지만|그리고)\s")


def polarity(text: str, start: int, end: int) -> int:
    """+1 (up), -1 (down) or 0: the sign written onto the figure ("+16천명", "▲3.2%"), else the
    first change word in the clause right after it (or after the rate bracketed next to it)."""
    sign = text[start - 1 : start] if start else ""
    if sign in _SIGNS:
        return _SIGNS[sign]
    window = text[_after_bracket(text, end) : end + _REACH]
    stop = _STOP.search(window)
    window = window[: stop.start()] if stop else window
    found = _CHANGE.search(window)
    if found:
        return 1 if found.group("up") else -1
    return -1 if _RATE.search(text, start, end) and _LOWERED.search(window) else 0


def _after_bracket(text: str, end: int) -> int:
    """Where the clause of a figure goes on: after the bracket it stands in ("쉬었음(8만 3천명, 3.7%)
    등에서 증가") or the one right after it ("6687명(-8.3%) 감소"), else right after it."""
    opened = text.rfind("(", max(0, end - _REACH), end)
    if opened < 0 or ")" in text[opened:end]:
        return _past_aside(text, end)
    closed = text.find(")", end, end + _REACH)
    return closed + 1 if closed >= 0 and "(" not in text[end:closed] else end


def flipped(
    text: str, start: int, end: int, same: Sequence[Occurrence], texts: dict[int, str]
) -> Occurrence | None:
    """A source mention of the value whose change goes the other way, when every mention that says
    a direction says that one; None when the article says none or a mention agrees."""
    said = polarity(text, start, end)
    if not said:
        return None
    stated = [(o, polarity(texts[o.source], o.start, o.end)) for o in same]
    directed = [(o, p) for o, p in stated if p]
    if not directed or any(p == said for _, p in directed):
        return None
    return directed[0][0]


# A bracket right after a figure that holds its rate or sign: "1943명(-7.5%)", "299억원(17.6%)".
_ASIDE = re.compile(r"\s?\([-+−▲▼△▽]?[\d.,]+\s?(?:%|%p|%포인트)?\)")


def _past_aside(text: str, end: int) -> int:
    """Right after the bracketed rate that follows a figure, else right after the figure."""
    aside = _ASIDE.match(text, end)
    return aside.end() if aside else end

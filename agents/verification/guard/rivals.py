"""When a value the source states is still misplaced: what the article says must set the rival apart.

An article figure whose value the source states is called misplaced when another source figure
fits its words clearly better (agents.verification.guard.binding); these checks keep that verdict to the cases
where the article itself tells the rival apart from the figure stated at this value.
"""

from __future__ import annotations

import re

from agents.verification.guard.agreement import about_word, speaks_of
from agents.verification.guard.context import Context
from agents.verification.guard.occurrences import Occurrence

# A size band right before a figure: "상용 300인 미만 사업체 종사자", "1억 원을 초과하는 연봉자",
# "65세 이상 고령자". Kept on the corpus's evidence: a band stands before a figure in texts of 32
# agencies and outlets of the property corpus (bench/data/corpus), not in one release's phrase.
_BAND = re.compile(r"(\d[\d,.]*) ?([가-힣]{0,2}(?: ?원)?) ?(?:을 |를 )?(미만|이상|이하|초과)[^,\d]{0,24}$")


def _band(before: str) -> str:
    """The size band that qualifies a figure written right after before, as one spelling."""
    found = _BAND.search(before[-40:])
    return "".join(found.groups()).replace(",", "").replace(" ", "") if found else ""


def banded_as_stated(before: str, texts: dict[int, str], same: Occurrence, rival: Occurrence) -> bool:
    """The article puts the figure in the band the source states it in, and the rival lies outside
    that band: "상용 300인 미만 사업체 종사자가 1650만7000명" is the release's "300인 미만은 16,507천명",
    not its total of all 사업체 종사자, however many words the total shares with the article."""
    band = _band(before)
    stated, other = _band(texts[same.source][: same.start]), _band(texts[rival.source][: rival.start])
    return bool(band) and stated == band != other


def names_rival(context: Context, same: Occurrence, rival: Occurrence) -> bool:
    """What sets the rival apart from the figure stated at this value is in the article: a word the
    rival is about and the stated figure is not ("총급여액이 1억원을 초과하는 연봉자" is the release's
    band of 1억 원, not its 평균 총급여액, for the article never says 평균), else a year or month
    only the rival is about, or, where both are about the same words, the article figure's role
    ("18만t 감소한 451만t으로").
    Two figures about one thing in one role ("강수량 1018.5 mm", "강수량은 291.2 mm") are told apart by
    value alone, and the value is stated."""
    apart = [w for w in rival.context.about if not about_word(same.context, w)]
    for told in ([w for w in apart if ":" not in w], [w for w in apart if ":" in w]):  # words, then dates
        if told:
            return any(speaks_of(context, w) for w in told)
    return bool(context.role) and rival.context.role == context.role != same.context.role

"""A round a release numbers with 차 read as the ordinal an article writes with 번째, narrowly.

"이번에 4차로 공개하는 국세통계" is the fourth release of the statistics: "이번이 네 번째 공개다".
But 차 numbers many things that are no ordinal of what an article counts ("1차 사업" is a phase, no
"첫 번째 사업"), so a round counts as an ordinal only where it is the adverb of an event ("4차로
공개하는"), and only of that event: the article's "네 번째(로)" must stand before the same word.
"""

from __future__ import annotations

import re
from dataclasses import replace

from agents.verification.guard.numbers import NumberHit
from agents.verification.guard.occurrences import Occurrence

ORDINAL = "번째"
_ROUND = re.compile(r"\d+ ?차")
# The event right after the ordinal ("네 번째 공개", "네 번째로 공개된") or the round, which must be
# an adverb of it ("4차로 공개"): "1차 사업" names a phase, and a first phase is nobody's first time.
_EVENT = re.compile(r"(?:으로|로|의|인)? ?([가-힣]{2,})")
_ROUND_EVENT = re.compile(r"(?:으로|로) ?([가-힣]{2,})")


def as_ordinal(text: str, hit: NumberHit) -> list[NumberHit]:
    """The source's "4차로 공개" also read as the fourth 공개; nothing for a round naming no event."""
    if hit.unit != "차" or not _ROUND.fullmatch(hit.text) or not _ROUND_EVENT.match(text, hit.end):
        return []
    return [replace(hit, unit=ORDINAL)]


def fits_event(occurrence: Occurrence, after: str, texts: dict[int, str]) -> bool:
    """A round read as an ordinal fits only an article ordinal of the same event; any other figure
    fits as before. after is the article text right after its figure."""
    if occurrence.family != ORDINAL or not _ROUND.fullmatch(occurrence.text):
        return True
    source = _ROUND_EVENT.match(texts[occurrence.source], occurrence.end)
    article = _EVENT.match(after)
    if source is None or article is None:
        return False
    return _stem_shared(source[1], article[1])


def _stem_shared(first: str, second: str) -> bool:
    """ "공개하는" and "공개다": the same verbal noun with other endings."""
    return len(first) >= 2 and first[:2] == second[:2]

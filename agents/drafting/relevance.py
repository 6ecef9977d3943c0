"""The fetch step's department filter (after the publisher and title filters, before numbering):
code drops a search result that plainly belongs to a far-off desk before the model sees the list.

Each desk's words come from its profile (agents.monitoring.departments: v1's coverage and
/report keywords), split at "·", commas, brackets and spaces; a word two or more desks share
("정책", "글로벌") and the profiles' connecting words ("주요", "영향") tell nothing and are left
out. Desks whose beats overlap (society, politics, economy, industry, tech, world: one company
story is news to several of them) never exclude each other's results; culture and sports are each
their own. A result is dropped only when it names none of its own desk's words and at least two of
one far-off desk's: a result that names nothing either way is kept, since a search for the
reporter's own keywords is relevant until shown otherwise.
"""

from __future__ import annotations

import re
from collections import Counter
from functools import cache

from agents.monitoring.departments import DEPARTMENT_PROFILES

_SPLIT = re.compile(r"[·,()\s/]+")
MIN_FAR_DESK_WORDS = 2
NEWS_DESKS = frozenset({"사회부", "정치부", "경제부", "산업부", "테크부", "국제부"})
# Words of the profiles' prose, not of any beat ("프로" and "행정" also sit inside common words).
_NOT_TOPICS = frozenset(
    {"있는", "영향", "주요", "주요국", "상승", "이슈", "변화", "측면", "동향", "국내", "해외", "개편"}
    | {"프로", "행정", "시민", "생활", "정치적", "지형", "파급력", "경제", "사회", "산업", "테크"}
)


@cache
def desk_words() -> dict[str, frozenset[str]]:
    """Each desk's distinctive words."""
    raw = {
        profile.name: {
            word
            for text in (profile.coverage, *profile.report_keywords)
            for word in _SPLIT.split(text)
            if len(word) >= 2 and word not in _NOT_TOPICS
        }
        for profile in DEPARTMENT_PROFILES.values()
    }
    shared = Counter(word for words in raw.values() for word in words)
    return {desk: frozenset(word for word in words if shared[word] == 1) for desk, words in raw.items()}


def belongs_elsewhere(*, text: str, department: str) -> bool:
    """Whether `text` (a result's title and summary) plainly belongs to a far-off desk."""
    words = desk_words()
    own = words.get(department)
    if not own or any(word in text for word in own):
        return False
    return any(
        sum(word in text for word in other) >= MIN_FAR_DESK_WORDS
        for desk, other in words.items()
        if not _near(desk, department)
    )


def _near(desk: str, department: str) -> bool:
    return desk == department or (desk in NEWS_DESKS and department in NEWS_DESKS)

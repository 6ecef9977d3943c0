"""Title rules that live in code, not in prompts.

`is_exclusive` spots an exclusive-story tag ([단독], (단독), 단독:, [속보·단독], [Exclusive]…)
without mistaking ordinary words (단독주택, 단독 선두, 단독으로…) for one. The tag has to be a
bracketed label, or a "단독:" / "Exclusive:" lead-in; inside brackets 단독 must be a token of its
own, so a compound like 단독주택 never counts.

`is_skipped_for_check` is v1's /check title-tag filter, exactly: a title
containing any of the seven tags anywhere, as a plain substring, is dropped before analysis.
"""

from __future__ import annotations

import html
import re

# v1's list, verbatim and in v1's order (photo, picture, video, video, pictorial, card news, infographic).
CHECK_SKIP_TAGS: tuple[str, ...] = (
    "[포토]",
    "[사진]",
    "[영상]",
    "[동영상]",
    "[화보]",
    "[카드뉴스]",
    "[인포그래픽]",
)

_OPENERS = "[(【<〈《「『［（〔{"
_CLOSERS = "])】>〉》」』］）〕}"
_BRACKETED = re.compile(
    rf"[{re.escape(_OPENERS)}]([^{re.escape(_OPENERS + _CLOSERS)}]{{1,30}})[{re.escape(_CLOSERS)}]"
)
_TOKEN_SPLIT = re.compile(r"[\s·ㆍ・‧•,/|+&_\-:]+")
# "단독: …" at the start, possibly after other tags ("[속보] 단독: …").
_LEAD_IN = re.compile(
    rf"^(?:\s*[{re.escape(_OPENERS)}][^{re.escape(_CLOSERS)}]{{0,30}}[{re.escape(_CLOSERS)}])*\s*(?:단독|exclusive)\s*[:：]",
    re.IGNORECASE,
)

_DANDOK = "단독"
# Compound tags that still announce an exclusive ("[단독인터뷰]").
_EXCLUSIVE_TOKENS = frozenset(
    {"단독", "단독인터뷰", "단독입수", "단독보도", "단독취재", "단독포착", "exclusive"}
)
# Words that turn a bracketed "단독 X" into a phrase rather than a tag: "(단독 선두)", "[단독 콘서트]".
_PHRASE_FOLLOWERS = frozenset(
    {
        "선두",
        "1위",
        "질주",
        "주택",
        "여행",
        "패키지",
        "콘서트",
        "공연",
        "팬미팅",
        "무대",
        "주연",
        "처리",
        "통과",
        "의결",
        "개최",
        "출마",
        "범행",
        "회담",
        "면담",
        "입주",
        "세대",
        "운영",
        "진행",
    }
)


def is_exclusive(title: str) -> bool:
    """True when the title carries an exclusive-story tag."""
    text = html.unescape(title)  # defensive: raw Naver titles say &lt;단독&gt;
    if _LEAD_IN.search(text):
        return True
    return any(_is_exclusive_label(label) for label in _BRACKETED.findall(text))


def is_skipped_for_check(title: str) -> bool:
    """v1's /check filter for photo, video, card-news and infographic items."""
    return any(tag in title for tag in CHECK_SKIP_TAGS)


def _is_exclusive_label(label: str) -> bool:
    tokens = [token.lower() for token in _TOKEN_SPLIT.split(label.strip()) if token]
    for index, token in enumerate(tokens):
        if token not in _EXCLUSIVE_TOKENS:
            continue
        following = tokens[index + 1] if index + 1 < len(tokens) else ""
        if token == _DANDOK and following in _PHRASE_FOLLOWERS:
            continue
        return True
    return False

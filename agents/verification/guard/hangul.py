"""Hangul numerals and ordinals with their counter: 한 곳, 두 배, 세 번째, 열 명, 스물두 개, 첫째.

A native numeral is a figure only with a counter after it: "세 곳" is three sites, but "세" alone is
a tax and "한" alone is "one of" or "a". Read on both sides, so "두 배" in a source supports "2배"
in an article and the other way round.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import NamedTuple


class HangulHit(NamedTuple):
    start: int
    end: int
    text: str
    value: int
    unit: str  # the unit a digit would carry
    items: int = 0  # for a count of a list written just before it ("A와 B 두 업종"): its length


# Before a counter the short forms are used: 한 두 세 네, never 하나 둘 셋 넷.
_ONES = {"한": 1, "두": 2, "세": 3, "석": 3, "네": 4, "다섯": 5}
_ONES |= {"여섯": 6, "일곱": 7, "여덟": 8, "아홉": 9}
_TENS = {"열": 10, "스물": 20, "스무": 20, "서른": 30, "마흔": 40, "쉰": 50, "예순": 60, "일흔": 70}
_TENS |= {"여든": 80, "아흔": 90}
_ORDINALS = {
    "첫": 1,
    "둘": 2,
    "셋": 3,
    "넷": 4,
    "다섯": 5,
    "여섯": 6,
    "일곱": 7,
    "여덟": 8,
    "아홉": 9,
    "열": 10,
}
# Counter as written → the unit a digit would carry ("두 달" is "2개월", "세 살" is "3세").
_COUNTERS = {
    **{
        c: c
        for c in ("명", "곳", "개", "개사", "개국", "개소", "가지", "배", "번째", "차례", "건", "대", "마리")
    },
    **{c: c for c in ("권", "채", "가구", "척", "층", "단계", "개월", "시간", "자릿수")},
    **{"달": "개월", "살": "세", "사람": "명", "군데": "곳", "해": "년", "나라": "개국"},
}


def _opening(*groups: Iterable[str]) -> str:
    """A lookahead for the first letters of words: a scan then skips the letters no match starts
    with at once, instead of trying every word of the alternation at each."""
    return "(?=[" + "".join(sorted({word[0] for words in groups for word in words})) + "])"


# Days counted in native words; 하루 is left out, since "하루 전" is as often "전날" as a count.
_DAYS = {
    "이틀": 2,
    "사흘": 3,
    "나흘": 4,
    "닷새": 5,
    "엿새": 6,
    "이레": 7,
    "여드레": 8,
    "열흘": 10,
    "보름": 15,
}
_DAY_WORDS = re.compile(
    rf"{_opening(_DAYS)}(?<![가-힣])(?P<word>{'|'.join(sorted(_DAYS, key=len, reverse=True))})"
    r"(?=[^가-힣]|$|[이가은는을를의에도만간째동])"
)
# "한" also means "a"/"one of" and "세" a tax; with these counters one is a real figure.
_ONE_COUNTERS = frozenset({"곳", "명", "개국", "개사", "개소", "건", "번째", "배", "군데", "사람", "자릿수"})
# What may follow a counter: a particle or anything that is not a Hangul syllable.
_AFTER = r"(?=[^가-힣]|$|[이가은는을를의에도만로으와과씩까보째다라])"


def _alternation(words: dict[str, int] | dict[str, str]) -> str:
    return "|".join(sorted(words, key=len, reverse=True))


_NUMERAL = (
    rf"(?:(?P<tens>{_alternation(_TENS)})(?P<ones_after>{_alternation(_ONES)})?"
    rf"|(?P<ones>{_alternation(_ONES)}))"
)
_COUNTED = re.compile(
    rf"{_opening(_TENS, _ONES)}(?<![가-힣0-9~∼〜.,]){_NUMERAL}"
    rf" ?(?P<counter>{_alternation(_COUNTERS)}){_AFTER}"
)
_FIRST_WORD = ("첫",)
_ORDINAL = re.compile(
    rf"{_opening(_ORDINALS, _FIRST_WORD)}(?<![가-힣])"
    rf"(?:(?P<nth>{_alternation(_ORDINALS)})째|(?P<first>첫) ?번째){_AFTER}"
)


# An ordinal that orders the points of a text is no claim: "첫째로 …", "둘째, …", "셋째는 …".
_ENUMERATOR = re.compile(r"(?:로|는|으로는)?\s?,|(?:로|는)\s")
# A numeral written together with a counter into a common noun: "세대" (a generation), not "세 대".
_NOUNS = frozenset({"세대"})


def find_hangul(text: str) -> list[HangulHit]:
    hits = [_ordinal(m) for m in _ORDINAL.finditer(text) if not _enumerates(text, m)]
    for match in _COUNTED.finditer(text):
        if match.group() in _NOUNS:
            continue
        hit = _counted(match)
        if hit and not _overlaps(hit, hits):
            hits.append(hit)
    for match in _DAY_WORDS.finditer(text):
        day = HangulHit(match.start(), match.end(), match.group(), _DAYS[match["word"]], "일")
        if not _overlaps(day, hits):
            hits.append(day)
    for match in _SUMMARY.finditer(text):
        summary = _summary(match)
        if summary and not _overlaps(summary, hits):
            hits.append(summary)
    return sorted(hits, key=lambda h: h.start)


def _enumerates(text: str, match: re.Match[str]) -> bool:
    """ "첫째로, …" or "둘째, …" opening a sentence or a point; "둘째 아이" is a figure."""
    opens = text[: match.start()].rstrip()[-1:] in ("", ".", ",", "\n", "□", "○", "ㅇ", "-", "·", ":")
    return bool(match["nth"]) and opens and bool(_ENUMERATOR.match(text, match.end()))


def _overlaps(hit: HangulHit, hits: list[HangulHit]) -> bool:
    return any(other.start < hit.end and hit.start < other.end for other in hits)


# A numeral before any other noun: "두 축", "세 지표". After a list it sums the list up ("도매 및
# 소매업과 제조업 두 업종", "실업률과 물가상승률 두 지표") and is checked against the list's length;
# elsewhere it is a figure like any other. "한" is left out: "한 관계자" is "an official".
_SUMMARY = re.compile(
    rf"{_opening(_TENS, _ONES)}(?<![가-힣0-9~∼〜.,]){_NUMERAL} (?P<noun>[가-힣]{{1,6}}?)"
    r"(?=[은는이가을를의에도와과로만]?(?:[^가-힣]|$))"
)
_JOINED = frozenset({"및", "또는", "혹은"})
# "5·6 대책과 8·4 대책, 두 차례 발표": events named one by one are counted too.
_LIST_COUNTERS = frozenset({"가지", "곳", "개", "개국", "개사", "군데", "차례", "번", "건"})
_ENDS_PHRASE = ("는", "은", "이", "가", "을", "를", "에", "로", "서", "다", "며", "고", "의")
# 세 is also "tax": "세 부담", "세 감면" are no count of three.
_TAXES = frozenset(
    {"부담", "감면", "혜택", "수입", "부과", "징수", "인상", "인하", "개편", "제도", "공제", "납부", "체납"}
)


def _summary(match: re.Match[str]) -> HangulHit | None:
    tens = _TENS.get(match["tens"] or "", 0)
    value = tens + _ONES.get(match["ones_after"] or match["ones"] or "", 0)
    if value < 2 or (match["ones"] == "석"):
        return None
    if match["ones"] == "세" and not match["tens"] and match["noun"] in _TAXES:
        return None
    items = _listed_before(match.string[: match.start()])
    return HangulHit(match.start(), match.end(), match.group(), value, f"~{match['noun']}", items)


def _listed_before(text: str) -> int:
    """How many items the list ending right before a numeral names; 0 when there is none.

    "소매업과 제조업" is two, "A, B, C 등" three; "도매 및 소매업" is one item, since 및 joins the
    words of one name as often as it joins two items.
    """
    words = text.split()
    if words and words[-1] == "등":
        words.pop()
    if not words:
        return 0
    items, i, run = 1 + words[-1].count("·"), len(words) - 2, 0
    while i >= 0 and run < 3:
        word = words[i].rstrip("’'”\"」』)")
        if word in _JOINED:
            i -= 2
            continue
        if word.endswith((",", "、")) or (len(word) > 1 and word.endswith(("와", "과"))):
            items, run = items + 1 + word.count("·"), 0
        elif word.endswith(
            _ENDS_PHRASE
        ):  # "가족의 정의로는 ‘혈연관계’와 ‘법적 연결관계’": 정의로는 is no item
            break
        else:  # an item of several words: "‘법적 연결관계’"
            run += 1
        i -= 1
    return items if items >= 2 else 0


def _counted(match: re.Match[str]) -> HangulHit | None:
    tens = _TENS.get(match["tens"] or "", 0)
    ones = _ONES.get(match["ones_after"] or match["ones"] or "", 0)
    if match["ones"] == "석" and match["counter"] != "달":  # 석 is three only in 석 달
        return None
    if match["tens"] == "스무" and ones:  # 스무 is only 20 before a counter; 스물 takes ones
        return None
    value = tens + ones
    counter = match["counter"]
    if value == 1 and counter not in _ONE_COUNTERS:
        return None
    # "‘혈연관계’와 ‘법적 연결관계’ 두 가지": a count of the list before it is checked against it.
    items = _listed_before(match.string[: match.start()]) if value >= 2 and counter in _LIST_COUNTERS else 0
    return HangulHit(match.start(), match.end(), match.group(), value, _COUNTERS[counter], items)


# A source says "first" in words as often as with a numeral: "해상풍력 발전사업을 시작으로",
# "처음으로 도입", "최초의 사례", "첫 투자". Read in sources only, where they support an article's
# "첫 번째"; an article's bare "첫" is not read as a figure.
_FIRST = re.compile(
    r"(?=[시처최첫])(?:(?<=[을를] )시작으로(?![가-힣])"
    r"|(?<![가-힣])(?:처음|최초)(?=[^가-힣]|$|으로|로|의|인)"
    r"|(?<![가-힣])첫(?= [가-힣]))"
)


def firsts_in_words(text: str) -> list[HangulHit]:
    """Where a source says something is the first without a numeral."""
    return [_hit(match, 1, "번째") for match in _FIRST.finditer(text)]


def said_in_words(text: str) -> bool:
    """Whether a figure's text is one of the words firsts_in_words reads."""
    return bool(_FIRST.fullmatch(text)) or text == "시작으로"


def _ordinal(match: re.Match[str]) -> HangulHit:
    value = 1 if match["first"] else _ORDINALS[match["nth"]]
    return _hit(match, value, "번째")


def _hit(match: re.Match[str], value: int, unit: str) -> HangulHit:
    return HangulHit(match.start(), match.end(), match.group(), value, unit)

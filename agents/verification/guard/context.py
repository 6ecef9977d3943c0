"""The words around a figure: what it counts, whose it is, which year or region.

A figure is bound to the content words written before it in its sentence: its own words (the
nearest few since the previous figure or comma) count most; the earlier words are shared with other
figures ("인원은 3만2000명에서 4만5000명으로": both are about
인원, only the first is about 지난해 when the text says "지난해 3만2000명에서 올해 4만5000명으로").
Its role in a change counts too: "A에서 B로 늘었다" has A as start and B as end, "A보다" as base.

Words are compared by their stems: particles are cut off ("예산은" → "예산") and two words match
when one begins with the other ("서울" and "서울시"). Predicates are left out, they say what
happened, not about what.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import pairwise

from agents.verification.guard.memo import memo

_WORD = re.compile(r"[가-힣A-Za-z]+")


def _listed(*lines: str) -> list[str]:
    return [word for line in lines for word in line.split()]


_PARTICLES = sorted(
    _listed(
        "에서는 에게서 으로는 으로도 에서도 까지는 부터는 이라는 라는 으로써 으로서 에서 에게 으로 까지",
        "부터 보다 처럼 만큼 이나 이며 이고 이란 와의 과의 에는 에도 와 과 은 는 이 가 을 를 의 에 도",
        "만 로 께 랑 들",
    ),
    key=len,
    reverse=True,
)
# Endings of predicates and connectives: such words say what happened, not what was counted.
_PREDICATE = re.compile(
    r"(?:다|[했됐었았였렸켰겠하되이]고|[하되]며|으며|지만|는데|도록|[하되]는|[하되]면|해서|[했됐]던|라며|다며"
    r"|[하되][여어]|[된될]|[했됐]|어난|어든|[아어]진|라간|린|[높줄보모쌓놓붙들먹속녹꺾깎섞묶끓닦숙죽덮울]인"
    r"|[가-힣][^기권제무시상하소대]한)$"
)
# 인 ends the adnominal form of a closed set of verbs (높인, 줄인, 모인, 받아들인, 기울인) and many
# nouns (지인, 개인, 법인, 외국인, 장애인): only the former are predicates.
_STOP = frozenset(
    _listed(
        "총 약 및 등 또 또한 이 그 이번 해당 각 각각 모두 전체 최대 최소 가량 정도 수준 규모 기준 대비 동안",
        "가운데 중 이후 이상 이하 미만 초과 전 후 만 위해 통해 대해 따라 관련 올 지 것 수 때 곳 명 개",
        "월 일 년 그리고 하지만 또는 밝혔 말했 설명했 전했 억 조 원",
    )
)
# Verbal nouns that end a clause in a release's note style ("1만 4천명 각각 감소 비임금근로자 중"
# when a PDF loses the line break) say what happened to the figure, not what it is.
_HAPPENED = frozenset(_listed("감소 증가 상승 하락 확대 축소 개선 악화 유지 기록 전환 달성 예상 전망 집계"))
# A clause ends at a comma or semicolon, and a quotation starts a clause of its own. A colon does
# not: "관련 예산 : 1,029 → 1,311억 원" is about 관련 예산.
_BREAK = re.compile(r"[,;“”\"「」]|\s(?:그리고|또|반면|하지만)\s")
# "보도자료와 12월 12일 고시", "11개 품목과 9대 지역": 와 joining two things ends the first.
_JOIN = re.compile(r"(?<=[가-힣])[와과] ")
OWN_WORDS = 3  # the words nearest before a figure that say what it is; earlier ones are shared
_FROM = re.compile(r"^\)?(?:\s?\([^()]{0,12}\))?\s?(?:에서|부터|→|->|⟶)")
_TO = re.compile(
    r"^\)?\s?(?:으로|로)(?![가-힣])(?!\s?(?:집계|나타|조사|추정|파악|확인|예상|전망|기록|역대|가장|알려))"
)
# "지난해보다 18만t 줄어든 451만t으로": the first is how much it changed by, the second what it became.
_BY = re.compile(
    r"^\)?\s?(?:늘어|줄어|늘었|줄었|오른|내린|(?:증가|감소|상승|하락)(?:[한했해하]|(?![가-힣])))"
)
_SLASH = re.compile(r" ?/ ?")
_ARROW = re.compile(r"→|->|⟶")
_BASE = re.compile(r"^\)?\s?(?:보다|에 비해|대비|과 비교|와 비교)")
# The word before 대비 or 보다 names the base of a comparison, not what the figure is about:
# in "올해 예산 대비 9.8%" the 9.8% is growth, not a budget.
_BASE_AFTER = (" 대비", " 比", "보다", "에 비해", " 기준")
# The same base written as one word with its particle: "전월보다 10.4%", "전년동월대비 117천명".
_BASE_END = ("보다", "대비")


@dataclass(frozen=True)
class Context:
    own: frozenset[str]  # the nearest content words before the figure
    shared: frozenset[str]  # the other words of its clause
    role: str  # "from" | "to" | "by" (the size of a change) | ""
    # The nouns a figure qualifies when it stands before them: "7500억 원 규모의 선·후순위 대출",
    # "3조 4000억 원 전체 사업비". Empty when a particle makes the figure an argument ("…원을 들여").
    described: frozenset[str] = frozenset()

    @classmethod
    def of(cls, own: frozenset[str], shared: frozenset[str], role: str) -> Context:
        return cls(own, shared, role)

    # Every word with each of its prefixes, so "서울" finds "서울시" by a set lookup. Computed only
    # for the source figures an article figure is compared with.
    @memo
    def about(self) -> frozenset[str]:
        """What the figure is: the words before it and the nouns it qualifies."""
        return self.own | self.described

    @memo
    def about_prefixes(self) -> frozenset[str]:
        return prefixes_of(self.about)

    @memo
    def shared_prefixes(self) -> frozenset[str]:
        return prefixes_of(self.shared)

    @memo
    def near_prefixes(self) -> frozenset[str]:
        return self.about_prefixes | self.shared_prefixes

    @memo
    def probes(self) -> tuple[Probe, ...]:
        """(word, its first three letters when longer, its shorter prefixes): the article side."""
        return tuple(probe(w) for w in self.own | self.shared)

    @memo
    def near(self) -> frozenset[str]:
        return self.own | self.shared


@lru_cache(maxsize=65536)
def stem(word: str) -> str:
    """The word without its trailing particle; "" for a predicate or a word that says nothing."""
    for particle in _PARTICLES:
        if word.endswith(particle) and len(word) - len(particle) >= 2:
            word = word[: -len(particle)]
            break
    if len(word) < 2 or word in _STOP or _PREDICATE.search(word) or _happened(word):
        return ""
    return word


def _happened(word: str) -> bool:
    """ "감소한", "증가한": a change said of the figure (the noun rule keeps "최소한", "권한")."""
    return word.endswith("한") and word[:-1] in _HAPPENED


def words(text: str) -> list[str]:
    return [s for s in (stem(w) for w in _WORD.findall(text)) if s]


def located_words(text: str) -> list[tuple[int, str]]:
    """The words of text (as words gives them) with where each starts."""
    return [(m.start(), s) for m in _WORD.finditer(text) if (s := stem(m.group()))]


def contexts(
    text: str,
    spans: Sequence[tuple[int, int]],
    extra: Iterable[tuple[int, str]] = (),
    skip: Iterable[tuple[int, int]] = (),
    *,
    source: bool = False,
    ahead: Sequence[bool] = (),
) -> list[Context]:
    """The context of each figure span of one sentence, in order; extra adds tokens such as years
    for the dates at skip, whose words ("내년", "’21년") are not read as words. A span marked in
    ahead (an ordinal, a count of kinds) with no words before it is about the words after it:
    "첫 번째 과제는 공공부문 일자리 조성" is about 과제 and 일자리."""
    tokens = _sentence_tokens(text, spans, extra, skip)
    positions = [p for p, _, _ in tokens]
    stems = [t for _, _, t in tokens]
    result: list[Context] = []
    previous: tuple[int, Context] | None = None  # the end and context of the previous figure
    for i, (start, end) in enumerate(spans):
        since = previous[0] if previous else 0
        breaks = [m.end() for m in _BREAK.finditer(text, since, start)]
        if previous:  # "11개 품목과 9대 주요 지역": 품목 ends the item of the figure before
            breaks += [m.end() for m in _JOIN.finditer(text, since, start)]
        first, last = bisect_left(positions, max([since, *breaks])), bisect_left(positions, start)
        own = _joined(tokens[max(first, last - OWN_WORDS) : last])
        if not own and i < len(ahead) and ahead[i]:
            own = _after(text, tokens, positions, end, spans[i + 1][0] if i + 1 < len(spans) else len(text))
        role = _role(text[end : end + 12])
        if (
            previous
            and not breaks
            and previous[1].role == "from"
            and (role == "to" or _ARROW.search(text, previous[0], start))
        ):
            own |= previous[1].own  # "3만2000명에서 4만5000명으로", "1,029 → 1,311억 원": the same thing
        if source and previous and not own:
            own = previous[1].own  # "전년(20,605개교) 대비 125개교 감소": about the same thing
        elif source and previous and _CLAUSE_AFTER.search(text, since, start) and all(":" in w for w in own):
            # "분양은 10월 기준 20,416호로 … 감소하였고, 1~10월 누계 기준 182,373호로": a clause joined
            # by 고 or 며 that names only its period goes on about the sentence's first figure.
            own |= {w for w in result[0].own if ":" not in w}
        if previous and _SLASH.fullmatch(text, previous[0], start):
            own = previous[1].own  # "(권역/지역) 12/29개소": a pair shares its label
        label = _label(text, start)
        if label >= 0 and previous and not text[previous[0] : label].strip():
            # "1만2636명(7.0%) 늘었다": a bracket right after a figure restates that figure (its
            # rate), so it is about what that figure is about, not the words before both.
            own |= previous[1].own
        elif label >= 0:  # "사회안전망 강화(4대 핵심과제, 3조 4,355억 원)": about what the bracket follows
            at = bisect_left(positions, label)
            # A bracket opened after the figure before it is about the words since that figure: in
            # "종이류(28.5%)가 가장 많았고 화장지류(21.1%), 플라스틱류(20.8%)" the 20.8% is 플라스틱류's
            # alone. With no word in between nor a clause break, it restates the thing of that figure:
            # "설비용량을 25GW까지 확대한다(현재 0.35GW)".
            floor = bisect_left(positions, since) if label >= since else 0
            if floor >= at and not _BREAK.search(text, since, label):
                floor = 0
            own |= _joined(tokens[max(floor, at - OWN_WORDS) : at])
        shared = frozenset(stems[:last]) - own
        until = spans[i + 1][0] if i + 1 < len(spans) else len(text)
        context = Context(own, shared, role, _described(text, end, until))
        result.append(context)
        previous = (end, context)
    return _distributed(text, spans, tokens, result)


_EACH = re.compile(r"각각")
_CLAUSE_AFTER = re.compile(r"[가-힣][고며],")  # "감소하였고, …", "추세이며, …": a clause follows
_RUN_GAP = re.compile(r"\s?(?:,|[와과·]|및)\s?")
_ITEM = re.compile(r", |(?<=[가-힣])[와과] | 및 ")  # what separates the items of a list
_ITEM_END = re.compile(r"\)?(?:으로|로|에서|에|은|는|이|가|을|를)?\s?(?:, |[와과] | 및 )?")
_EACH_GAP = re.compile(r"\)?[가-힣]{0,2}\s?")  # "39.6%, 25.0%로 각각"


def _distributed(
    text: str, spans: Sequence[tuple[int, int]], tokens: Sequence[Token], found: list[Context]
) -> list[Context]:
    """ "1인가구와 1세대 가구는 … 각각 39.6%, 25.0%": the i-th figure of the run next to 각각 is about
    the i-th of as many items listed before the run, and not about the others."""
    for each in _EACH.finditer(text):
        run = _run(text, spans, each.start(), each.end())
        if len(run) < 2:
            continue
        cuts = [0, *(m.end() for m in _ITEM.finditer(text, 0, min(each.start(), spans[run[0]][0])))]
        if len(cuts) < len(run):
            continue
        bounds = [*cuts[-len(run) :], min(each.start(), spans[run[0]][0])]
        if any(
            a <= s and e <= b and _ITEM_END.fullmatch(text, e, b)
            for a, b in pairwise(bounds)
            for s, e in spans
        ):
            continue  # "중학생은 133만명, 고등학생은 130만명으로 각각": items end in figures, not words
        listed = [[t for t in tokens if a <= t[0] < b] for a, b in pairwise(bounds)]
        # The outer items are cut at one word: "참여율은 서울과 부산이", "서울과 부산의 참여율은".
        listed = [listed[0][-1:], *(item[:OWN_WORDS] for item in listed[1:-1]), listed[-1][:1]]
        every = frozenset(t for item in listed for _, _, t in item)
        for position, item in zip(run, listed, strict=True):
            context, own = found[position], _joined(item)
            found[position] = Context.of(own, (context.shared | context.own | every) - own, context.role)
    return found


def _run(text: str, spans: Sequence[tuple[int, int]], start: int, end: int) -> list[int]:
    """The figures listed right after text[start:end] ("각각 30억, 20억원"), or right before it."""
    after = [i for i, (s, _) in enumerate(spans) if s >= end and not text[end:s].strip()]
    before = [i for i, (_, e) in enumerate(spans) if e <= start and _EACH_GAP.fullmatch(text, e, start)]
    if not after and not before:
        return []
    run = [after[0] if after else before[-1]]
    step = 1 if after else -1
    while 0 <= run[-1] + step < len(spans):
        gap = (
            (spans[run[-1]][1], spans[run[-1] + 1][0])
            if step == 1
            else (spans[run[-1] - 1][1], spans[run[-1]][0])
        )
        if not _RUN_GAP.fullmatch(text, *gap):
            break
        run.append(run[-1] + step)
    return sorted(run)


Token = tuple[int, int, str]  # start, end, stem


def _sentence_tokens(
    text: str,
    spans: Sequence[tuple[int, int]],
    extra: Iterable[tuple[int, str]],
    skip: Iterable[tuple[int, int]],
) -> list[Token]:
    inside = [False] * (len(text) + 1)
    for start, end in [*spans, *skip]:  # the unit of a figure ("억원") is no word about it
        inside[start:end] = [True] * (end - start)
    found = [
        (s, e, t)
        for m in _WORD.finditer(text)
        if not inside[s := m.start()] and (t := stem(m.group())) and not _base(text, s, e := m.end())
    ]
    return sorted(found + [(p, p, t) for p, t in extra])


def _base(text: str, start: int, end: int) -> bool:
    """The word names the base of a comparison: "전월 대비", "전월보다", "전년동월대비"."""
    return text.startswith(_BASE_AFTER, end) or text.endswith(_BASE_END, start, end)


def _after(text: str, tokens: Sequence[Token], positions: list[int], end: int, until: int) -> frozenset[str]:
    """The first few words after a figure, up to the end of its clause or the next figure."""
    stop = _BREAK.search(text, end, until)
    limit = stop.start() if stop else until
    at = bisect_left(positions, end)
    return _joined([t for t in tokens[at : at + OWN_WORDS] if t[0] < limit])


# Between a figure and the nouns it qualifies: nothing, 의, or a word such as 규모의.
_QUALIFIES = re.compile(r"\)?(?:의)? (?:(?:규모|상당|가량|수준)의? |짜리 )?")
_DESCRIBED_WORDS = 3


def _described(text: str, end: int, until: int) -> frozenset[str]:
    """The nouns right after a figure that it qualifies: a noun phrase that a particle or a word such
    as 중 closes ("대출자로", "사업비 중"). A noun that closes the clause is its predicate ("1만 4천명
    감소"), and a predicate ends the search: neither says what the figure is."""
    gap = _QUALIFIES.match(text, end, until)
    if not gap:
        return frozenset()
    stop = _BREAK.search(text, gap.end(), until)
    found: list[str] = []
    for match in _WORD.finditer(text, gap.end(), stop.start() if stop else until):
        word = match.group()
        stemmed = stem(word)
        if _PREDICATE.search(word) or stemmed in _HAPPENED or len(found) == _DESCRIBED_WORDS:
            return frozenset()
        if stemmed and stemmed != word:
            return frozenset([*found, stemmed])
        if found and not stemmed:
            return frozenset(found)
        found += [stemmed] if stemmed else []  # "전체", "선" before the noun say nothing
    return frozenset()


def _joined(tokens: Sequence[Token]) -> frozenset[str]:
    """The words, and each pair of neighbours as one word: "축산물 판매" is also "축산물판매"."""
    words = {t for _, _, t in tokens}
    for (_, end, first), (start, _, second) in pairwise(tokens):
        if start - end <= 1 and ":" not in first + second:
            words.add(first + second)
    return frozenset(words)


_BRACKETS = re.compile(r"[()（）]")


def _label(text: str, start: int) -> int:
    """The position of the "(" that opens the bracket a figure stands in, or -1."""
    low = max(0, start - 39)
    if text.rfind("(", low, start) < 0 and text.rfind("（", low, start) < 0:
        return -1  # most figures: no bracket open before them
    depth = 0
    # Only the brackets of the 39 characters before the figure, nearest first.
    for bracket in reversed(list(_BRACKETS.finditer(text, low, start))):
        if bracket.group() in ")）":
            depth += 1
        elif depth == 0:
            return bracket.start()
        else:
            depth -= 1
    return -1


def _role(after: str) -> str:
    if _FROM.match(after) or _BASE.match(after):
        return "from"
    if _TO.match(after):
        return "to"
    if _BY.match(after):
        return "by"
    return ""


def prefixes_of(words: frozenset[str]) -> frozenset[str]:
    """The words with every prefix of each, for set lookups of "begins with"."""
    found = set(words)
    found.update(*map(word_prefixes, words))
    return frozenset(found)


Probe = tuple[str, str, frozenset[str]]


def probe(word: str) -> Probe:
    """(word, its first three letters when longer, its shorter prefixes): how a word is looked up."""
    return word, word[:3] if len(word) >= 4 else "", word_prefixes(word)


@lru_cache(maxsize=65536)
def word_prefixes(word: str) -> frozenset[str]:
    """ "서울시청" → {"서울", "서울시"}; a token such as a year has none."""
    return frozenset() if ":" in word else frozenset(word[:n] for n in range(2, len(word)))

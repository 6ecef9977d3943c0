"""The judges of the missing-facts cases, and the release wrapper that tests them.

A listed fact is judged on its own surface, as a reporter reads it in the list:

- boilerplate: a line of the release's frame rather than its content (a contact, a phone number or
  an address, a dateline, an embargo or distribution line, a posted/edited date, a byline, a
  copyright line);
- fragment: not a statement a reporter could check: too short to say anything, a dependent piece
  that starts mid-clause ("있기 때문으로 …", "또한"), or a figure without the subject it belongs to
  ("12세", "첫 5000만 원대를", "전년대비 0.5% 감소했으나").

`names` decides whether a listed fact is the fact of a removed sentence. The judges are written here,
independently of the guard's own filters, so that the bench can catch the guard's.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import date
from itertools import pairwise

from bench.truth.figures import find_dates, find_figures

_BOILERPLATE = [
    re.compile(p)
    for p in (
        r"담당\s*(?:부서|자|과)|문의\s*[:：(]|문\s*의\s*[:：]|연락처|대표\s*전화|☎|(?:전화|팩스|FAX|Tel|TEL)\s*[:：]?\s*\d",
        r"\d{2,4}[-.)]\s?\d{3,4}[-.]\d{4}",  # phone and fax numbers
        r"[\w.+-]+@[\w-]+\.[\w.]+",  # e-mail addresses
        r"^\s*[(\[]?[가-힣]{2,6}\s*=\s*[가-힣A-Za-z]{2,12}[)\]]",  # datelines: (서울=연합뉴스)
        r"보도\s*(?:일시|시점)|배포\s*(?:일시|시점|일)|엠바고|보도\s*가능|이후\s*(?:보도|사용)|조간|석간",
        r"(?:작성|수정|등록|입력|승인|게시)\s*(?:일|일시|시간)?\s*[:：]?\s*\d{2,4}[.\-년]",
        r"^\s*[가-힣]{2,4}\s*(?:선임|수석)?\s*기자\s*(?:=|$|[\w.]+@)|\[[가-힣]{2,4} ?기자",  # bylines
        r"[ⓒ©]|\(c\)|저작권|무단\s*(?:전재|복제)|재배포\s*금지|Copyright|All rights reserved",
        r"첨부\s*(?:파일|자료)?\s*[:：]|조회\s*수|바로\s*가기|공유하기|구독",
    )
]
# A piece that starts where no statement starts: a dependent noun or ending, or a connective alone.
_DEPENDENT_START = re.compile(
    r"^\s*(?:[→·\-*※▲△○◦□■◆◇…]|있기|없기|때문|것으로|것이|것을|데\b|수\s*있|하기|되기|등으로|등이|등을|및\b|"
    r"으로\b|로\b|에서\b|에게\b|까지\b)"
)
_CONNECTIVES = {
    "또한",
    "또",
    "한편",
    "그러나",
    "하지만",
    "반면",
    "아울러",
    "특히",
    "이에",
    "이는",
    "따라서",
    "다만",
}
# A subject: a word with 은/는/이/가/도 (or 께서) before a space, not a modifier or an adverb.
_SUBJECT = re.compile(r"([가-힣A-Za-z0-9)\]』」’”']+?)(은|는|이|가|도|께서)(?=\s|$)")
# Words that end like a subject but modify or qualify: "많은", "있는", "하는", "같이".
_ADVERBIAL_TOPICS = ("에는", "에서는", "로는", "으로는", "와는", "과는", "보다는", "에도", "에서도")
_MODIFIER_WORDS = {"오는", "가는", "이는", "지는", "이같은"}
_MODIFIER_ENDINGS = [
    "하는",
    "되는",
    "있는",
    "없는",
    "않는",
    "라는",
    "다는",
    "많은",
    "높은",
    "낮은",
    "작은",
    "적은",
    "좋은",
    "같은",
    "넓은",
    "늦은",
    "받은",
    "짧은",
    "많이",
    "높이",
    "같이",
    "깊이",
    "없이",
    "일찍이",
]
_PREDICATE = re.compile(r"(?:다|니다|음|됨|함|임|요)[.!?\"”'’)]*\s*$")
_HANGUL = re.compile(r"[가-힣]")
MIN_HANGUL = 3  # syllables a statement needs, figures and units aside
# A piece cut before what it qualifies: "…(2,852호 증가)의", "A 및", "B와".
_DURATION = re.compile(r"\s*(?:째|간|동안|만에|연속)")  # "14개월째": a span that is the fact's value
_DANGLING = re.compile(r"(?:의|및|와|과)[\s)\]]*$")


def is_boilerplate(text: str) -> bool:
    return any(p.search(text) for p in _BOILERPLATE)


def is_fragment(text: str) -> bool:
    """Not a clause with its subject, nor a figure with its subject."""
    core = text.replace("…", " ").strip()
    if core.strip(" .,") in _CONNECTIVES or _DEPENDENT_START.match(core) or _DANGLING.search(core):
        return True
    words = _HANGUL.findall(_strip_figures(core))
    if len(words) < MIN_HANGUL:
        return True
    amounts = [f for f in find_figures(core) if f.unit and (not f.is_time or _DURATION.match(core, f.end))]
    if _has_subject(core) or _labelled(core):
        # A subject with neither a value nor a predicate says nothing yet ("증가율은 작년 동기와
        # 올해 1분기").
        return not amounts and not _PREDICATE.search(core)
    # No subject: a whole sentence that ends in a predicate still states something ("지난해보다
    # 크게 줄었습니다" is a claim about the lead's subject); a figure without either does not.
    return not (_PREDICATE.search(core) and len(words) >= 4 * MIN_HANGUL)


def _labelled(text: str) -> bool:
    """A figure with its subject written around it: "대구(118.9%)", "관광객 1,420만 명이"."""
    for f in find_figures(text):
        before, after = text[max(0, f.start - 12) : f.start], text[f.end : f.end + 2]
        if re.search(r"[가-힣]{2,}\($", before):
            return True
        if re.match(r"(?:은|는|이|가|도)(?:\s|$)", after) and re.search(r"[가-힣]{2,}\s*$", before):
            return True
    return False


def _strip_figures(text: str) -> str:
    spans = [(f.start, f.end) for f in find_figures(text)] + [(d.start, d.end) for d in find_dates(text)]
    for start, end in sorted(spans, reverse=True):
        text = text[:start] + " " + text[end:]
    return text


def _has_subject(text: str) -> bool:
    for m in _SUBJECT.finditer(_strip_figures(text)):
        word = m.group(0)
        if word in _MODIFIER_WORDS or word.endswith(tuple(_MODIFIER_ENDINGS)):
            continue
        if word.endswith(_ADVERBIAL_TOPICS):
            continue  # "지역별로는", "17년에는": what the figures are broken down by, not whose
        return True
    return False


def _bigrams(text: str) -> set[str]:
    squeezed = re.sub(r"\s+", "", text)
    return {squeezed[i : i + 2] for i in range(len(squeezed) - 1)}


def _facts(text: str) -> set[tuple[str, str]]:
    """(value, unit) of every figure and date: what names a fact when figures are there to name it."""
    out = {(str(f.value.normalize()), f.unit) for f in find_figures(text) if f.unit}
    out |= {(f"{d.year}-{d.month}-{d.day}", "date") for d in find_dates(text)}
    return out


SAME = 0.5
MIN_PART = 8


def names(listed_text: str, sentence: str) -> bool:
    """A listed fact names the removed sentence when they share a figure with its unit (two that both
    hold figures and share none are different facts), or else when it holds most of the sentence's
    character bigrams, or is most of a part of it at least MIN_PART bigrams long."""
    mine, theirs = _facts(sentence), _facts(listed_text)
    if mine and theirs:
        return bool(mine & theirs)
    a, b = _bigrams(sentence), _bigrams(listed_text)
    shared = len(a & b)
    return bool(a) and (shared / len(a) >= SAME or (len(b) >= MIN_PART and shared / len(b) >= SAME))


# What a lead says happened to its subject, by kind: a rise, a fall, a record or a streak. A later
# sentence that restates the lead says the same kind of thing of the same subject ("늘었다" for
# "증가했다"); the words of a kind are the ones papers use for it, not any one text's.
_CHANGES = {
    "up": re.compile(r"늘|증가|상승|올랐|오른|오르|높아|높였|확대|흑자|개선|상향|올렸|올린|많았|많은|많아"),
    "down": re.compile(r"줄|감소|하락|내렸|내린|내림|떨어|낮아|낮췄|축소|적자|악화|하향|적게|적었|적은"),
    "record": re.compile(r"역대|최대|최고|최저|최소|최다|가장|처음|만에|이래|사상|유일|연속"),
}
RESTATED_BIGRAMS = 0.3
_DIRECTIONS = frozenset(("up", "down"))
_VERB_FORMS = ("하는", "되는", "있는", "없는", "않는", "라는", "다는")


def restated(sentence: str, others: Sequence[str]) -> bool:
    """Whether the rest of a text states a removed sentence's fact again, so the text minus that
    sentence still carries it and a missing-facts list need not name it. A news lead sums up the
    story and a later sentence often says it once more with its detail ("국제특허출원이 4.8% 증가"
    and "특허청에 따르면 … 국제특허출원은 전년보다 4.8% 늘어난 1만2천439건"). Judged in one
    sentence or two that follow each other, by kind and all at once: every figure with its unit,
    every subject word, each followed by the kinds of change the sentence states of it (a rise, a
    fall, a record or a streak) and by no change of the other direction before another subject
    starts, and a share of its bigrams. A restatement of another subject, of one subject of two, of
    a figure without the record or the streak the sentence claims, or of the opposite change is
    none. A sentence with neither a figure nor a change states nothing this test can hold, and
    is never restated."""
    facts = {f for f in _facts(sentence) if f[1] != "date"}
    claims = _claims(sentence)
    if not claims or not (facts or any(kinds for _, kinds in claims)):
        return False
    mine = _bigrams(_strip_figures(sentence))
    for window in [*others, *(f"{a} {b}" for a, b in pairwise(others))]:
        if not facts <= _facts(window) or not all(
            _said_of(w, kinds, _strip_figures(window)) for w, kinds in claims
        ):
            continue
        if mine and len(mine & _bigrams(window)) / len(mine) >= RESTATED_BIGRAMS:
            return True
    return False


def _subjects(text: str) -> list[re.Match[str]]:
    """The subject words of a sentence: no adnominal verb form ("하는"), adverbial topic ("지역별로는")
    or adjective standing alone ("많은"); a noun that ends like one ("면적은", "실적은") is one."""
    found = []
    for m in _SUBJECT.finditer(text):
        word = m.group(0)
        if word in _MODIFIER_WORDS or word in _MODIFIER_ENDINGS or word.endswith(_ADVERBIAL_TOPICS):
            continue
        if word.endswith(_VERB_FORMS) or len(m.group(1)) < 2:
            continue
        found.append(m)
    return found


def _claims(sentence: str) -> list[tuple[str, set[str]]]:
    """Each subject word of a sentence, its particle cut ("국제특허출원이" → "국제특허출원"), with the
    kinds of change stated from it up to the next subject ("어획량은 크게 늘어난 반면" → rise)."""
    text = _strip_figures(sentence)
    found = _subjects(text)
    if not found:
        return []
    ends = [m.start() for m in found[1:]] + [len(text)]
    return [
        (m.group(1), {kind for kind, p in _CHANGES.items() if p.search(text, m.end(), end)})
        for m, end in zip(found, ends, strict=True)
    ]


def _said_of(subject: str, kinds: set[str], window: str) -> bool:
    """`window` holds `subject` followed, before another subject starts, by every kind of change in
    `kinds` (in the same sentence or the next: "가격은 0.05% 하락했다. … 6주 연속 하향") and by no
    change of the other direction ("적자로 … 5월에는 … 흑자로" restates no rise)."""
    for m in re.finditer(re.escape(subject), window):
        rest = window[m.end() :]
        others = [o for o in _subjects(rest) if o.start() > 1]
        clause = rest[: others[0].start()] if others else rest
        said = {kind for kind, p in _CHANGES.items() if p.search(clause)}
        reversed_ = len(kinds & _DIRECTIONS) == 1 and bool((said & _DIRECTIONS) - kinds)
        if kinds <= said and not reversed_:
            return True
    return False


def is_lead(sentence: str) -> bool:
    """A statement sentence: a clause ending in a predicate, not a frame line."""
    return bool(_PREDICATE.search(sentence)) and not is_boilerplate(sentence)


# --- a release's frame around the text: every line of it is boilerplate ------------------------------


def wrap(text: str, *, source: str, day: date | None, seed: int) -> str:
    """The text framed as agencies frame a release: a distribution line above it, the contact lines,
    a byline and a copyright line below. Phone numbers are made up from the seed (no real line)."""
    when = day or date(2024, 1, 2)
    weekday = "월화수목금토일"[when.weekday()]
    phone = f"044-{200 + seed % 700:03d}-{1000 + seed * 37 % 9000:04d}"
    head = [
        f"보도일시: {when.year}. {when.month}. {when.day}.({weekday}) 조간",
        f"배포일시: {when.year}. {when.month}. {when.day}.({weekday}) 10:00",
    ]
    tail = [
        f"담당 부서: {source} 대변인실  담당자: 홍길동 사무관 ({phone})",
        f"문의: {source} 정책홍보팀 {phone}, press{seed % 97}@example.go.kr",
        f"작성일 {when.isoformat()}  수정일 {when.isoformat()}",
        f"ⓒ {source}. 무단 전재 및 재배포 금지",
    ]
    return "\n".join([*head, "", text, "", *tail])

"""Whether an article carries a fact of its press release, in code.

A news article restates a release in its own words: "접촉자 중 1명(지인)" becomes "이 가운데 지인
1명", "‘미래향’ 품종의 현장 평가회를 13일 개최한다는 소식" becomes "오는 13일 감귤 ‘미래향’ 품종의
현장 평가회를 연다". Shared character bigrams alone miss such a restatement, and looser bigrams would
take a neighbouring sentence about the same topic for the fact. So a fact is judged by what
identifies it: its figures and dates, read by the guard in any format ("13일" for "12월 13일",
"두 번째" for "2위"), and its content words (the guard's stems: particles cut off, predicates left
out). A figure is carried where the article states it in a sentence holding the words the release
writes before it; a clause where one article sentence (or two that follow each other) holds all its
figures and dates and several of its content words, or most of its content words and a good share
of its bigrams. Pure Python: no Django, no LLM.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache
from itertools import pairwise

from agents.facts.factatoms import Atom, clauses, figure_atoms
from agents.facts.provenance import bigrams
from agents.verification.guard import article_findings, extract_facts
from agents.verification.guard.context import words

# A clause of words counts as carried when one article sentence holds this share of its bigrams.
CARRIED_OVERLAP = 0.5
# ... or all its figures and dates and this many of its content words (all of them if it has fewer)
ANCHORED_WORDS = 3
# ... or all its figures and dates, this share of its content words and this share of its bigrams.
WORDED_SHARE = 0.6
WORDED_OVERLAP = 0.3
# ... or, for the release's title or lead, the article's opening holds this share of its content
# words and this share of its bigrams.
LEAD_SHARE = 0.5
LEAD_OVERLAP = 0.25
# The release's lead line is carried by a sentence holding this share of its content words.
LEAD_WORDS = 0.6
LEAD_MOST_WORDS = 5  # ... or this many of a long lead's words
# A release copied from a news page carries the outlet's marks: a byline, a photo credit.
NEWS_MARKS = re.compile(
    r"\[[^\]]{0,30}기자\]|\((?:사진|ⓒ|©)[^)]{0,30}\)|^\s*\([^)]{2,12}\)|[\d.]+\s*\(ⓒ[^)]*\)"
)
# "중앙재난안전대책본부(이하 ‘중대본’)": the article uses the short name the release defines.
_ALIAS = re.compile(r"[^\s(]+\s?\(이하\s?[‘'\"“]?([^’'\"”)]+)[’'\"”]?\)")
_ADNOMINAL = re.compile(r"(?:[가-힣]{2}[하되있없했됐겠]|^(?:대한|위한|통한|관한|따른|의한|인한))$")
_SPACE = re.compile(r"\s+")
# A rank and an ordinal are the same figure: "수출 2위 품목" is "두 번째로 수출이 많은".
_SAME_UNIT = {"위": "번째", "째": "번째"}
_DAY = re.compile(r"(?:d:|\d{4}-\d{2}-)(\d{1,2})$")
# Words that say a rank is a record ("역대 4위", "1973년 이래", "사상 최고"), not what it ranks.
_RECORD = frozenset(("역대", "이래", "사상", "관측", "관측이래"))
# A lead that states a record ("역대 최대", "처음", "23년 만에") makes the record its news: a
# sentence with the same figures and no record in it restates the detail, not the lead.
_RECORD_CLAIM = re.compile(r"역대|최대|최고|최저|최소|최다|사상|처음|가장|만에|이래|이후\s?최|신기록")


@lru_cache(maxsize=4096)
def anchors(text: str) -> frozenset[str]:
    """The figures with a unit and the dates of `text` as comparable keys: a date by its day ("12월
    13일" and "13일" alike, since an article drops the month it is in), a month as written; words
    such as "오늘" or "재작년" depend on the day they are written and identify nothing."""
    found = set()
    for fact in extract_facts(text):
        if fact.kind == "number" and not fact.key.endswith("|"):
            found.add(same_unit(fact.key))
        elif fact.kind == "date" and not fact.key.startswith("r:"):
            day = _DAY.search(fact.key)
            found.add(f"d:{int(day.group(1))}" if day else fact.key)
    return frozenset(found)


def same_unit(key: str) -> str:
    value, _, unit = key.partition("|")
    return f"{value}|{_SAME_UNIT.get(unit, unit)}"


def content_words(text: str) -> list[str]:
    """The content words of a release text, each once, after the outlet's marks are cut and a
    defined short name replaces the long one. The guard's stems keep an adnominal predicate once
    its ending reads as a particle ("변경하는" → "변경하", "비어있는" → "비어있"): such words say
    what happens, in words an article is free to change, and are left out too."""
    stems = words(_ALIAS.sub(r"\1", NEWS_MARKS.sub("", text)))
    return list(dict.fromkeys(w for w in stems if not _ADNOMINAL.search(w)))


def covers(word: str, flat: str) -> bool:
    """Whether `flat` (a sentence without spaces) holds `word`; a word of three or more letters
    may differ in its last one, which is often a particle or an ending ("상가나", "완화돼")."""
    return (word if len(word) <= 2 else word[:-1]) in flat


def windows(sentences: Sequence[str]) -> list[str]:
    """Every sentence and every two that follow each other: an article often cuts a long release
    sentence in two."""
    return [*sentences, *(f"{a} {b}" for a, b in pairwise(sentences))]


def carried_lead(text: str, *, sentences: Sequence[str], opening: Sequence[str] = ()) -> bool:
    """Whether the article carries the release's lead line as a whole: restated in its opening, or
    up to three article sentences that follow each other hold its figures and most of its content
    words (one sentence may instead hold most of its bigrams, with its figures). A lead sums the
    release up; its figures recur in the detail further down, so they alone do not carry it, and a
    lead that states a record is carried only where the record is stated too."""
    record = bool(_RECORD_CLAIM.search(text))
    if any(_restates(text, sentence) for sentence in opening if _keeps_record(record, sentence)):
        return True
    mine = bigrams(NEWS_MARKS.sub("", text))
    wanted, needed = content_words(text), lead_figures(text)
    if not mine or not wanted:
        return True
    # A long lead is often spread over three sentences of the article.
    threes = [" ".join(sentences[i : i + 3]) for i in range(max(0, len(sentences) - 2))]
    for window in [*windows(sentences), *threes]:
        if not _keeps_record(record, window) or not needed <= anchors(window):
            continue
        # Bigrams pooled over sentences on one topic reach half a lead's by the topic alone: the
        # share is read in one sentence.
        if window in sentences and len(mine & bigrams(window)) / len(mine) >= CARRIED_OVERLAP:
            return True
        flat = _SPACE.sub("", window)
        held = sum(covers(w, flat) for w in wanted)
        if held / len(wanted) >= LEAD_WORDS or held >= LEAD_MOST_WORDS:
            return True
    return False


def lead_figures(text: str) -> frozenset[str]:
    """The figures a lead states, as code picks them (`agents.facts.factatoms.figure_atoms`): no
    date or year (an article gives it as "내년" or leaves it out), no denominator ("1인당"), no
    base of a comparison ("전년(5,783명) 대비")."""
    return frozenset(k for a in figure_atoms(text) for k in _stated(a.figure) if not k.endswith("|"))


def _keeps_record(record: bool, sentence: str) -> bool:
    return not record or bool(_RECORD_CLAIM.search(sentence))


def carried_clause(text: str, *, sentences: Sequence[str], opening: Sequence[str] = ()) -> bool:
    """Whether the article `sentences` carry a clause of the release (see the module's docstring).
    A clause of the release's title or lead is also carried by an `opening` sentence (the
    article's headline or first sentence) that restates it: a news lead says what the release's
    lead says in the outlet's own words, and only there is so loose a match safe."""
    if any(_restates(text, sentence) for sentence in opening):
        return True
    mine = bigrams(NEWS_MARKS.sub("", text))
    if not mine:
        return True
    wanted, needed = content_words(text), anchors(text)
    for window in windows(sentences):
        share = len(mine & bigrams(window)) / len(mine)
        if share >= CARRIED_OVERLAP:
            return True
        if not wanted or not needed <= anchors(window):
            continue
        flat = _SPACE.sub("", window)
        held = sum(covers(w, flat) for w in wanted)
        if needed and held >= min(ANCHORED_WORDS, len(wanted)):
            return True
        if held / len(wanted) >= WORDED_SHARE and share >= WORDED_OVERLAP:
            return True
    return False


def _restates(text: str, sentence: str) -> bool:
    wanted, mine = content_words(text), bigrams(NEWS_MARKS.sub("", text))
    if not wanted or not mine or not anchors(text) <= anchors(sentence):
        return False
    flat = _SPACE.sub("", sentence)
    held = sum(covers(w, flat) for w in wanted) / len(wanted)
    return held >= LEAD_SHARE and len(mine & bigrams(sentence)) / len(mine) >= LEAD_OVERLAP


def carried_figures(atoms: Sequence[Atom], *, sentences: Sequence[str]) -> set[Atom]:
    """The figure atoms whose figure the article states about the same thing: where the guard
    binds it to the same words (one guard pass per release sentence), where it has two or more
    significant digits and the same unit, or where one article sentence states it with every
    content word the release writes before it ("접촉자 중 1명" in "이 가운데 지인 1명이"); and a
    figure in brackets right after one the article carries.
    """
    article = "\n".join(sentences)
    found: set[Atom] = set()
    stated = {f.key for f in extract_facts(article) if f.kind == "number"}
    for probe in {a.probe for a in atoms}:
        findings = [f for f in article_findings(body=probe, sources=[article]) if f.fact.kind == "number"]
        for atom in (a for a in atoms if a.probe == probe):
            same = [f for f in findings if f.fact.text == atom.figure]
            if (
                atom.nth < len(same)
                and (same[atom.nth].supported or _distinct_in(same[atom.nth].fact.key, stated))
            ) or _stated_with_own_words(atom, sentences=sentences):
                found.add(atom)
    # A figure in brackets qualifies the one before it ("9만7000명" carries "+97천명, +4.3%"): an
    # article that writes the main figure out chose it, and the rate beside it is no fact of its
    # own. A main figure the guard only derives from others ("44조748억원" and "40조1562억원" give
    # "9.8%") is no such choice.
    heads = {(a.probe, a.figure, a.nth) for a in found if _figure_key(a.figure) in stated}
    return found | {a for a in atoms if a.head and (a.probe, *a.head) in heads}


def _figure_key(figure: str) -> str:
    return next((f.key for f in extract_facts(figure) if f.kind == "number"), "")


def _distinct_in(key: str, stated: set[str]) -> bool:
    """A figure of two or more significant digits ("3조 4000억 원") that the article states with
    the same unit is carried even where the guard ties it to other words: the release's wording
    around it ("발전사업의 3조 4000억 원 전체 사업비") need not be the article's. Small figures
    ("1명", "2.0%") need their context."""
    return key in stated and len(re.sub(r"[^1-9]", "", key.split("|")[0])) >= 2


def _stated_with_own_words(atom: Atom, *, sentences: Sequence[str]) -> bool:
    key = _figure_key(atom.figure)
    own = content_words(atom.source_text[: atom.source_text.rfind(atom.figure)])
    if key and own and all(w in _RECORD for w in own) and same_unit(key).endswith("|번째"):
        return _ranked(atom, same_unit(key), sentences)
    if not key or not own:
        return False
    return any(
        same_unit(key) in _stated(sentence) and all(covers(w, _SPACE.sub("", sentence)) for w in own)
        for sentence in sentences
    )


def _ranked(atom: Atom, key: str, sentences: Sequence[str]) -> bool:
    """ "평균기온 24.7 ℃ 역대 4위": a rank whose own words only say it is a record ranks the figure
    before it, so it is about that figure's subject; an article often gives the rank in the next
    sentence ("이는 1973년 이래 4번째로 높은 기록이다"). Carried where two sentences that follow
    each other state the rank and every content word of its clause."""
    clause = next((c for c in clauses(atom.probe) if atom.source_text in c), "")
    subject = [w for w in content_words(clause[: clause.rfind(atom.figure)]) if w not in _RECORD]
    if not subject:
        return False
    return any(
        any(key in _stated(s) for s in window.split("\n"))
        and all(covers(w, _SPACE.sub("", window)) for w in subject)
        for window in (f"{a}\n{b}" for a, b in pairwise(sentences))
    )


@lru_cache(maxsize=4096)
def _stated(sentence: str) -> frozenset[str]:
    return frozenset(same_unit(f.key) for f in extract_facts(sentence) if f.kind == "number")

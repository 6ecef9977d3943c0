"""A key fact as the reporter reads it: a clause with its subject, or a figure with its subject.

Code cuts a release sentence into atoms to judge what an article carries (`agents.facts.factatoms`);
a piece cut that way ("첫 5000만 원대를", "넙치류(-9.6%", "있기 때문으로 해석된다.") says nothing
on its own. The list shows, for the atoms an article lacks, the whole clause they stand in (up to
its predicate) with the sentence's subject in front when the clause has none of its own, and drops
what still is no statement. The checks are by kind of word: a subject is a word with a subject or
topic particle that is no adnominal verb form ("많은", "있는") and no adverbial ("에는"); a piece
that opens with a bound noun or a particle, or ends in a linking particle, is cut from a clause.
Pure Python: no Django, no LLM.
"""

from __future__ import annotations

import re

from agents.facts.factatoms import clause_bounds
from agents.verification.guard import extract_facts

LABEL_CHARS = 100
SUBJECT_CHARS = 30  # a subject phrase longer than this is cut to its last words
# A word with a subject or topic particle ("농가소득은", "정부가", "서울도").
_SUBJECT = re.compile(r"(?:^|(?<=\s))([^\s]*[가-힣A-Za-z0-9)\]』」’”'])(은|는|이|가|도|께서)(?=\s|$)")
# Adnominal verb forms and adverbs that end like a subject ("많은", "있는", "같이"; a whole word, so
# "면적은" and "실적은" stay subjects), and topics of place, time or manner ("지역별로는",
# "17년에는"): none says whose the fact is.
_NOT_SUBJECT = re.compile(
    r"(?:[하되있없않]는|[라다]는|^[많높낮작적좋같넓짧늦받]은|^[많높깊없같]이|일찍이|"
    r"에는|서는|로는|으로는|와는|과는|보다는|에도|에서도|까지는|부터는|하기는|되기는)$"
)
_NOT_SUBJECT_WORDS = frozenset(("오는", "가는", "이는", "지는", "이같은", "그는", "이도", "또는", "혹은"))
# Words that open a clause only after another: connectives, kept off the front of a label.
_CONNECTIVE = re.compile(
    r"^(?:또한|또|한편|그러나|하지만|반면|반면에|아울러|특히|이에|이와\s*함께|따라서|다만|그리고|더불어|이어|또는)[,\s]+"
)
# A piece cut from inside a clause: it opens with a bound noun, an ending or a particle, or a mark
# that continues a line before it ("→", "·", "※").
_DEPENDENT = re.compile(
    r"^(?:[→·\-*※▲△○◦□■◆◇…~∼]|(?:있기|없기|때문|것으로|것이|것을|데|수\s*있|하기|되기|등으로|등이|등을|등|및|"
    r"으로|로|에서|에게|까지|부터|만큼|대비|보다)(?=\s|$))"
)
_DANGLING = re.compile(r"(?:의|및|와|과|등|또는)[\s)\]]*$")
_PREDICATE = re.compile(r"(?:다|니다|음|됨|함|임|요)[.!?\"”'’)]*\s*$")
# A clause that ends in a connective ending ("작성하고 있으며", "감소했으나") still says something of
# its subject.
_CONNECTED = re.compile(r"(?:며|고|으나|지만|는데|면서|해|돼|여)$")
_HANGUL = re.compile(r"[가-힣]")
MIN_HANGUL = 3  # syllables a statement needs, figures and units aside
MIN_PREDICATE_HANGUL = 8  # ... and a statement without a subject of its own
NAMED_WORDS = 1  # Hangul words before a figure that name what it counts, in a headline line
HEADLINE_WORDS = 4  # words of a headline line in the nominal style
_LEADING_MARKS = re.compile(r"^[\s\-–—·•□■○◦▪▶►◆◇※*ㅇ①-⑳]+")


def subject_words(text: str) -> list[re.Match[str]]:
    """The subject words of `text`, figures left out ("5.1%는" qualifies no one)."""
    found = []
    for match in _SUBJECT.finditer(text):
        word = match.group(0)
        if (
            word in _NOT_SUBJECT_WORDS
            or _NOT_SUBJECT.search(word)
            or not re.search(r"[가-힣A-Za-z]", match.group(1))
        ):
            continue
        found.append(match)
    return found


def subject_before(sentence: str, at: int) -> str:
    """The sentence's subject phrase before `at`: the words up to its first subject word, cut to
    the last few when long ("2018년 어업생산량은", "서울시는")."""
    subjects = subject_words(sentence[:at])
    if not subjects:
        return ""
    end = subjects[0].end()
    phrase = _LEADING_MARKS.sub("", sentence[:end]).strip()
    phrase = _CONNECTIVE.sub("", phrase)
    if len(phrase) > SUBJECT_CHARS:
        phrase = " ".join(phrase[-SUBJECT_CHARS:].split()[1:]) or phrase[-SUBJECT_CHARS:]
    return phrase


def statement(sentence: str, start: int, end: int) -> tuple[str, str]:
    """(label, source text) for the span `start:end` of a release sentence: the clauses that hold it,
    with the sentence's subject in front when they have none; when they make no statement, the rest
    of a short sentence too (the clause's predicate); ("", "") when even that is none."""
    low, high = clause_bounds(sentence, start, end)
    label, piece = _labelled_piece(sentence, low, high)
    if not is_statement(label) and high < len(sentence):
        label, piece = _labelled_piece(sentence, low, len(sentence))
    return (label, piece) if is_statement(label) else ("", "")


def _labelled_piece(sentence: str, low: int, high: int) -> tuple[str, str]:
    piece = sentence[low:high].strip(" ,;")
    label = _CONNECTIVE.sub("", _LEADING_MARKS.sub("", piece)).strip()
    if low > 0 and not subject_words(label):
        subject = subject_before(sentence, low)
        if subject and subject not in label:
            label = f"{subject} … {label}"
    return _shorten(label), piece


def _shorten(text: str) -> str:
    """A long label as its head (where the subject stands) and its tail (where the predicate
    does), cut at spaces: both halves of a statement survive the cut."""
    if len(text) <= LABEL_CHARS:
        return text
    half = (LABEL_CHARS - 3) // 2
    head, tail = text[:half], text[-half:]
    head = head[: head.rfind(" ")] if " " in head else head
    tail = tail[tail.find(" ") + 1 :] if " " in tail else tail
    return f"{head.rstrip(' ,;(')} … {tail}"


def _without_figures(text: str) -> str:
    for fact in extract_facts(text):
        if fact.kind in ("number", "date"):
            text = text.replace(fact.text, " ")
    return text


def is_statement(text: str) -> bool:
    """A clause with its subject, a figure with its subject (a word or a labelled value such as
    "대구(118.9%)"), or a whole predicate clause; never a piece cut from inside a clause."""
    core = text.replace("…", " ").strip()
    if (
        not core
        or _DEPENDENT.match(core)
        or _DANGLING.search(core)
        or _CONNECTIVE.sub("", core + " ").strip() == ""
    ):
        return False
    bare = _without_figures(core)
    syllables = len(_HANGUL.findall(bare))
    if syllables < MIN_HANGUL:
        return False
    figures = [f for f in extract_facts(core) if _is_figure(f.key, f.text)]
    if subject_words(bare):
        return bool(figures) or bool(_PREDICATE.search(core) or _CONNECTED.search(core))
    if figures and (_labelled(core) or _named(core, figures[0].text)):
        return True
    return (bool(_PREDICATE.search(core)) or _headline(core)) and syllables >= MIN_PREDICATE_HANGUL


def _is_figure(key: str, text: str) -> bool:
    """A number with a unit, or an amount written in 만/억/조 ("총 2,000억 규모")."""
    return "|" in key and (not key.endswith("|") or bool(re.search(r"[만억조]", text)))


def _named(text: str, figure: str) -> bool:
    """A figure after the noun words that name it, as a release's headline lines write it ("2021년
    보건복지부 예산안 90조1536억 원 편성", "강수량 1018.5 mm 5위"): a word of Hangul before it."""
    before = _without_figures(text[: text.find(figure)])
    names = [w for w in re.findall(r"[가-힣·]{2,}", before) if not _NOT_SUBJECT.search(w)]
    return len(names) >= NAMED_WORDS


def _headline(text: str) -> bool:
    """A headline line ending in a verbal noun ("… 관리 강화", "… 기준 폐지"): a statement in the
    nominal style releases use for their summary lines, when it has several words."""
    return len(text.split()) >= HEADLINE_WORDS and bool(re.search(r"[가-힣]{2}$", text.rstrip(" .")))


def _labelled(text: str) -> bool:
    """A figure written with what it counts: "대구(118.9%)", "관광객 1,420만 명이"."""
    for fact in extract_facts(text):
        at = text.find(fact.text)
        before, after = text[max(0, at - 12) : at], text[at + len(fact.text) : at + len(fact.text) + 2]
        if re.search(r"[가-힣]{2,}\($", before):
            return True
        if re.match(r"(?:은|는|이|가|도)(?:\s|$)", after) and re.search(r"[가-힣]{2,}\s*$", before):
            return True
    return False

"""Atomic key facts: a release line cut into the facts it holds, each judged on its own.

One release line often states several facts ("취업자는 2,867만 8천명으로 전년동월대비 26만 8천명
증가"); an article that carries one of them and drops the other neither carries nor lacks the line,
so judging whole lines lists facts the article does carry. Here a line becomes atoms: a figure with
the words before it that say what it counts, a clause of words, a date, a contact line; whether an
article carries each is judged in `agents.facts.carried`.
Pure Python: no Django, no LLM.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from agents.verification.guard import extract_facts

DATE_LINE_BIGRAMS = 20  # a line this short around a date is the date itself
CLAUSE_MIN = 12  # shorter pieces of a line are joined to the clause before them
LABEL_CHARS = 70
# Clauses end at a comma or semicolon, at a bullet, and after a connective ending; never inside
# brackets, where "(13만 8천명, 4.9%)" qualifies the words before it.
_BREAK = re.compile(
    r"[,;]\s+|\s*[▴▲△■□○●◆◇▶►]\s*|(?<=하며|되며|이며|으며|하고|되고|했고|였고|이고|으나|지만|하여)\s"
)
_YEAR_MARK = re.compile(r"[’‘'](?=\d{2})")
_OPEN, _CLOSE = "(（[「『‘“", ")）]」』’”"
_QUALIFIER = re.compile(r"[1-9]0\|대")
_COMPARISON = re.compile(
    r"전년\s?동월\s?대비|전년\s?동기\s?대비|전년\s?대비|전월\s?대비|대비|보다|각각|전년|총|약"
)
# "전년(5,783,612명) 대비": the base of a comparison the release gives for reference.
_BASE = re.compile(r"(?:전년|전월|지난해|작년|이전\s?학년도|전년\s?동기|전년\s?동월)\*?\s?\($")
_SPLIT_THOUSANDS = re.compile(r"(?<![\d,])(\d{1,3}), (\d{3})(?=[만억조천]|\d{0}\s?[가-힣%])")
# "5대 핵심과제", "4대 분야": the N major things a plan names, a heading rather than a count.
_HEADING = re.compile(r"^\s?(?:핵심|분야|과제|정책|전략|중점|목표|추진|역점|혁신|원칙|방향|권역)")
_DAY = re.compile(r"(?:d:|\d{4}-\d{2}-)\d{1,2}$")
# Between a figure and the one in brackets that qualifies it: "197천명(+1.2%)", "(+97천명, +4.3%)".
_QUALIFYING = re.compile(r"[\s,(（+\-−△▲▼▽]*")
_PER = re.compile(r"\s?당(?![초시해첨국부선일])")
_FIGURE_END = re.compile(r"^[^\s,;()]*(?:\s(?:증가|감소|상승|하락|늘어|줄어|증가한|감소한)[^\s,;]*)?")


@dataclass(frozen=True)
class Atom:
    kind: str  # "figure" | "words" | "date" | "contact"
    label: str  # what the reporter reads: the fact in the release's words, shortened
    source_text: str  # the release text it rests on
    probe: str = ""  # for a figure: the release sentence its context is read from
    figure: str = ""  # ... the figure as written there
    nth: int = 0  # ... and which of the equal figures of that sentence it is
    opening: bool = False  # cut from the release's title or lead, which the article's opening restates
    lead: bool = False  # ... from the lead, which is carried only as a whole (`carried.carried_lead`)
    # ... for a figure in brackets right after another ("197천명(+1.2%)", "(+97천명, +4.3%)"): that
    # figure and which of its equals it is, the figure this one qualifies
    head: tuple[str, int] | None = None


def clauses(text: str) -> list[str]:
    """`text` cut at clause breaks outside brackets; very short pieces stay with the one before."""
    pieces: list[str] = []
    cursor = 0
    for match in _BREAK.finditer(text):
        if _depth(text[: match.start()]) == 0:
            pieces.append(text[cursor : match.start()])
            cursor = match.end()
    pieces.append(text[cursor:])
    joined: list[str] = []
    for piece in (p.strip() for p in pieces):
        if joined and len(piece) < CLAUSE_MIN:
            joined[-1] = f"{joined[-1]} {piece}".strip()
        elif piece:
            joined.append(piece)
    return joined


def clause_bounds(text: str, start: int, end: int) -> tuple[int, int]:
    """The start of the clause `start` stands in and the end of the clause `end` stands in: a
    clause break outside brackets, or the ends of `text`."""
    low, high = 0, len(text)
    for match in _BREAK.finditer(text):
        if _depth(text[: match.start()]) != 0:
            continue
        if match.end() <= start:
            low = match.end()
        elif match.start() >= end:
            high = match.start()
            break
    return low, high


def _depth(prefix: str) -> int:
    # "(ILO, ’13.10월)": an apostrophe before digits shortens a year and closes no quotation.
    prefix = _YEAR_MARK.sub("", prefix)
    return sum(prefix.count(c) for c in _OPEN) - sum(prefix.count(c) for c in _CLOSE)


def has_unit(kind: str, key: str) -> bool:
    """Values with a unit: bare numbers are list markers or years as often as facts, and a page
    ("20쪽, 자연증가입니다") points into the release's own document."""
    return kind == "number" and not key.endswith(("|", "|쪽", "|페이지"))


def figure_atoms(text: str) -> list[Atom]:
    """One atom per figure with a unit: its source text runs from the end of the figure before it
    (or its clause's start) to the figure and the word that ends it ("26만 8천명 증가")."""
    # Text copied from a PDF splits thousands ("3, 300만 달러"): read it as written in print.
    text = _SPLIT_THOUSANDS.sub(r"\1,\2", " ".join(text.split()))
    atoms: list[Atom] = []
    details: list[Atom] = []
    cursor, subject = 0, ""
    seen: list[str] = []
    last: tuple[str, int, int] | None = None  # the figure before: its text, nth and end
    for fact in extract_facts(text):
        at = text.find(fact.text, cursor)
        if not has_unit(fact.kind, fact.key) or at < 0:
            continue
        if (
            qualifier(text, fact.key, at, at + len(fact.text))
            or _range_start(text, at + len(fact.text))
            or _BASE.search(text[:at])
        ):
            continue
        tail = _FIGURE_END.match(text[at + len(fact.text) :])
        end = at + len(fact.text) + (tail.end() if tail else 0)
        start = _clause_start(text, at, cursor)
        piece = text[start:end].strip(" ,;)")
        before = text[start:at].strip(" ,;)(")
        # "전년동월대비 0.7%p 상승" is about what the figure before it was about.
        own = before if _COMPARISON.sub("", before).strip() else ""
        label = short(piece if own or not subject else f"{subject} … {piece}")
        subject = own or subject
        nth = seen.count(fact.text)
        inside = _open_bracket(text, at) >= 0
        head = last[:2] if inside and last and _QUALIFYING.fullmatch(text[last[2] : at]) else None
        atom = Atom("figure", label, piece, probe=text, figure=fact.text, nth=nth, head=head)
        (details if inside else atoms).append(atom)
        seen.append(fact.text)
        cursor, last = end, (fact.text, nth, at + len(fact.text))
    # A figure in brackets qualifies the one before it: the main figures come first.
    return atoms + details


def _clause_start(text: str, at: int, cursor: int) -> int:
    """Where the words about the figure at `at` begin: the last clause break before it, or the
    end of the figure before it, whichever is later; inside brackets, the word before the bracket
    ("보건업(13만 8천명, 4.9%)": both figures are about 보건업)."""
    start = 0
    for match in _BREAK.finditer(text, 0, at):
        if _depth(text[: match.start()]) == 0:
            start = match.end()
    start = max(start, cursor)
    opened = _open_bracket(text, at)
    if opened >= 0:
        word = text.rfind(" ", 0, opened) + 1
        start = min(start, word) if word >= _last_break(text, opened) else start
    return start


def _open_bracket(text: str, at: int) -> int:
    """The position of the bracket `at` stands in, -1 outside brackets."""
    depth = 0
    for position in range(at - 1, -1, -1):
        if text[position] in _CLOSE:
            depth += 1
        elif text[position] in _OPEN:
            if depth == 0:
                return position
            depth -= 1
    return -1


def _last_break(text: str, at: int) -> int:
    ends = [m.end() for m in _BREAK.finditer(text, 0, at) if _depth(text[: m.start()]) == 0]
    return ends[-1] if ends else 0


def qualifier(text: str, key: str, at: int, end: int) -> bool:
    """An age band or a decade ("15~64세", "20대") says which group a figure is about, not a fact;
    an age on its own ("초혼연령 33.7세") is one, a denominator ("1인당") none. "5대 핵심과제" is a
    heading, and so is the ordinal a spoken briefing opens an item with ("두 번째, 보도자료 4쪽이
    되겠습니다")."""
    band = key.endswith("|세") and text[max(0, at - 2) : at].strip()[-1:] in ("~", "∼", "〜")
    heading = key.endswith("|대") and bool(_HEADING.match(text[end:]))
    item = key.endswith("|번째") and not text[:at].strip() and text[end : end + 1] == ","
    return band or heading or item or per(key, text, end) or bool(_QUALIFIER.fullmatch(key))


def per(key: str, text: str, end: int) -> bool:
    """ "1인당 929.9g", "인구 10만 명당 5.2명": the figure before 당 is the denominator of a rate,
    not a fact of its own; and "1인" names a kind of thing ("1인 하루 배출량", "1인 가구", "종사자
    1인 이상 사업체"), where a count of one person is written "1명"."""
    return key == "1|인" or bool(_PER.match(text, end))


def _range_start(text: str, end: int) -> bool:
    """ "5~7번째": the range is read as one fact, the figure that ends it."""
    return text[end : end + 2].strip()[:1] in ("~", "∼", "〜")


def short(text: str) -> str:
    text = text.strip(" -–—·•□■○◦")
    return text if len(text) <= LABEL_CHARS else text[: LABEL_CHARS - 1] + "…"


def word_atoms(text: str) -> list[Atom]:
    text = " ".join(text.split())
    return [Atom("words", short(c), c, probe=text) for c in clauses(text)]


def date_atoms(text: str) -> list[Atom]:
    """One atom per date that names a day, with the clause that says what happens on it."""
    text = " ".join(text.split())
    found: list[Atom] = []
    for fact in extract_facts(text):
        if fact.kind == "date" and _DAY.search(fact.key):
            clause = next((c for c in clauses(text) if fact.text in c), fact.text)
            found.append(Atom("date", short(clause), clause, probe=text, figure=fact.text))
    return found


def in_turn(atoms: Sequence[Atom]) -> list[Atom]:
    """The atoms of each release line in turn (the first of every line, then the second, ...), so
    that a line of many figures does not fill the list alone."""
    rank: dict[str, int] = {}
    keyed = []
    for position, atom in enumerate(atoms):
        turn = rank.get(atom.probe, 0)
        rank[atom.probe] = turn + 1
        keyed.append((turn if atom.probe else 0, position, atom))
    return [atom for _, _, atom in sorted(keyed, key=lambda k: (k[0], k[1]))]

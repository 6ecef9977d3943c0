"""Missing key facts: the must-carry facts of a press release that an article leaves out.

Code picks the must-carry lines from the release's structure: the title (who, what), the lead
sentence, every line that states a figure with its unit (the headline figures, amounts), a dated
line (when, the effective date), and the contact line (담당부서/문의: the agency to call). Each
line is cut into atomic facts (`agents.facts.factatoms`): a figure with its subject, a clause of words,
a date, the contact. Whether the article carries each is judged in `agents.facts.carried`: a figure when
the guard's reader finds it about the same thing, a clause by its figures, dates and content words
in one article sentence or two; a date line by its day. Pure Python: no Django, no LLM.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace

from agents.facts import carried, factatoms
from agents.facts.factatoms import Atom
from agents.facts.provenance import bigrams, segments
from agents.verification.guard import extract_facts, split_sentences

MAX_LISTED = 12
_CONTACT = re.compile(r"(담당\s*부서|담당자|문의|연락처|담당\s*:)")
_DATED = re.compile(r"(등록일|배포일|보도일|시행|발표일|\d{4}\s*[.\-년]\s*\d{1,2}\s*[.\-월])")
_BOILERPLATE = re.compile(r"(보도자료|콘텐츠 영역|데이터 요금|조회수|첨부|바로가기|보도시점|배포시점)")
_PHONE = re.compile(r"\d{3,4}[-.]\d{4}")
_TITLE_MIN = 10
OTHER_MIN = 15


@dataclass(frozen=True)
class KeyFact:
    fact: str
    source_text: str
    kind: str = "words"  # the atom's kind (agents.facts.factatoms.Atom)

    def to_json(self) -> dict[str, str]:
        return {"fact": self.fact, "source_text": self.source_text}


def unit_figures(text: str) -> frozenset[str]:
    """Values with a unit ("9.2|%"), pages left out (`agents.facts.factatoms.has_unit`)."""
    return frozenset(f.key for f in extract_facts(text) if factatoms.has_unit(f.kind, f.key))


def key_atoms(release: str) -> list[Atom]:
    """The atomic must-carry facts of `release`, most important first: title, lead, figures, when,
    contact, then the other lines of words."""
    pool = [s for s in segments([release]) if not _boilerplate(s.text)]
    title = next((s for s in pool if len(s.text) >= _TITLE_MIN and not _CONTACT.search(s.text)), None)
    rest = [s for s in pool if s is not title]
    lead = next((s for s in rest if s.text.endswith("다.") and len(s.text) >= 30), None)
    figured = [s for s in rest if s is not lead and unit_figures(s.text) and not _CONTACT.search(s.text)]
    dated = [s for s in rest if _DATED.search(s.text) and s not in figured and s is not lead][:1]
    contact = [s for s in rest if _CONTACT.search(s.text) and "부서" in s.text][:1] or [
        s for s in rest if _CONTACT.search(s.text)
    ][:1]
    others = [s for s in rest if s is not lead and s not in figured and len(s.text) >= OTHER_MIN]
    atoms: list[Atom] = []
    for segment in [s for s in (title, lead) if s is not None]:
        atoms += [replace(a, opening=True) for a in _atoms_of(segment.text)]
    for segment in figured:
        atoms += _atoms_of(segment.text)
    atoms += [Atom("date", factatoms.short(s.text), s.text) for s in dated]
    atoms += [Atom("contact", factatoms.short(_agency(s.text)), _agency(s.text)) for s in contact]
    for segment in others:
        atoms += factatoms.word_atoms(segment.text)
    for segment in [s for s in (title, lead) if s is not None] + figured + others:
        atoms += factatoms.date_atoms(segment.text)
    seen: set[str] = set()
    unique: list[Atom] = []
    for atom in atoms:
        if atom.source_text not in seen and atom.source_text.strip():
            seen.add(atom.source_text)
            unique.append(atom)
    return unique


def _boilerplate(text: str) -> bool:
    """A line of the page around the release ("보도자료", "조회수 : 9567", "이 보도자료는 … 전문
    입니다"), unless it is the contact line or states a figure: "총 7건의 보도자료를 제공하겠습니다"
    is what a weekly briefing announces."""
    return bool(_BOILERPLATE.search(text)) and not _CONTACT.search(text) and not unit_figures(text)


def _agency(line: str) -> str:
    """The contact line up to its first phone number: the agency, not the title a page puts next
    to it."""
    match = _CONTACT.search(line)
    text = line[match.start() if match else 0 :]
    phone = _PHONE.search(text)
    return " ".join((text[: phone.start()] if phone else text).split())


def _atoms_of(text: str) -> list[Atom]:
    if not unit_figures(text):
        return factatoms.word_atoms(text)
    # "자연·유휴시설 … 인증제에 새로 포함하고 인증사업자를 2030년까지 4000개로 확대한다": the
    # clause before the figure's is a fact of its own.
    plain = [
        a
        for a in factatoms.word_atoms(text)
        if len(a.source_text) >= OTHER_MIN
        and not unit_figures(a.source_text)
        and not _furniture(a.source_text)
    ]
    return factatoms.figure_atoms(text) + plain


def _furniture(text: str) -> bool:
    """A piece of the page: a marker ("보도자료 4쪽"), a contact or a phone number."""
    return bool(_BOILERPLATE.search(text) or _CONTACT.search(text) or _PHONE.search(text))


def key_facts(release: str) -> list[KeyFact]:
    return [KeyFact(fact=a.label, source_text=a.source_text, kind=a.kind) for a in key_atoms(release)]


def _carried(atom: Atom, *, sentences: Sequence[str], opening: Sequence[str], figures: set[Atom]) -> bool:
    if atom.kind == "figure":
        return atom in figures
    if atom.kind == "date" and atom.figure:
        # "1월 22일" in the release is carried by the article's "22일": an article drops the month.
        return bool(_days(atom.figure) & _days("\n".join(sentences)))
    days = _days(atom.source_text)
    if atom.kind == "date" and days and len(bigrams(atom.source_text)) <= factatoms.DATE_LINE_BIGRAMS:
        # A date line ("등록일 : 2020-09-01") is carried by the article's "1일" or "9월 1일".
        return bool(days & _days("\n".join(sentences)))
    return carried.carried_clause(
        atom.source_text, sentences=sentences, opening=opening if atom.opening else ()
    )


def _days(text: str) -> set[str]:
    """Day numbers of a text's dates: "2020-09-01", "m:9|d:1" and "d:1" all give "1"."""
    found = set()
    for fact in extract_facts(text):
        if fact.kind == "date":
            match = re.search(r"(?:d:|\d{4}-\d{2}-)(\d{1,2})$", fact.key)
            if match:
                found.add(str(int(match.group(1))))
    return found


def listed_atoms(listed: Sequence[dict[str, str]]) -> list[Atom]:
    """Atoms of the facts the model listed (`agents.facts.keyfacts_model`): figures as code reads them,
    a fact of words under the model's own summary."""
    atoms: list[Atom] = []
    for item in listed:
        text = item["source_text"]
        if unit_figures(text):
            atoms += factatoms.figure_atoms(text)
        else:
            atoms.append(Atom("words", factatoms.short(item["fact"]), text, probe=text))
    return atoms


def missing_facts(
    *, release: str, headline: str, body: str, limit: int = MAX_LISTED, listed: Sequence[dict[str, str]] = ()
) -> list[KeyFact]:
    """The key facts of `release` that neither the headline nor the body carries, at most `limit`.
    `listed` are the model's key facts for a release where code found none of its own kinds: they
    stand in for the clauses of words code would guess."""
    sentences = [s for s in (headline, *(s.text for s in split_sentences(body))) if s]
    atoms = key_atoms(release)
    if listed:
        atoms = [a for a in atoms if a.kind != "words"] + listed_atoms(listed)
    figures = carried.carried_figures([a for a in atoms if a.kind == "figure"], sentences=sentences)
    # The article's opening (headline and first sentence) restates the release's title and lead.
    opening = [s for s in (headline, *(s.text for s in split_sentences(body)[:1])) if s]
    absent = factatoms.in_turn(
        [a for a in atoms if not _carried(a, sentences=sentences, opening=opening, figures=figures)]
    )
    return [KeyFact(fact=a.label, source_text=a.source_text, kind=a.kind) for a in absent[:limit]]

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

from agents.facts import carried, factatoms, frame, statement
from agents.facts.factatoms import Atom
from agents.facts.provenance import bigrams, segments
from agents.verification.guard import extract_facts, split_sentences

MAX_LISTED = 5
_TITLE_MIN = 10
_SENTENCE_END = re.compile(r"다\.[\"”’')]*$")
OTHER_MIN = 15
# A news lead is often short ("올 상반기 해양 연안사고가 21% 감소했다."): a sentence this long is one.
LEAD_MIN = 20


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
    """The atomic must-carry facts of `release`, most important first: title, lead, the lines with
    figures, then the other lines of words. Frame lines (`agents.facts.frame`) are none of them."""
    pool = [replace(s, text=frame.without_marks(s.text)) for s in segments([release])]
    # A run-on page copied from a PDF holds frame and content in one line: frame is judged on the
    # atoms, the title is the first line that is no frame.
    first = next((s for s in pool if len(s.text) >= _TITLE_MIN and not frame.is_frame(s.text)), None)
    # A text that opens with a sentence (a news story, a release without a title line) has no title:
    # that sentence is its lead.
    title = first if first is not None and not _SENTENCE_END.search(first.text) else None
    rest = [s for s in pool if s is not title]
    lead = next((s for s in rest if _SENTENCE_END.search(s.text) and len(s.text) >= LEAD_MIN), None)
    figured = [s for s in rest if s is not lead and unit_figures(s.text)]
    others = [s for s in rest if s is not lead and s not in figured and len(s.text) >= OTHER_MIN]
    atoms: list[Atom] = []
    for segment in [s for s in (title, lead) if s is not None]:
        atoms += [replace(a, opening=True, lead=segment is lead) for a in _atoms_of(segment.text)]
    for segment in figured:
        atoms += _atoms_of(segment.text)
    for segment in others:
        atoms += factatoms.word_atoms(segment.text)
    for segment in [s for s in (title, lead) if s is not None] + figured + others:
        atoms += factatoms.date_atoms(segment.text)
    seen: set[str] = set()
    unique: list[Atom] = []
    for atom in atoms:
        if atom.source_text not in seen and atom.source_text.strip() and not frame.is_frame(atom.source_text):
            seen.add(atom.source_text)
            unique.append(atom)
    return unique


def _atoms_of(text: str) -> list[Atom]:
    figures = factatoms.figure_atoms(text) if unit_figures(text) else []
    if not figures:
        # "인구 10만명당 자살률이 크게 늘었다": a figure that only qualifies another (a denominator,
        # an age band) is no fact of its own, and the line is a fact of words.
        return factatoms.word_atoms(text)
    # "자연·유휴시설 … 인증제에 새로 포함하고 인증사업자를 2030년까지 4000개로 확대한다": the
    # clause before the figure's is a fact of its own.
    plain = [
        a
        for a in factatoms.word_atoms(text)
        if len(a.source_text) >= OTHER_MIN and not unit_figures(a.source_text)
    ]
    return figures + plain


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
    """Atoms of the facts the model listed (`agents.facts.keyfacts_model`), each fact its own
    group (its `probe` is its source text): figures as code reads them, a fact of words as one
    clause."""
    atoms: list[Atom] = []
    for item in listed:
        text = " ".join(item["source_text"].split())
        figures = factatoms.figure_atoms(text) if unit_figures(text) else []
        atoms += [replace(a, probe=text) for a in figures] or [Atom("words", text, text, probe=text)]
    return atoms


def missing_facts(
    *, release: str, headline: str, body: str, limit: int = MAX_LISTED, listed: Sequence[dict[str, str]] = ()
) -> list[KeyFact]:
    """The key facts of `release` that neither the headline nor the body carries, most important
    first, at most `limit`, each a statement (`agents.facts.statement`). `listed` are the model's
    key facts, already checked to stand in the release: they replace code's own choice."""
    sentences = [s for s in (headline, *(s.text for s in split_sentences(body))) if s]
    atoms = listed_atoms(listed) if listed else key_atoms(release)
    figures = carried.carried_figures([a for a in atoms if a.kind == "figure"], sentences=sentences)
    # The article's opening (headline and first sentence) restates the release's title and lead.
    opening = [s for s in (headline, *(s.text for s in split_sentences(body)[:1])) if s]
    absent = [a for a in atoms if not _carried(a, sentences=sentences, opening=opening, figures=figures)]
    lead = [a for a in atoms if a.lead]
    # Every piece of the lead may recur somewhere, but a lead sums the release up: it is carried
    # only where the article restates it as a whole.
    restated = not lead or carried.carried_lead(lead[0].probe, sentences=sentences, opening=opening)
    if lead and not any(a.lead for a in absent) and not restated:
        absent = lead + absent
    # The model's own summary stands where it is a statement; else code's clause (its source text).
    summaries = {" ".join(i["source_text"].split()): i["fact"] for i in listed}
    found: list[KeyFact] = []
    for probe, group in _by_line(absent):
        summary = summaries.get(probe, "")
        fact = (
            KeyFact(fact=summary, source_text=probe, kind=group[0].kind)
            if statement.is_statement(summary)
            else _stated(probe, group)
        )
        if fact is not None and all(fact.source_text != f.source_text for f in found):
            found.append(fact)
        if len(found) >= limit:
            break
    return found


def _by_line(atoms: Sequence[Atom]) -> list[tuple[str, list[Atom]]]:
    """The atoms grouped by the release line they were cut from, in the order of their first atom."""
    groups: dict[str, list[Atom]] = {}
    for atom in atoms:
        groups.setdefault(atom.probe or atom.source_text, []).append(atom)
    return list(groups.items())


def _stated(probe: str, atoms: Sequence[Atom]) -> KeyFact | None:
    """One listed fact for the atoms of one release line an article lacks: the clauses that hold
    them, as a statement; None when they make none (a piece of a frame line, a lone word)."""
    spans = [(probe.find(a.source_text), len(a.source_text)) for a in atoms]
    spans = [(at, at + size) for at, size in spans if at >= 0]
    if not spans:
        return None
    start, end = min(s for s, _ in spans), max(e for _, e in spans)
    label, clause = statement.statement(probe, start, end)
    if not label or frame.is_frame(clause):
        return None
    # The source text is what the article lacks, not the whole clause around it.
    return KeyFact(fact=label, source_text=probe[start:end], kind=atoms[0].kind)

"""Generate every case of one corpus text, run the guard on it, and tally the outcome.

A verification case is the whole text as an article checked against the text as its source, with
one sentence changed: rewritten faithfully (no flag allowed on it) or given one injected error (a
flag expected on it). Only findings on the changed sentences count, and an injected error counts as
caught when it adds a flagged fact the unchanged sentence did not already have, so a false flag the
original sentence carries is not credited to the injection.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from dataclasses import dataclass, field

from bench.truth import guard, inject, missing, rewrite, tables
from bench.truth.corpus import Text
from bench.truth.figures import find_dates, find_figures

MAX_SENTENCES = 8  # factual sentences per text that get cases
MAX_DROPPED = 5  # sentences removed one at a time for the missing-facts recall
MAX_CELLS = 12  # table cells per text written as sentences, spread over its tables


@dataclass
class Tally:
    texts: int = 0
    originals: int = 0  # factual sentences checked unchanged
    originals_flagged: int = 0
    faithful: Counter[str] = field(default_factory=Counter)  # rewrite kind → cases
    faithful_flagged: Counter[str] = field(default_factory=Counter)
    contradicted: Counter[str] = field(default_factory=Counter)  # faithful cases with a contradiction
    suspect: Counter[str] = field(default_factory=Counter)  # faithful cases with a suspect, none cut
    injected: Counter[str] = field(default_factory=Counter)
    caught: Counter[str] = field(default_factory=Counter)
    family_fp: Counter[str] = field(default_factory=Counter)  # flags on faithful sentences
    family_tp: Counter[str] = field(default_factory=Counter)  # new flags on injected sentences
    family_let_through: Counter[str] = field(default_factory=Counter)  # confirmations of missed errors
    # The same flags by strength: "contradicted" is cut whatever the verifier brings, "suspect" goes
    # to the verifier (and is kept and marked without one).
    family_fp_status: Counter[tuple[str, str]] = field(default_factory=Counter)
    family_tp_status: Counter[tuple[str, str]] = field(default_factory=Counter)
    own_listed: list[int] = field(default_factory=list)  # the text as its own article
    rewritten_listed: list[int] = field(default_factory=list)  # every factual sentence rewritten
    wrapped_listed: list[int] = field(default_factory=list)  # release framed with boilerplate
    dropped: int = 0
    dropped_named: int = 0
    dropped_listed: list[int] = field(default_factory=list)
    leads: int = 0  # removed leads the rest of the text does not restate (`missing.restated`)
    leads_named: int = 0
    leads_restated: int = 0  # removed leads the rest of the text states again: judged apart
    leads_restated_named: int = 0
    listed: int = 0  # every listed fact judged, outside the framed releases
    boilerplate: int = 0
    fragments: int = 0
    frame_listed: int = 0  # listed facts of the framed releases
    frame_boilerplate: int = 0
    examples: list[str] = field(default_factory=list)  # missed errors and false flags, for --cases

    def merge(self, other: Tally) -> None:
        for name, value in vars(other).items():
            mine = getattr(self, name)
            if isinstance(value, Counter):
                mine.update(value)
            elif isinstance(value, list):
                mine.extend(value)
            else:
                setattr(self, name, mine + value)


def is_factual(sentence: str) -> bool:
    """A sentence worth a case: it states a figure (not only a time span) or a date."""
    if missing.is_boilerplate(sentence):
        return False
    return any(f.unit and not f.is_time for f in find_figures(sentence)) or bool(find_dates(sentence))


class _Text:
    """One text, its sentences and the guard's findings on it unchanged."""

    def __init__(self, text: Text) -> None:
        self.text = text
        self.sentences = guard.split(text.text)
        self.source = inject.source_of(text.text)
        self.base = self.check(text.text)
        self.factual = [s for s in self.sentences if is_factual(s.text)][:MAX_SENTENCES]

    def check(self, body: str) -> list[guard.Check]:
        return guard.check(body=body, sources=[self.text.text], reference=self.text.date)

    def context(self, index: int) -> rewrite.Context:
        return rewrite.Context(self.text.date, self.text.kind, f"{self.text.id}:{index}")

    def replaced(self, index: int, new: str) -> str:
        sentences = [
            guard.Sentence(s.index, new if s.index == index else s.text, s.paragraph) for s in self.sentences
        ]
        return guard.join(sentences)

    def changed(self, body: str) -> tuple[list[guard.Check], set[int]]:
        """The findings on an article, and the numbers of its sentences the text does not hold."""
        kept = Counter(s.text for s in self.sentences)
        changed = set()
        for s in guard.split(body):
            if kept[s.text]:
                kept[s.text] -= 1
            else:
                changed.add(s.index)
        return self.check(body), changed

    def base_checks(self, index: int) -> list[guard.Check]:
        return [c for c in self.base if c.flagged and c.sentence == index]


def evaluate_text(text: Text) -> Tally:
    t = _Text(text)
    tally = Tally(texts=1)
    for s in t.factual:
        _original(t, s, tally)
        ctx = t.context(s.index)
        for kind, new in rewrite.rewrites(s.text, ctx).items():
            _faithful(t, s, kind, new, tally)
        for kind, inject_one in inject.KINDS.items():
            result = inject_one(s.text, t.source, ctx)
            if result:
                _injected(t, s, kind, result, t.base_checks(s.index), tally)
        hangul = inject.hangul(s.text, t.source, ctx)
        if hangul:
            base, result = hangul
            checks, changed = t.changed(t.replaced(s.index, base))
            before = [c for c in checks if c.flagged and c.sentence in changed]
            _injected(t, s, "hangul", result, before, tally)
    _tables(t, tally)
    _missing_cases(t, tally)
    return tally


def _tables(t: _Text, tally: Tally) -> None:
    """Each table cell written as an article sentence after the text: true, so no flag on it; the
    same sentence with the cell's digit changed, or with another cell of its row, must be flagged."""
    found = tables.cells(t.text.text)
    step = max(1, len(found) // MAX_CELLS)
    for k, cell in enumerate(found[::step][:MAX_CELLS]):
        seed = f"{t.text.id}:table:{k}"
        before = _table(t, tables.sentence(cell), f"table:{cell.kind}", tally)
        wrong = tables.changed(cell, t.text.text, seed)
        if wrong:
            _table_error(t, "table-changed", wrong, before, tally)
    for k, row in enumerate(tables.rows(found)[:MAX_CELLS]):
        swapped = tables.swapped(row, f"{t.text.id}:swap:{k}")
        if swapped:
            cell, wrong = swapped
            before = [c for c in _appended(t, tables.sentence(cell)) if c.flagged]
            _table_error(t, "table-swapped", wrong, before, tally)


def _appended(t: _Text, sentence: str) -> list[guard.Check]:
    checks, changed = t.changed(t.text.text + "\n" + sentence)
    return [c for c in checks if c.sentence in changed]


def _table(t: _Text, sentence: str, kind: str, tally: Tally) -> list[guard.Check]:
    """A table cell written as a sentence, added after the text: true, so no flag on it."""
    flags = [c for c in _appended(t, sentence) if c.flagged]
    tally.faithful[kind] += 1
    tally.faithful_flagged[kind] += bool(flags)
    tally.contradicted[kind] += any(c.status == "contradicted" for c in flags)
    tally.suspect[kind] += _only_suspect(flags)
    _false_flags(tally, Counter((c.family, c.status) for c in flags))
    if flags:
        first = flags[0]
        tally.examples.append(
            f"false flag {kind} {t.text.id}: {sentence[:70]} [{first.text}: {first.family}]"
        )
    return flags


def _table_error(t: _Text, kind: str, sentence: str, before: list[guard.Check], tally: Tally) -> None:
    """Caught when the wrong cell adds a flag the true sentence did not have."""
    _tally_error(tally, kind, _appended(t, sentence), before, f"missed {kind} {t.text.id}: {sentence[:70]}")


def _original(t: _Text, s: guard.Sentence, tally: Tally) -> None:
    tally.originals += 1
    flags = [c for c in t.base if c.flagged and c.sentence == s.index]
    tally.originals_flagged += bool(flags)
    _false_flags(tally, Counter((c.family, c.status) for c in flags))


def _faithful(t: _Text, s: guard.Sentence, kind: str, new: str, tally: Tally) -> None:
    """A rewrite is charged with the flags it adds: the unchanged sentence's own false flags are
    counted once, as the original's, not again for every rewrite of it."""
    checks, changed = t.changed(t.replaced(s.index, new))
    flags = [c for c in checks if c.flagged and c.sentence in changed]
    added = Counter((c.family, c.status) for c in flags) - Counter(
        (c.family, c.status) for c in t.base_checks(s.index)
    )
    tally.faithful[kind] += 1
    tally.faithful_flagged[kind] += bool(added)
    tally.contradicted[kind] += bool(added) and any(c.status == "contradicted" for c in flags)
    tally.suspect[kind] += bool(added) and _only_suspect(flags)
    _false_flags(tally, added)
    if added:
        tally.examples.append(
            f"false flag {kind} {t.text.id}: {new[:70]} [{flags[0].text}: {flags[0].family}]"
        )


def _false_flags(tally: Tally, flags: Counter[tuple[str, str]]) -> None:
    for (family, status), count in flags.items():
        tally.family_fp[family] += count
        tally.family_fp_status[family, status] += count


def _only_suspect(flags: list[guard.Check]) -> bool:
    """Flagged only as suspect: the sentence would reach the verifier, not be cut by code."""
    return any(c.status == "suspect" for c in flags) and not any(c.status == "contradicted" for c in flags)


def _injected(
    t: _Text, s: guard.Sentence, kind: str, result: inject.Injection, before: list[guard.Check], tally: Tally
) -> None:
    """Caught when the error adds a flag: a flagged fact the unchanged sentence did not have flagged,
    or more flags than it had."""
    mutated, note = result
    checks, changed = t.changed(t.replaced(s.index, mutated))
    on_changed = [c for c in checks if c.sentence in changed]
    _tally_error(tally, kind, on_changed, before, f"missed {kind} {t.text.id}: {note} in {mutated[:70]}")


def _tally_error(
    tally: Tally, kind: str, on_changed: list[guard.Check], before: list[guard.Check], example: str
) -> None:
    """Caught when the error adds a flag: a flagged fact the unchanged sentence did not have flagged,
    or more flags than it had."""
    flagged = [c for c in on_changed if c.flagged]
    new = [c for c in flagged if c.text not in {b.text for b in before}]
    caught = bool(new) or len(flagged) > len(before)
    tally.injected[kind] += 1
    tally.caught[kind] += caught
    tally.family_tp.update(c.family for c in new)
    tally.family_tp_status.update((c.family, c.status) for c in new)
    if not caught:
        tally.family_let_through.update(c.family for c in on_changed if not c.flagged)
        tally.examples.append(example)


def _missing_cases(t: _Text, tally: Tally) -> None:
    text = t.text
    own = _listed(text.text, text.text, tally)
    tally.own_listed.append(len(own))
    rewritten = [_first_rewrite(t, s) for s in t.sentences]
    tally.rewritten_listed.append(len(_listed(text.text, guard.join(rewritten), tally)))
    wrapped = missing.wrap(text.text, source=text.source, day=text.date, seed=int(text.id[2:], 16))
    framed = guard.missing(release=wrapped, body=text.text)
    tally.wrapped_listed.append(len(framed))
    tally.frame_listed += len(framed)
    tally.frame_boilerplate += sum(
        missing.is_boilerplate(i.fact) or missing.is_boilerplate(i.source_text) for i in framed
    )
    lead = next((s for s in t.sentences if missing.is_lead(s.text)), None)
    dropped = [s for s in t.factual if s is not lead][: MAX_DROPPED - (lead is not None)]
    for s in ([lead] if lead else []) + dropped:
        body = guard.join([x for x in t.sentences if x.index != s.index])
        found = _listed(text.text, body, tally)
        hit = any(
            missing.names(item.fact, s.text) or missing.names(item.source_text, s.text) for item in found
        )
        tally.dropped += 1
        tally.dropped_named += hit
        tally.dropped_listed.append(len(found))
        if s is lead and missing.restated(s.text, [x.text for x in t.sentences if x.index != s.index]):
            # The text minus its lead still carries the lead's fact: listing it is no recall.
            tally.leads_restated += 1
            tally.leads_restated_named += hit
        elif s is lead:
            tally.leads += 1
            tally.leads_named += hit
            if not hit:
                tally.examples.append(f"lead not listed {text.id}: {s.text[:70]}")
                continue
        if not hit:
            tally.examples.append(f"not listed {text.id}: {s.text[:70]}")


def _first_rewrite(t: _Text, s: guard.Sentence) -> guard.Sentence:
    """The sentence in one of its faithful rewrites, the kind chosen by the seed."""
    options = rewrite.rewrites(s.text, t.context(s.index)) if is_factual(s.text) else {}
    if not options:
        return s
    kinds = sorted(options)
    kind = kinds[int(hashlib.sha256(f"{t.text.id}:{s.index}".encode()).hexdigest(), 16) % len(kinds)]
    return guard.Sentence(s.index, options[kind], s.paragraph)


def _listed(release: str, body: str, tally: Tally) -> list[guard.Listed]:
    found = guard.missing(release=release, body=body)
    for item in found:
        tally.listed += 1
        if missing.is_boilerplate(item.fact) or missing.is_boilerplate(item.source_text):
            tally.boilerplate += 1
            tally.examples.append(f"boilerplate listed: {item.fact[:70]}")
        elif missing.is_fragment(item.fact):
            tally.fragments += 1
            tally.examples.append(f"fragment listed: {item.fact[:70]}")
    return found


def evaluate(texts: list[Text]) -> dict[str, Tally]:
    """Tallies for the tuning part and the frozen part, texts in id order (deterministic)."""
    parts = {"tuning": Tally(), "frozen": Tally()}
    for text in sorted(texts, key=lambda x: x.id):
        parts[text.part].merge(evaluate_text(text))
    return parts

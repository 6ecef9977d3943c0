"""Missing key facts: the must-carry facts of a press release that an article leaves out.

Code picks the must-carry facts from the release's structure: the title (who, what), the lead
sentence, every line that states a figure with its unit (the headline figures, amounts, dates
with a year: when, the effective date), and the contact line (담당부서/문의: the agency to
call). A fact is carried when the article holds most of its figures by value, or, for a fact
without figures, when one article sentence shares most of its character bigrams (Korean 어절
inflect, so whole words would miss "편성하였다" → "편성했다"). Pure Python: no Django, no LLM.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from agents.guard import extract_facts, split_sentences
from agents.provenance import Segment, bigrams, figures, segments

MAX_LISTED = 8
# A figureless fact counts as carried when one article sentence holds this share of its bigrams.
CARRIED_OVERLAP = 0.5
CARRIED_FIGURES = 0.75  # ... and a fact with figures when the article holds this share of them
_CONTACT = re.compile(r"(담당\s*부서|담당자|문의|연락처|담당\s*:)")
_DATED = re.compile(r"(등록일|배포일|보도일|시행|발표일|\d{4}\s*[.\-년]\s*\d{1,2}\s*[.\-월])")
_BOILERPLATE = re.compile(r"(보도자료|콘텐츠 영역|데이터 요금|조회수|첨부|바로가기|보도시점|배포시점)")
_TITLE_MIN = 10
DATE_LINE_BIGRAMS = 20  # a line this short around a date is the date itself
OTHER_MIN = 15


@dataclass(frozen=True)
class KeyFact:
    fact: str
    source_text: str

    def to_json(self) -> dict[str, str]:
        return {"fact": self.fact, "source_text": self.source_text}


def unit_figures(text: str) -> frozenset[str]:
    """Values with a unit ("9.2|%"): bare numbers are list markers or years as often as facts."""
    return frozenset(f.key for f in extract_facts(text) if f.kind == "number" and not f.key.endswith("|"))


def key_facts(release: str) -> list[KeyFact]:
    """The must-carry facts of `release`, most important first: title, lead, figures, when, contact."""
    pool = [s for s in segments([release]) if not _BOILERPLATE.search(s.text) or _CONTACT.search(s.text)]
    title = next((s for s in pool if len(s.text) >= _TITLE_MIN and not _CONTACT.search(s.text)), None)
    rest = [s for s in pool if s is not title]
    lead = next((s for s in rest if s.text.endswith("다.") and len(s.text) >= 30), None)
    figured = [s for s in rest if s is not lead and unit_figures(s.text) and not _CONTACT.search(s.text)]
    dated = [s for s in rest if _DATED.search(s.text) and s not in figured and s is not lead][:1]
    contact = [s for s in rest if _CONTACT.search(s.text) and "부서" in s.text][:1] or [
        s for s in rest if _CONTACT.search(s.text)
    ][:1]
    others = [s for s in rest if s is not lead and s not in figured and len(s.text) >= OTHER_MIN]
    ordered = [s for s in (title, lead) if s is not None] + figured + dated + contact + others
    seen: set[str] = set()
    facts: list[KeyFact] = []
    for segment in ordered:
        if segment.text not in seen:
            seen.add(segment.text)
            facts.append(KeyFact(fact=_short(segment), source_text=segment.text))
    return facts


def _short(segment: Segment) -> str:
    text = segment.text.strip(" -–—·•□■○◦")
    return text if len(text) <= 80 else text[:79] + "…"


def carried(fact: KeyFact, *, sentences: Sequence[str], article_figures: frozenset[str]) -> bool:
    wanted = frozenset(key.split("|")[0] for key in unit_figures(fact.source_text))
    if wanted:
        # A long release line holds several facts that an article spreads over sentences, so the
        # figures count over the whole article; a line of many figures needs most of them.
        return len(wanted & article_figures) / len(wanted) >= CARRIED_FIGURES
    days = _days(fact.source_text)
    if days and not unit_figures(fact.source_text) and len(bigrams(fact.source_text)) <= DATE_LINE_BIGRAMS:
        # A date line ("등록일 : 2020-09-01") is carried by the article's "1일" or "9월 1일".
        return bool(days & _days("\n".join(sentences)))
    mine = bigrams(fact.source_text)
    if not mine:
        return True
    best = max((len(mine & bigrams(s)) / len(mine) for s in sentences), default=0.0)
    return best >= CARRIED_OVERLAP


def _days(text: str) -> set[str]:
    """Day numbers of a text's dates: "2020-09-01", "m:9|d:1" and "d:1" all give "1"."""
    found = set()
    for fact in extract_facts(text):
        if fact.kind == "date":
            match = re.search(r"(?:d:|\d{4}-\d{2}-)(\d{1,2})$", fact.key)
            if match:
                found.add(str(int(match.group(1))))
    return found


def missing_facts(*, release: str, headline: str, body: str, limit: int = MAX_LISTED) -> list[KeyFact]:
    """The key facts of `release` that neither the headline nor the body carries, at most `limit`."""
    sentences = [headline, *(s.text for s in split_sentences(body))]
    article_figures = figures(f"{headline}\n{body}")
    absent = [
        fact
        for fact in key_facts(release)
        if not carried(fact, sentences=sentences, article_figures=article_figures)
    ]
    return absent[:limit]

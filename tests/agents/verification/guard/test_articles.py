"""Whole articles: clean ones flag nothing, every injected mutation is flagged, and quickly."""

from __future__ import annotations

import random
import re
import time
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date

import pytest

from agents.verification.guard import (
    Fact,
    article_findings,
    extract_facts,
    find_unsupported,
    normalize_body,
    split_sentences,
)
from tests.agents.verification.guard.world import CASES, Case


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
@pytest.mark.parametrize("with_reference", [True, False])
def test_it_flags_nothing_in_a_clean_article(case: Case, with_reference: bool) -> None:
    reference = case.reference if with_reference else None
    findings = article_findings(body=case.article, sources=[case.release], reference=reference)
    assert [f.fact for f in findings if not f.supported] == []
    assert len(findings) >= 20


def _reformatted(article: str) -> Iterator[str]:
    """The same article with equal amounts written another way: every variant is still clean."""
    yield re.sub(r"(\d),(\d{3})", r"\1\2", article)
    yield re.sub(r"([억만]) 원", r"\1원", article)
    yield re.sub(r"([억만])원", r"\1 원", article)
    yield article.replace("%p", "%포인트").replace("%", "퍼센트")
    yield "\n".join(reversed(article.splitlines()))


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_it_flags_nothing_when_amounts_are_written_another_way(case: Case) -> None:
    for variant in _reformatted(case.article):
        assert find_unsupported(text=variant, sources=[case.release], reference=case.reference) == []


@dataclass(frozen=True)
class Mutation:
    kind: str
    before: str
    after: str
    article: str


def _appears(token: str, source: str) -> bool:
    """Whether the mutated token is written in the source anyway (then it is no fabrication)."""
    return re.search(rf"(?<![\d.,]){re.escape(token)}(?![\d])", source) is not None


def _around(text: str, start: int, end: int) -> tuple[int, int]:
    """The number around a position plus what follows it up to the next space: "1,200억원을"."""
    while start > 0 and (text[start - 1].isdigit() or text[start - 1] in ",."):
        start -= 1
    while end < len(text) and not text[end].isspace():
        end += 1
    return start, end


def _digit_mutations(case: Case) -> Iterator[Mutation]:
    article = case.article
    for position, char in enumerate(article):
        if not char.isdigit():
            continue
        for step in (1, 9):
            new = str((int(char) + step) % 10)
            mutated = article[:position] + new + article[position + 1 :]
            start, end = _around(mutated, position, position + 1)
            yield Mutation("digit", article[start:end], mutated[start:end], mutated)


UNIT_SWAPS = {
    "억": "조",
    "조": "억",
    "만": "억",
    "명": "건",
    "건": "명",
    "%p": "%",
    "%": "%p",
    "달러": "원",
    "원": "달러",
    "가구": "명",
    "개월": "년",
    "년": "개월",
    "t": "kg",
    "대": "명",
    "세": "명",
    "인": "명",
    "시간": "분",
}
_SWAP = re.compile("|".join(sorted(map(re.escape, UNIT_SWAPS), key=len, reverse=True)))


def _unit_mutations(case: Case) -> Iterator[Mutation]:
    for fact in _facts(case, "number"):
        start = case.article.index(fact.text)
        for match in _SWAP.finditer(fact.text):
            new_text = fact.text[: match.start()] + UNIT_SWAPS[match.group()] + fact.text[match.end() :]
            mutated = case.article[:start] + new_text + case.article[start + len(fact.text) :]
            yield Mutation("unit", fact.text, new_text, mutated)


def _date_mutations(case: Case) -> Iterator[Mutation]:
    shifts = {
        "일": lambda n: n % 28 + 1,
        "월": lambda n: n % 12 + 1,
        "년": lambda n: n + 1,
        "시": lambda n: n % 11 + 1,
    }
    for fact in _facts(case, "date"):
        start = case.article.index(fact.text)
        for match in re.finditer(r"(\d+)\s?([일월년시])", fact.text):
            number = shifts[match.group(2)](int(match.group(1)))
            new_text = fact.text[: match.start(1)] + str(number) + fact.text[match.end(1) :]
            mutated = case.article[:start] + new_text + case.article[start + len(fact.text) :]
            yield Mutation("date", fact.text, new_text, mutated)


def _quote_mutations(case: Case) -> Iterator[Mutation]:
    for fact in _facts(case, "quote"):
        start = case.article.index(fact.text)
        words = fact.text.split(" ")
        for i, word in enumerate(words):
            replacement = "반드시" if "반드시" not in word else "결코"
            opener, closer = (word[0], "") if i == 0 else ("", word[-1]) if i == len(words) - 1 else ("", "")
            new_text = " ".join([*words[:i], opener + replacement + closer, *words[i + 1 :]])
            mutated = case.article[:start] + new_text + case.article[start + len(fact.text) :]
            yield Mutation("quote", fact.text, new_text, mutated)


NEW_SENTENCES = (
    "이번 사업에는 예비비 {n}억원이 추가로 편성됐다.",
    "관련 문의는 하루 평균 {n}건 접수됐다.",
    "설명회 참석자는 {n}명이었다.",
    "이 비율은 {n}.4%로 집계됐다.",
    "후속 회의는 {m}월 {d}일 열린다.",
    "담당자는 “{n}개 과제를 연내 마무리하겠다”고 덧붙였다.",
)


def _new_sentence_mutations(case: Case) -> Iterator[Mutation]:
    lines = case.article.strip().split("\n\n")
    for p, _ in enumerate(lines):
        for t, template in enumerate(NEW_SENTENCES):
            sentence = template.format(n=37 + 11 * p + 3 * t, m=(p + t) % 12 + 1, d=23 + t)
            mutated = "\n\n".join(line + (" " + sentence if i == p else "") for i, line in enumerate(lines))
            yield Mutation("new sentence", "", sentence, mutated)


def _facts(case: Case, kind: str) -> list[Fact]:
    return [f for f in extract_facts(case.article) if f.kind == kind]


def _mutations(case: Case) -> Iterator[Mutation]:
    for mutation in (
        *_digit_mutations(case),
        *_unit_mutations(case),
        *_date_mutations(case),
        *_quote_mutations(case),
        *_new_sentence_mutations(case),
    ):
        if mutation.kind == "new sentence" or not _appears(mutation.after, case.release):
            yield mutation


def _changed_sentence(clean: str, mutated: str) -> int:
    before, after = split_sentences(clean), split_sentences(mutated)
    return next(
        a.index for b, a in zip([*before, None], after, strict=False) if b is None or a.text != b.text
    )


def _is_flagged(case: Case, mutation: Mutation, reference: date | None) -> bool:
    """Flagged means: the sentence that changed has a fact the source does not support."""
    changed = _changed_sentence(case.article, mutation.article)
    findings = article_findings(body=mutation.article, sources=[case.release], reference=reference)
    return any(f.fact.sentence == changed and not f.supported for f in findings)


def _mutation_report(reference_of: dict[str, date | None]) -> tuple[int, list[str]]:
    total, missed = 0, []
    for case in CASES:
        for mutation in _mutations(case):
            total += 1
            if not _is_flagged(case, mutation, reference_of[case.name]):
                missed.append(f"{case.name} {mutation.kind}: {mutation.before!r} → {mutation.after!r}")
    return total, missed


def test_it_flags_every_injected_mutation_without_a_reference_date() -> None:
    total, missed = _mutation_report({c.name: None for c in CASES})
    assert total >= 200
    assert missed == []


def test_it_flags_every_injected_mutation_with_the_article_date_as_reference() -> None:
    total, missed = _mutation_report({c.name: c.reference for c in CASES})
    assert total >= 200
    assert missed == []


def test_it_generates_mutations_of_every_kind() -> None:
    kinds = {m.kind for case in CASES for m in _mutations(case)}
    assert kinds == {"digit", "unit", "date", "quote", "new sentence"}


# --- speed --------------------------------------------------------------------------------------
def test_it_checks_a_1500_character_article_against_30k_characters_of_sources() -> None:
    # How fast: bench/guard_check.py prints the median (timing belongs in benchmarks, not tests).
    article = normalize_body("\n".join(c.article for c in CASES))[:1500]
    releases = "\n".join(c.release for c in CASES)
    digits = random.Random(time.time_ns())
    # Every source gets its own figures and dates, so nothing is served from a cache.
    sources = [re.sub(r"\d", lambda _: str(digits.randint(0, 9)), releases) for _ in range(17)]
    assert sum(map(len, sources)) >= 30_000
    assert len(article) >= 1400
    findings = article_findings(body=article, sources=sources, reference=date(2026, 3, 6))
    assert len(findings) >= 40

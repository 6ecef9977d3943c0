"""article_findings: every fact with its sentence, its support and its evidence."""

from __future__ import annotations

from agents.verification.guard import Fact, article_findings, extract_facts
from tests.agents.verification.guard.helpers import unsupported


def test_it_reports_every_fact_with_the_sentence_it_came_from() -> None:
    findings = article_findings(body="가 1,200억원. 나 3명.\n\n다 5월 22일.", sources=["1200억 원, 5월 22일"])
    assert [(f.fact.sentence, f.fact.text, f.supported) for f in findings] == [
        (1, "1,200억원", True),
        (2, "3명", False),
        (3, "5월 22일", True),
    ]


def test_it_gives_evidence_of_at_most_120_characters_around_the_match() -> None:
    source = "가" * 500 + " 사업비 1200억 원을 들인다. " + "나" * 500
    (finding,) = article_findings(body="사업비는 1,200억원이다.", sources=[source])
    assert finding.supported
    assert "1200억 원" in finding.evidence
    assert len(finding.evidence) <= 120


def test_it_gives_quote_evidence_from_the_original_source_text() -> None:
    source = "서두. 장관은 “규제를 풀겠다”고 말했다. 끝."
    (finding,) = article_findings(body="장관은 “규제를 풀겠다”고 했다.", sources=[source])
    assert "규제를 풀겠다" in finding.evidence


def test_it_gives_no_evidence_for_an_unsupported_fact() -> None:
    (finding,) = article_findings(body="3명이다.", sources=["4명이다."])
    assert not finding.supported
    assert finding.evidence == ""


def test_it_looks_in_every_source() -> None:
    assert unsupported("1,200억원과 850명", "1200억 원", "850명") == []


def test_it_does_not_match_a_quote_across_two_sources() -> None:
    assert unsupported("“규제를 과감히 풀겠다”", "규제를 과감히", "풀겠다") == ["“규제를 과감히 풀겠다”"]


def test_it_returns_plain_facts_with_sentence_zero() -> None:
    assert extract_facts("850명") == [Fact("number", "850명", "850|명", 0)]

"""guard.rules: every finding names its rule family, and only a precise family cuts."""

from __future__ import annotations

import re
from pathlib import Path

from agents.verification.guard import article_findings, rules

GUARD = Path(rules.__file__).parent
_FAMILY = re.compile(r"^([A-Z_]+) = \"([a-z]+:[a-z-]+|absent)\"", re.MULTILINE)
_CONFIRMING = ("confirm:", "absent")


def _families() -> dict[str, str]:
    return dict(_FAMILY.findall(Path(rules.__file__).read_text(encoding="utf-8")))


def test_every_family_that_can_cut_has_a_strength() -> None:
    cutting = {value for value in _families().values() if not value.startswith(_CONFIRMING)}
    assert cutting == set(rules.STRENGTH)


def test_every_family_the_guard_names_is_declared_in_rules() -> None:
    named = set()
    for module in GUARD.glob("*.py"):
        named |= set(re.findall(r"\brules\.([A-Z_]+)\b", module.read_text(encoding="utf-8")))
    assert named - {"STRENGTH", "THRESHOLD", "SUSPECT", "CONTRADICTED"} <= set(_families())


def test_a_family_below_the_threshold_gives_suspect_not_contradicted() -> None:
    source = "서울의 출생아는 3만명, 부산의 출생아는 1만명이다."
    (finding,) = article_findings(body="부산의 출생아는 3만명이다.", sources=[source])
    assert finding.status == rules.strength(finding.rule)
    assert finding.rule.startswith("bind:")
    assert finding.status == "suspect"


def test_a_misplaced_value_points_at_both_source_spans() -> None:
    source = "서울의 출생아는 3만명, 부산의 출생아는 1만명이다."
    (finding,) = article_findings(body="부산의 출생아는 3만명이다.", sources=[source])
    assert finding.value_at is not None
    _, start, end = finding.value_at
    assert source[start:end] == "3만명"
    assert source[finding.start : finding.end] == "1만명"


def test_every_finding_names_its_family() -> None:
    body = "서울의 출생아는 3만명이다. 5월 2일 발표했다. 부산은 7명이다."
    findings = article_findings(body=body, sources=["서울의 출생아는 3만명이다. 5월 2일 발표."])
    assert all(f.rule for f in findings)
    assert [f.rule for f in findings] == [rules.MATCH, rules.MATCH, rules.ABSENT]

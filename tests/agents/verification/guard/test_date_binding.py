"""Days bound to what happens on them: a day moved to another event is contradicted."""

from __future__ import annotations

from datetime import date

import pytest

from agents.verification.guard import article_findings

REFERENCE = date(2024, 3, 4)
EVENTS = "시는 오는 13일 신청서 접수를 시작하고, 15일에는 주민 설명회를 연다."
DEADLINE = "시는 10일까지 지침을 마련해 다음 날부터 현장에 적용할 계획이다."
PLANS = "3·1 대책은 청년 주거 지원을 늘렸고, 이후 7·10 대책은 신혼부부 대출 한도를 높였다."
NOTICES = "* 보도자료(‘2024 임금통계’, ’24.2.27) 및 누리집 공지(고시 제2024-12호, ‘24.1.10.)"


def date_statuses(article: str, source: str) -> dict[str, str]:
    findings = article_findings(body=article, sources=[source], reference=REFERENCE)
    return {f.fact.text: f.status for f in findings if f.fact.kind == "date"}


@pytest.mark.parametrize(
    ("source", "article"),
    [
        (EVENTS, "주민 설명회는 15일 열리고, 신청서 접수는 13일 시작된다."),
        (EVENTS, "시는 13일부터 신청서를 받는다. 15일에는 설명회가 열린다."),
        (DEADLINE, "지침은 10일까지 마련되고 11일부터 현장에 적용된다."),
        (PLANS, "신혼부부 대출 한도는 7·10 대책에서, 청년 주거 지원은 3·1 대책에서 나왔다."),
        (PLANS, "정부는 3·1 대책과 7·10 대책, 두 차례 대책을 냈다."),
        (NOTICES, "이 내용은 지난달 27일 ‘2024 임금통계’ 보도자료와 1월 10일 고시로 알려졌다."),
    ],
)
def test_it_confirms_each_day_stated_about_its_own_event(source: str, article: str) -> None:
    assert set(date_statuses(article, source).values()) == {"confirmed"}


@pytest.mark.parametrize(
    ("source", "article", "moved"),
    [
        (EVENTS, "시는 오는 15일 신청서 접수를 시작하고, 13일에는 주민 설명회를 연다.", "오는 15일"),
        (EVENTS, "주민 설명회는 오는 13일 열린다.", "오는 13일"),
        (DEADLINE, "시는 11일까지 지침을 마련해 10일부터 현장에 적용한다.", "10일"),
        (PLANS, "7·10 대책은 청년 주거 지원을, 3·1 대책은 신혼부부 대출 한도를 늘렸다.", "7·10"),
        (NOTICES, "이 내용은 1월 10일 ‘2024 임금통계’ 보도자료와 지난달 27일 고시로 알려졌다.", "1월 10일"),
    ],
)
def test_it_contradicts_a_day_the_source_gives_to_another_event(
    source: str, article: str, moved: str
) -> None:
    found = date_statuses(article, source)
    assert found[moved] == "suspect", found


def test_it_names_the_day_the_source_gives_the_event() -> None:
    (finding,) = article_findings(body="주민 설명회는 13일 열린다.", sources=[EVENTS], reference=REFERENCE)
    assert finding.status == "suspect"
    assert "15일" in finding.reason
    assert "15일" in finding.evidence


def test_a_day_the_source_never_states_is_not_found_rather_than_contradicted() -> None:
    (finding,) = article_findings(body="주민 설명회는 20일 열린다.", sources=[EVENTS], reference=REFERENCE)
    assert finding.status == "not_found"

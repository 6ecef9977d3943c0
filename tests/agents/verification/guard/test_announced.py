"""guard.announced: the announcement day of a lead is the release's date."""

from __future__ import annotations

from datetime import date

from tests.agents.verification.guard.helpers import unsupported

RELEASE = "해양수산부는 수출액이 30억 불을 기록했다고 밝혔다."
DAY = date(2024, 1, 8)


def test_it_confirms_the_release_date_before_an_announcing_verb() -> None:
    assert unsupported("해양수산부는 수출액이 30억 불을 기록했다고 8일 밝혔다.", RELEASE, reference=DAY) == []


def test_it_flags_another_day_or_a_day_that_announces_nothing() -> None:
    assert unsupported("해양수산부는 9일 밝혔다.", RELEASE, reference=DAY) == ["9일"]
    assert unsupported("해양수산부는 8일 수출을 시작했다.", RELEASE, reference=DAY) == ["8일"]


def test_it_leaves_the_day_to_a_release_that_states_its_own() -> None:
    stated = "해양수산부는 수출액이 30억 불이라고 7일 밝혔다."
    assert unsupported("해양수산부는 8일 밝혔다.", stated, reference=DAY) == ["8일"]

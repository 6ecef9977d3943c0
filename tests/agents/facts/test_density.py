"""The thin-input guard: material with few facts gets a shorter article, never padding."""

from __future__ import annotations

import json
from pathlib import Path
from statistics import median

from agents.facts import density
from tests.fixtures.press import PRESS_RELEASE, long_release

DATA = Path(__file__).resolve().parents[3] / "bench" / "data" / "density" / "articles.json"
NOTICE = (
    "서울 마포구는 12월 1일부터 내년 2월 28일까지 망원한강공원 야외 썰매장을 운영한다. "
    "운영 시간은 오전 10시부터 오후 5시까지이며 입장료는 2000원이다."
)


def test_the_density_table_is_the_median_of_the_stored_articles() -> None:
    rows = json.loads(DATA.read_text())
    for department, figure in density.DENSITY.items():
        values = [100 * len(r["facts"]) / r["chars"] for r in rows if r["department"] == department]
        assert len(values) >= 3 and round(median(values), 2) == figure
    assert all(row["url"].startswith("http") and row["outlet"] for row in rows)


def test_a_thin_notice_asked_for_1500_characters_gets_the_length_its_facts_support() -> None:
    advice = density.advise_length(requested=1500, material=[NOTICE], department="사회부")

    assert advice.shortened and 100 <= advice.supportable < 600
    assert advice.facts == density.distinct_facts(NOTICE)


def test_rich_material_keeps_the_requested_length() -> None:
    advice = density.advise_length(requested=1500, material=[long_release()], department="사회부")

    assert not advice.shortened and advice.supportable == 1500


def test_a_short_request_within_the_slack_is_left_alone() -> None:
    advice = density.advise_length(requested=300, material=[PRESS_RELEASE], department="경제부")

    assert not advice.shortened


def test_fewer_facts_support_fewer_characters_in_every_department() -> None:
    for department in density.DENSITY:
        thin = density.advise_length(requested=3000, material=[NOTICE], department=department)
        rich = density.advise_length(requested=3000, material=[PRESS_RELEASE], department=department)
        assert thin.supportable <= rich.supportable

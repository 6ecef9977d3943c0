"""Which style a draft is written in: reporter → publisher → department default → built-in."""

from __future__ import annotations

from typing import Any

import pytest

from styles.defaults import DEPARTMENT_GUIDES
from styles.models import WritingStyle
from styles.selectors import EXAMPLE_PROMPT_CHARS, publisher_names, style_for
from tests.factories import ReporterFactory

pytestmark = pytest.mark.django_db


def guide(lead: str) -> dict[str, Any]:
    return {
        "lead": lead,
        "structure": "리드 → 사실",
        "tone": "건조체",
        "forbidden": [],
        "length_default": "300자",
    }


def publisher_style(name: str, *, department: str = "경제부", lead: str = "", **kwargs: Any) -> WritingStyle:
    return WritingStyle.objects.create(
        scope="publisher",
        department=department,
        publisher=name,
        guide=guide(lead or f"{name} 리드"),
        **kwargs,
    )


@pytest.fixture
def reporter():
    return ReporterFactory(department="경제부")


def test_the_department_default_applies_when_nothing_else_is_chosen(reporter) -> None:
    style = style_for(department="경제부", reporter_id=reporter.pk)

    assert style.scope == "department" and style.label == "경제부 기본"
    assert style.guide.lead == DEPARTMENT_GUIDES["경제부"]["lead"]  # the seeded row


def test_a_chosen_publishers_style_beats_the_department_default(reporter) -> None:
    publisher_style("한겨레")

    style = style_for(department="경제부", reporter_id=reporter.pk, publisher="한겨레")

    assert style.scope == "publisher" and style.guide.lead == "한겨레 리드" and style.publisher == "한겨레"


def test_a_reporters_own_style_beats_the_publishers(reporter) -> None:
    publisher_style("한겨레")
    WritingStyle.objects.create(
        scope="reporter", department="경제부", reporter=reporter, guide=guide("내 리드")
    )

    style = style_for(department="경제부", reporter_id=reporter.pk, publisher="한겨레")

    assert style.scope == "reporter" and style.guide.lead == "내 리드"


def test_the_built_in_guide_applies_when_no_row_is_left(reporter) -> None:
    WritingStyle.objects.filter(department="경제부").delete()

    style = style_for(department="경제부", reporter_id=reporter.pk, publisher="한겨레")

    assert style.scope == "builtin" and style.guide.lead == DEPARTMENT_GUIDES["경제부"]["lead"]


def test_a_publishers_style_for_the_department_beats_its_style_for_all_departments(reporter) -> None:
    publisher_style("한겨레", department="", lead="공통 리드")
    publisher_style("한겨레", lead="경제부 리드")

    assert style_for(department="경제부", publisher="한겨레").guide.lead == "경제부 리드"
    assert style_for(department="사회부", publisher="한겨레").guide.lead == "공통 리드"


def test_another_publishers_or_reporters_style_is_never_used(reporter) -> None:
    publisher_style("조선일보")
    other = ReporterFactory(department="경제부")
    WritingStyle.objects.create(
        scope="reporter", department="경제부", reporter=other, guide=guide("남의 리드")
    )

    style = style_for(department="경제부", reporter_id=reporter.pk, publisher="한겨레")

    assert style.scope == "department"


def test_a_broken_row_falls_through_to_the_next_level(reporter) -> None:
    WritingStyle.objects.filter(scope="publisher").delete()
    WritingStyle.objects.bulk_create(
        [WritingStyle(scope="publisher", department="경제부", publisher="한겨레", guide={"lead": ""})]
    )

    assert style_for(department="경제부", publisher="한겨레").scope == "department"


def test_example_articles_go_into_the_prompt_block_clipped() -> None:
    publisher_style("한겨레", example_articles=["첫 예시 기사", "가" * (EXAMPLE_PROMPT_CHARS + 50)])

    block = style_for(department="경제부", publisher="한겨레").prompt_block("경제부")

    assert block.startswith('<스타일_가이드 부서="경제부" 언론사="한겨레">')
    assert '<예시_기사 번호="1">\n첫 예시 기사\n</예시_기사>' in block
    assert "가" * EXAMPLE_PROMPT_CHARS + "…" in block and "가" * (EXAMPLE_PROMPT_CHARS + 1) not in block


def test_the_curated_publishers_are_listed_once_each_in_order() -> None:
    publisher_style("한겨레")
    publisher_style("한겨레", department="사회부")
    publisher_style("경향신문")

    assert publisher_names() == ["경향신문", "한겨레"]

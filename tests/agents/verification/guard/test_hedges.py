"""guard.hedges: a figure marked as approximate is confirmed by the source figure it rounds."""

from __future__ import annotations

import pytest

from tests.agents.verification.guard.helpers import unsupported

SOURCE = "농가소득은 5082만8000원이다. 지급액은 2조5231억 원이다. 어획량은 3만5200톤이다. 비율은 23.46%다."


@pytest.mark.parametrize(
    "article",
    [
        "농가소득은 5080만원가량이다.",
        "농가소득은 약 5080만 원이다.",
        "지급액은 약 2조5200억 원이다.",
        "어획량은 3만5000여톤이다.",
        "비율은 약 23.5%다.",
    ],
)
def test_it_confirms_an_approximation_of_a_source_figure(article: str) -> None:
    assert unsupported(article, SOURCE) == []


@pytest.mark.parametrize(
    ("article", "flagged"),
    [
        ("농가소득은 5080만원이다.", ["5080만원"]),
        ("농가소득은 약 6000만원이다.", ["6000만원"]),
        ("비율은 23.5%다.", ["23.5%"]),
    ],
)
def test_it_still_flags_a_rounding_the_text_does_not_mark_or_that_is_too_coarse(
    article: str, flagged: list[str]
) -> None:
    assert unsupported(article, SOURCE) == flagged

"""Back-mapping from the model's title and numbers to one listed article."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

from agents.monitoring.mapping import map_result, match_title, normalize_title, similarity
from agents.monitoring.material import Candidate

KST = ZoneInfo("Asia/Seoul")


def listed(*titles: str) -> list[Candidate]:
    return [
        Candidate(
            title=title,
            publisher=f"언론{n}",
            description="",
            link=f"https://n.news.naver.com/{n}",
            originallink=f"https://www.yna.co.kr/{n}",
            pub_date=datetime(2026, 3, 2, 9, n, tzinfo=KST),
        )
        for n, title in enumerate(titles)
    ]


LIST = listed(
    "서울시, 지하철 요금 150원 인상 확정",
    "[단독] 경찰, 구청장 자택 압수수색",
    "한강 수상택시 운항 전면 중단…안전 점검",
)


def test_an_exact_title_wins_over_the_numbers() -> None:
    mapped = map_result(title=LIST[0].title, source_indices=[3], merged_indices=[], candidates=LIST)

    assert mapped.candidate is LIST[0] and mapped.tier == "exact" and mapped.title == LIST[0].title


def test_a_title_without_its_bracket_tag_still_matches_and_the_listed_title_is_shown() -> None:
    mapped = map_result(
        title="경찰, 구청장 자택 압수수색", source_indices=[], merged_indices=[], candidates=LIST
    )

    assert mapped.candidate is LIST[1] and mapped.tier == "normalized"
    assert mapped.title == "[단독] 경찰, 구청장 자택 압수수색"


def test_a_shortened_title_of_15_or_more_characters_matches_by_containment() -> None:
    mapped = map_result(
        title="한강 수상택시 운항 전면 중단", source_indices=[1], merged_indices=[], candidates=LIST
    )

    assert mapped.candidate is LIST[2] and mapped.tier == "contained"


def test_a_short_fragment_does_not_match_by_containment() -> None:
    assert match_title("요금 인상", LIST) == (None, "none")


def test_a_lightly_edited_title_matches_by_similarity() -> None:
    mapped = map_result(
        title="서울시 지하철요금 150원 인상 확정돼", source_indices=[], merged_indices=[], candidates=LIST
    )

    assert mapped.candidate is LIST[0] and mapped.tier == "similar"


def test_among_identical_titles_the_numbered_article_wins_then_list_order() -> None:
    twins = listed("정부, 전세사기 대책 발표", "정부, 전세사기 대책 발표")

    assert (
        map_result(title=twins[0].title, source_indices=[2], merged_indices=[], candidates=twins).candidate
        is twins[1]
    )
    assert (
        map_result(title=twins[0].title, source_indices=[], merged_indices=[], candidates=twins).candidate
        is twins[0]
    )


def test_numbers_are_used_only_when_the_numbered_title_resembles_the_models_title() -> None:
    close = map_result(
        title="지하철 요금 인상 결정, 서울 시민 부담", source_indices=[1], merged_indices=[], candidates=LIST
    )
    far = map_result(title="국회, 특별법 본회의 통과", source_indices=[1], merged_indices=[], candidates=LIST)

    assert close.candidate is LIST[0] and close.tier == "index"
    assert close.title == "지하철 요금 인상 결정, 서울 시민 부담"  # the model's title stays with its summary
    assert far.candidate is None and far.tier == "none" and far.title == "국회, 특별법 본회의 통과"


def test_out_of_range_and_repeated_numbers_are_ignored_and_sources_are_counted() -> None:
    mapped = map_result(
        title=LIST[0].title, source_indices=[1, 1, 0, 9], merged_indices=[3, 1, -2], candidates=LIST
    )

    assert mapped.source_count == 2
    assert mapped.source_urls == (LIST[0].link, LIST[2].link)


def test_normalisation_drops_tags_entities_and_extra_spaces() -> None:
    assert normalize_title("[속보]  [단독]  &quot;검찰&quot;   기소 ") == '"검찰" 기소'
    assert similarity("같은 제목", "같은 제목") == 1.0
    assert similarity("", "무엇") == 0.0

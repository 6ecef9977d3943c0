"""The must-carry facts of a press release, and those an article leaves out."""

from __future__ import annotations

from agents.facts.factatoms import clauses
from agents.facts.keyfacts import key_atoms, key_facts, missing_facts
from agents.facts.provenance import overlap
from agents.verification.guard import join_sentences, split_sentences
from tests.fixtures.press import BODY, PRESS_RELEASE

RELEASE = """보도자료
2021년 보건복지부 예산안 90조1536억 원 편성
  • 등록일 : 2020-09-01
  • 담당부서 : 재정운용담당관
보건복지부는 2021년 예산안을 2020년 대비 9.2% 증가한 90조1536억 원 편성하였다고 밝혔다.
  * 치료제·백신 개발 지원 예산 : 940억 원에서 1,314억 원
"""
ARTICLE = (
    "보건복지부가 내년 예산안을 올해보다 9.2% 늘어난 90조1536억원으로 편성했다. "
    "치료제·백신 개발 지원 예산은 940억원에서 1314억원으로 늘어난다."
)


def test_it_lists_title_lead_and_figures_but_never_the_posted_date_or_the_contact() -> None:
    facts = [f.source_text for f in key_facts(RELEASE)]
    assert facts[0] == "2021년 보건복지부 예산안 90조1536억 원"
    assert any("9.2%" in f for f in facts) and any("1,314억 원" in f for f in facts)
    assert not any("등록일" in f or "담당부서" in f for f in facts)


def test_a_faithful_article_lacks_nothing() -> None:
    assert missing_facts(release=RELEASE, headline="", body=ARTICLE) == []


FRAMED = """보도일시: 2024. 1. 2.(화) 조간
배포일시: 2024. 1. 2.(화) 10:00
(세종=연합뉴스) 홍길동 기자 = 해양수산부는 2일 수산물 수출액이 30억 달러로 역대 최대라고 밝혔다.
담당 부서: 해양수산부 수출가공진흥과  담당자: 김철수 사무관 (044-200-5431)
문의: 해양수산부 대변인실 044-200-5555, press@example.go.kr
작성일 2024-01-02  수정일 2024-01-03
ⓒ 해양수산부. 무단 전재 및 재배포 금지
"""


def test_no_frame_line_of_any_kind_is_listed_even_when_the_article_carries_nothing() -> None:
    listed = missing_facts(release=FRAMED, headline="", body="수산물 이야기.")
    assert [f.source_text for f in listed] == [
        "해양수산부는 2일 수산물 수출액이 30억 달러로 역대 최대라고 밝혔다."
    ]
    assert all(not any(w in f.fact for w in ("044", "기자", "작성일", "조간", "ⓒ")) for f in listed)


def test_each_listed_fact_is_a_clause_with_its_subject_however_the_figure_was_cut() -> None:
    release = (
        "농가소득 조사 결과\n"
        "농가소득은 2023년 첫 5000만 원대를 돌파한 이후 지난해 5059만7000원으로 전년대비 0.5% 감소했다.\n"
    )
    listed = missing_facts(release=release, headline="", body="농가소득은 2023년 5000만 원대를 돌파했다.")
    assert [f.fact for f in listed] == [
        "농가소득은 2023년 첫 5000만 원대를 돌파한 이후 지난해 5059만7000원으로 전년대비 0.5% 감소했다."
    ]


def test_at_most_five_facts_are_listed_title_and_lead_first() -> None:
    regions = zip("가나다라마바사", range(11, 18), strict=True)
    lines = [f"{region}의 인구는 {n}만 명으로 늘었다." for region, n in regions]
    release = (
        "지역 인구 현황\n통계청은 일곱 지역의 주민등록 인구 현황을 2일 발표했다고 밝혔다.\n"
        + "\n".join(lines)
    )
    listed = missing_facts(release=release, headline="", body="인구가 늘었다.")
    assert len(listed) == 5
    assert listed[0].source_text.startswith("통계청은")


def test_a_dropped_figure_sentence_is_listed_with_its_source_text() -> None:
    body = "보건복지부가 내년 예산안을 올해보다 9.2% 늘어난 90조1536억원으로 편성했다."
    missing = missing_facts(release=RELEASE, headline="", body=body)
    assert any("1,314억 원" in f.source_text for f in missing)


def test_every_dropped_sentence_of_the_fixture_article_is_reported() -> None:
    # The intact article leaves out only the eligibility clause of the release's sentence.
    intact = missing_facts(release=PRESS_RELEASE, headline="", body=BODY, limit=20)
    assert [f.source_text for f in intact] == ["지원 대상자는 소득과 재산 기준을 충족해야 하며"]
    sentences = split_sentences(BODY)
    # The first sentence repeats what the second states (2만 가구): nothing is missing without it.
    for dropped in sentences[1:]:
        body = join_sentences([s for s in sentences if s is not dropped])
        listed = missing_facts(release=PRESS_RELEASE, headline="", body=body, limit=20)
        named = [f for f in listed if f not in intact]
        assert any(
            max(overlap(dropped.text, f.source_text), overlap(f.source_text, dropped.text)) >= 0.5
            for f in named
        ), dropped.text


def test_a_line_of_two_figures_lists_only_the_one_the_article_drops() -> None:
    release = "제목 없는 자료\n취업자는 2,867만 8천명으로 전년동월대비 26만 8천명 증가했다.\n"
    body = "지난달 취업자는 1년 전보다 26만8000명 늘었다."
    assert [f.source_text for f in missing_facts(release=release, headline="", body=body)] == [
        "취업자는 2,867만 8천명으로"
    ]


def test_figures_are_read_by_value_whatever_their_spelling() -> None:
    release = "예산 편성 결과 알림\n시는 내년 예산 1,250억원을 편성했다.\n"
    for written in ("1250억 원", "1,250억원", "1천250억 원"):
        body = f"시가 내년 예산 {written}을 편성했다."
        listed = missing_facts(release=release, headline="", body=body)
        assert [f for f in listed if f.kind == "figure"] == [], written


def test_a_page_number_is_no_key_fact() -> None:
    release = (
        "2024년 12월 인구동향 브리핑 자료\n20쪽, 자연증가입니다.\n"
        "자연증가는 -12만 명으로 2020년 첫 자연감소 후 지속적으로 자연감소하였습니다.\n"
    )
    assert all("20쪽" not in f.source_text for f in key_facts(release))


def test_a_line_naming_the_press_release_is_kept_when_it_states_a_figure() -> None:
    release = "주간 홍보계획\n보도자료\n이번 주에는 총 7건의 보도자료를 제공하겠습니다.\n"
    facts = [f.source_text for f in key_facts(release)]
    assert "보도자료" not in facts
    assert any("7건" in f for f in facts)


def test_a_year_shortened_with_an_apostrophe_does_not_join_the_clauses_after_it() -> None:
    line = (
        "통계청은 국제기준(ILO, ’13.10월)에 따라 실업률을 작성하고 있으며, 고용보조지표도 작성·공표하고 있음"
    )
    assert clauses(line) == [
        "통계청은 국제기준(ILO, ’13.10월)에 따라 실업률을 작성하고 있으며",
        "고용보조지표도 작성·공표하고 있음",
    ]


def test_a_clause_the_release_joins_to_a_figure_is_a_fact_of_its_own() -> None:
    release = (
        "농촌융복합산업 기본계획 발표\n"
        "유휴시설과 경관을 활용한 경제활동도 인증제에 새로 포함하고 "
        "인증사업자를 2030년까지 4000개로 확대한다.\n"
    )
    body = "농식품부는 인증사업자를 2030년까지 4000개로 늘린다."
    listed = [f.source_text for f in missing_facts(release=release, headline="", body=body)]
    assert "유휴시설과 경관을 활용한 경제활동도 인증제에 새로 포함하고" in listed
    assert all("4000개" not in text for text in listed)


def test_a_denominator_or_one_person_as_a_kind_is_no_figure_to_carry() -> None:
    release = (
        "전국폐기물 통계조사, 1인 하루 배출량 929.9kg\n"
        "1인당 하루에 버리는 쓰레기량이 929.9kg으로 5년 전보다 10kg 감소했다.\n"
        "인구 10만 명당 시설은 3.2곳이다.\n"
    )
    figures = [f.source_text for f in key_facts(release) if f.kind == "figure"]
    assert not [f for f in figures if f.endswith(("1인", "1인당", "10만 명당"))]
    assert any(f.endswith("929.9kg") for f in figures) and any("3.2곳" in f for f in figures)


def test_a_short_news_lead_is_the_lead_and_a_lead_with_only_a_denominator_is_a_fact_of_words() -> None:
    release = (
        "올해 전국 연안 사고가 지난해보다 크게 줄었다.\n"
        "해양경찰청은 올해 연안 사고가 214건으로 지난해보다 21% 감소했다고 밝혔다.\n"
    )
    assert [a.source_text for a in key_atoms(release) if a.lead] == [
        "올해 전국 연안 사고가 지난해보다 크게 줄었다."
    ]
    per_head = (
        "지난해 인구 10만명당 화재 건수가 크게 늘었다.\n소방청은 지난해 화재가 4만 건이었다고 밝혔다.\n"
    )
    assert [a.kind for a in key_atoms(per_head) if a.lead] == ["words"]

"""Whether an article carries a fact of its press release when it words the fact its own way."""

from __future__ import annotations

from agents.facts.carried import anchors, carried_clause, carried_lead, content_words, lead_figures
from agents.facts.keyfacts import missing_facts

CONTACTS = (
    "확진 환자 접촉자 조사 결과\n"
    "현재까지 가족 등 접촉자 10명이 확인되었고, 접촉자 중 1명(지인)에서 양성으로 확인되었다.\n"
)


def _figures(release: str, body: str) -> list[str]:
    return [
        f.source_text for f in missing_facts(release=release, headline="", body=body) if f.kind == "figure"
    ]


def test_a_small_figure_is_carried_in_a_sentence_that_holds_the_words_before_it() -> None:
    body = "가족 등 접촉자 10명을 자가격리하고 조사한 결과 이 가운데 지인 1명이 양성으로 확인됐다."
    assert _figures(CONTACTS, body) == []


def test_a_small_figure_about_something_else_is_still_missing() -> None:
    body = "가족 등 접촉자 10명을 자가격리했다. 역학조사관 1명이 현장에 파견됐다."
    assert _figures(CONTACTS, body) == ["접촉자 중 1명"]


def test_a_rank_is_carried_by_the_same_ordinal() -> None:
    release = "수산물 수출 동향 발표\n김은 수출 2위 품목이다.\n"
    assert _figures(release, "김은 두 번째로 수출이 많은 품목이다.") == []
    assert _figures(release, "김은 세 번째로 수출이 많은 품목이다.") == ["김은 수출 2위"]


def test_a_clause_is_carried_where_one_sentence_holds_its_date_and_its_words() -> None:
    clause = "감귤 산업의 새로운 미래를 열어갈 ‘미래향’ 품종의 현장 평가회를 13일 개최한다는 소식입니다."
    assert carried_clause(clause, sentences=["13일에는 ‘미래향’ 품종 평가회가 열린다."])
    assert not carried_clause(clause, sentences=["14일에는 ‘미래향’ 품종 평가회가 열린다."])


def test_a_shared_date_alone_does_not_carry_a_clause() -> None:
    clause = "감귤 산업의 새로운 미래를 열어갈 ‘미래향’ 품종의 현장 평가회를 13일 개최한다."
    assert not carried_clause(clause, sentences=["13일에는 딸기 육묘 기술 평가회가 열린다."])


def test_the_short_name_a_release_defines_stands_for_the_long_one() -> None:
    clause = "중앙재난안전대책본부(이하 ‘중대본’)는 이들 집단을 대상으로 방역관리자를 지정하고"
    assert content_words(clause)[:2] == ["중대본", "이들"]
    assert carried_clause(
        clause, sentences=["중대본은 이들 집단에 방역관리자를 지정하고 비상연락체계를 구축한다."]
    )


def test_a_release_lead_restated_by_the_article_opening_is_carried_only_there() -> None:
    lead = (
        "[한국방송/허정태기자] 비어있는 상가나 오피스를 임대주택으로 용도를 변경하는 경우 관련 규제가 "
        "완화돼 전환이 쉬워질 전망이다."
    )
    opening = "민간사업자가 빈 오피스나 상가를 임대주택으로 바꿀 때 적용되는 주택건설 규제가 완화된다."
    assert not carried_clause(lead, sentences=[opening])
    assert carried_clause(lead, sentences=[opening], opening=[opening])


def test_dates_are_compared_by_their_day_and_words_like_today_identify_nothing() -> None:
    assert anchors("12월 13일 평가회") == anchors("오는 13일 평가회")
    assert anchors("오늘 발표한 내용") == frozenset()


def test_a_rate_in_brackets_is_carried_with_the_figure_it_qualifies() -> None:
    release = "사업체노동력조사 결과\n증가한 산업은 사회복지 서비스업(+97천명, +4.3%), 도매업(+16천명) 순\n"
    body = "산업별로는 사회복지 서비스업(9만7000명), 도매업(1만6000명) 순으로 종사자가 늘었다."
    assert _figures(release, body) == []
    # without the main figure the rate is missing with it
    body = "산업별로는 도매업(1만6000명)에서 종사자가 늘었다."
    assert any("서비스업(+97천명, +4.3%" in f for f in _figures(release, body))


CLIMATE = "여름철 기후분석 결과\n- 평균기온 24.7 ℃ 역대 4위, 강수량 1018.5 mm 5위\n"


def test_a_record_rank_is_carried_where_the_next_sentence_gives_it_for_the_same_subject() -> None:
    body = (
        "평균기온이 24.7도로 높았다. 이는 1973년 이래 4번째로 높은 기록이다. "
        "최저기온은 21.1도로 역대 2위였다. 강수량은 1018.5㎜로 역대 5위였다."
    )
    assert _figures(CLIMATE, body) == []


def test_a_record_rank_the_article_gives_otherwise_is_still_missing() -> None:
    body = "평균기온이 24.7도로 높았다. 이는 1973년 이래 3번째로 높은 기록이다. 강수량은 1018.5㎜로 5위였다."
    assert _figures(CLIMATE, body) == ["역대 4위"]


def test_a_lead_that_states_a_record_is_carried_only_where_the_record_is_stated() -> None:
    lead = "올해 상반기 국내 특허 등록 건수가 역대 최대를 기록했다."
    detail = "상반기 국내 특허 등록 건수는 9만1200건으로 지난해 같은 기간보다 12.5% 늘었다."
    assert not carried_lead(lead, sentences=[detail], opening=[detail])
    record = "상반기 국내 특허 등록 건수는 9만1200건으로 관련 통계 작성 이후 가장 많았다."
    assert carried_lead(lead, sentences=[record], opening=[record])


def test_the_figures_a_lead_must_keep_are_its_own_not_a_date_or_a_denominator() -> None:
    lead = "환경부는 2024년 1월 1인당 하루 소음 노출 시간이 5.2시간으로 줄었다고 밝혔다."
    assert lead_figures(lead) == frozenset({"5.2|시간"})

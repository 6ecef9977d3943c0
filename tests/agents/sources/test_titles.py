from __future__ import annotations

import pytest

from agents.sources.titles import CHECK_SKIP_TAGS, is_exclusive, is_skipped_for_check

EXCLUSIVE_TITLES = [
    "[단독] 삼성전자, 美 파운드리 공장 추가 증설 검토",
    "(단독) 검찰, 전 장관 이번 주 소환 통보",
    "단독: 국토부, 수도권 신도시 추가 지정",
    "단독 : 한은, 기준금리 동결 가닥",
    "【단독】 차기 금융위원장 후보 2명으로 압축",
    "<단독> 대기업 총수들 내달 비공개 회동",
    "〈단독〉 경찰, 전세 사기 조직 총책 검거",
    "《단독》 교육부 의대 증원 규모 재검토",
    "「단독」 공정위, 플랫폼 3사 현장 조사",
    "［단독］ 전각 괄호로 쓴 단독 표시",
    "[속보·단독] 검찰, 국회의원 사무실 압수수색",
    "[단독·속보] 국방부 장관 사의 표명",
    "[속보ㆍ단독] 가운뎃점 변형도 단독",
    "[단독/인터뷰] 주무 장관 첫 입장",
    "[단독 인터뷰] 이 장관 \u201c증원 철회 없다\u201d",
    "[단독인터뷰] 노벨상 수상자를 만나다",
    "[영상][단독] 사고 직전 블랙박스 입수",
    "[속보] 단독: 정부, 추경 편성 검토",
    "경제 [단독] 제목 가운데 붙은 단독 표시",
    "&lt;단독&gt; 엔티티가 풀리지 않은 제목",
    "[Exclusive] Samsung weighs new Texas fab",
    "[EXCLUSIVE] Hyundai in talks with battery maker",
    "(exclusive) Korea Zinc board fight escalates",
    "Exclusive: Naver plans AI spin-off",
    "[단독] 단독주택 공시가격 급등… 정부 보정 검토",
]

ORDINARY_TITLES = [
    "단독주택 공시가격 5% 상승",
    "[단독주택] 매매 거래 석 달째 증가",
    "혼자 떠나는 단독 여행, MZ세대가 늘었다",
    "여행사들, 일본 단독 패키지 잇따라 출시",
    "아이유, 데뷔 15주년 단독 콘서트 개최",
    "[단독 콘서트] 가수 김모씨 전국 투어",
    "여당, 예산안 단독으로 처리",
    "(단독으로) 처리한 법안 논란",
    "김효주, 3라운드 단독 선두",
    "(단독 선두) 임성재 마스터스 2라운드",
    "[골프] 고진영 단독 선두로 도약",
    "야당 단독 처리 법안에 거부권 행사",
    "국회 상임위, 야당 단독 의결",
    "경찰 \u201c단독 범행으로 결론\u201d",
    "서울 단독·다가구 주택 거래 증가",
    "장관, 단독 인터뷰 요청 거절",
    "[포토] 단독 콘서트 연 가수",
    "독점 판매 계약 체결",
    "Exclusive interview series launches next week",
    "Samsung's exclusive deal with Nvidia, explained",
]


@pytest.mark.parametrize("title", EXCLUSIVE_TITLES)
def test_an_exclusive_tag_is_recognised(title: str) -> None:
    assert is_exclusive(title) is True


@pytest.mark.parametrize("title", ORDINARY_TITLES)
def test_the_word_danddok_in_ordinary_use_is_not_an_exclusive(title: str) -> None:
    assert is_exclusive(title) is False


def test_the_lists_are_big_enough_to_mean_something() -> None:
    assert len(EXCLUSIVE_TITLES) >= 15 and len(ORDINARY_TITLES) >= 15


def test_the_check_skip_list_is_v1s_seven_tags_in_order() -> None:
    assert CHECK_SKIP_TAGS == (
        "[포토]",
        "[사진]",
        "[영상]",
        "[동영상]",
        "[화보]",
        "[카드뉴스]",
        "[인포그래픽]",
    )


@pytest.mark.parametrize("tag", CHECK_SKIP_TAGS)
def test_a_title_with_a_skip_tag_at_the_start_is_skipped(tag: str) -> None:
    assert is_skipped_for_check(f"{tag} 국회 본회의장 풍경") is True


@pytest.mark.parametrize("tag", CHECK_SKIP_TAGS)
def test_a_skip_tag_anywhere_in_the_title_counts(tag: str) -> None:
    assert is_skipped_for_check(f"국회 본회의장 풍경 {tag}") is True
    assert is_skipped_for_check(f"[속보]{tag}국회 본회의장") is True


@pytest.mark.parametrize(
    "title",
    [
        "국회 본회의 예산안 통과",
        "[단독] 검찰, 압수수색",
        "[속보] 환율 1,400원 돌파",
        "(포토) 괄호가 다르면 v1 목록이 아니다",
        "【포토】 전각 괄호도 v1 목록이 아니다",
        "[포토뉴스] 다른 태그는 건너뛰지 않는다",
        "[사진작가] 이름이 비슷해도 다르다",
        "포토 사진 영상 같은 단어만 있는 제목",
        "[ 포토 ] 공백이 들어가면 다른 문자열",
    ],
)
def test_titles_without_an_exact_skip_tag_are_kept(title: str) -> None:
    assert is_skipped_for_check(title) is False

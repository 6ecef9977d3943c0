"""v1's DEPARTMENT_PROFILES: what each desk covers, what makes a story matter, what /report searches.

`coverage` and `report_keywords` are v1's data verbatim. `criteria`
restate v1's inclusion rules in our own Korean words; they go into the `filter_news` pre-filter
prompt only (v1 kept them out of the analysis prompts, and so do we). The department names are
`styles.departments.DEPARTMENTS`, the one list every app uses; a test checks the two agree.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class DepartmentProfile:
    name: str
    coverage: str
    criteria: tuple[str, ...]
    report_keywords: tuple[str, ...]


_PROFILES = (
    DepartmentProfile(
        name="사회부",
        coverage=(
            "사건·사고, 경찰·검찰 수사, 법원 재판, 인권, 재난·안전, 교육, 노동, 환경, 지방자치, "
            "부동산·주거 (시민 생활 영향), 의료·보건·복지, 인구·저출생·고령화, 소비자·생활경제"
        ),
        criteria=(
            "수사·사법 절차가 공식적으로 진행된 기사: 체포, 구속, 기소, 영장 청구나 기각, 판결 선고",
            "사상자가 많거나 사회적 관심이 큰 대형 사건·사고",
            "사건의 국면이 바뀐 기사: 소환에서 구속으로, 수사에서 기소로, 1심에서 항소심으로",
            "여러 언론이 다루고 여론이 움직여 후속 보도가 이어질 가능성이 큰 사안",
            "주거·인구·보건·복지처럼 시민 생활에 바로 닿는 구조적 문제를 다룬 정책 발표나 공식 통계",
        ),
        report_keywords=(
            "경찰 수사",
            "검찰 기소",
            "법원 판결",
            "사건사고",
            "재난 안전",
            "교육 정책",
            "노동 노사",
            "부동산 정책",
            "의료 보건",
            "복지 정책",
            "인권 차별",
            "환경 기후",
            "저출생 고령화",
        ),
    ),
    DepartmentProfile(
        name="정치부",
        coverage=(
            "국회 입법, 정당 동향, 대통령실·행정부, 선거, 외교·안보, 남북관계, 헌법재판소, "
            "검찰·법무 (정치적 측면), 여론·정치 지형 변화"
        ),
        criteria=(
            "입법 절차가 움직인 기사: 법안 발의·통과·부결, 상임위 의결, 본회의 표결",
            "행정부의 결정: 대통령 발언이나 지시, 국무회의 의결, 장관급 인사",
            "정당의 공식 움직임: 지도부 교체, 노선 변경, 공천이나 징계 같은 공식 결정",
            "외교·안보: 정상회담, 조약이나 협정, 북한에 대한 공식 조치",
        ),
        report_keywords=(
            "국회",
            "대통령실",
            "여당",
            "야당",
            "외교",
            "헌법재판소",
            "선거",
            "국무회의",
            "정당",
            "남북관계",
            "안보 국방",
            "법무부 검찰",
        ),
    ),
    DepartmentProfile(
        name="경제부",
        coverage=(
            "거시경제, 금융·통화 정책, 부동산, 세제·재정, 금융감독, 가계·소비 지표, 가상자산·핀테크, "
            "국제경제 (Fed 등 국내 파급력 있는 해외 이슈), 물가·생활경제"
        ),
        criteria=(
            "정책 결정: 기준금리 변경, 세제 개편, 부동산 규제, 재정 정책",
            "핵심 공식 지표 발표: GDP, 물가, 고용, 무역, 가계부채",
            "금융 현안: 금융회사 제재, 시장 급변, 의미 있는 환율·주가 움직임",
            "규제·감독: 공정위 제재, 금감원 조치, 대규모 과징금",
            "국내에 직접 파급되는 국제경제: 주요국 중앙은행 결정, 세계 경제 지표",
        ),
        report_keywords=(
            "기준금리",
            "부동산 규제",
            "물가 상승",
            "수출 실적",
            "금융 정책",
            "환율",
            "가계부채",
            "GDP",
            "세제 개편",
            "가상자산 코인",
            "공정위 금감원",
            "고용 실업",
            "미국 연준",
        ),
    ),
    DepartmentProfile(
        name="산업부",
        coverage=(
            "삼성·LG·SK·현대·롯데·한화·포스코·GS 등 주요 대기업 그룹, 중소·중견기업, 통신(SKT·KT·LGU+), "
            "에너지·전력, 유통·물류(쿠팡·신세계·CJ 등), 건설·인프라, ESG·탄소중립, 통상·무역"
        ),
        criteria=(
            "대기업 그룹 차원의 결정: 인수합병, 조 단위 투자, 사업 진출이나 철수, 총수·경영진 인사",
            "산업 정책: 정부 지원책, 규제 변화, 통상·관세 조치, FTA",
            "시장 구조 변화: 상위 업체 순위 변동, 공급망 재편, 대형 수주나 계약",
            "에너지·인프라: 전력·가스 수급 문제, 대형 건설 사업, 물류 재편",
        ),
        report_keywords=(
            "삼성그룹",
            "LG그룹",
            "SK그룹",
            "현대차그룹",
            "롯데 한화 포스코",
            "SKT KT 통신",
            "에너지 전력",
            "유통 쿠팡 신세계",
            "건설 인프라",
            "탄소중립 ESG",
            "통상 관세 FTA",
            "물류 CJ",
        ),
    ),
    DepartmentProfile(
        name="테크부",
        coverage=(
            "반도체·디스플레이(삼성전자·SK하이닉스), 배터리·2차전지(LG에너지솔루션·삼성SDI·SK온), "
            "자동차·모빌리티(현대차·기아), AI·로봇, 바이오·제약, 스타트업·벤처, 핀테크, "
            "클라우드·데이터센터"
        ),
        criteria=(
            "기술 패권의 변화: 반도체·AI·배터리 글로벌 경쟁, 수출 통제나 제재, 핵심 기술 확보",
            "주요 기업의 결정: 인수합병, 대규모 설비 투자, 사업 진출이나 철수, 대형 계약",
            "혁신: 판을 바꾸는 제품, 주요 특허 분쟁, 표준 경쟁",
            "스타트업: 1,000억원 이상 투자 유치, 상장, 대형 인수합병, 주요 서비스 출시나 종료",
            "바이오: 글로벌 임상 3상 결과, FDA·EMA 승인, 대형 기술수출이나 위탁생산 계약",
        ),
        report_keywords=(
            "삼성전자 반도체",
            "SK하이닉스",
            "LG에너지솔루션 배터리",
            "현대차 기아",
            "AI 인공지능",
            "바이오 신약",
            "스타트업 투자",
            "로봇",
            "클라우드 데이터센터",
            "자율주행 모빌리티",
            "2차전지",
            "핀테크",
        ),
    ),
    DepartmentProfile(
        name="문화부",
        coverage=(
            "문화·예술, 방송·미디어, 연예, 출판, 관광, 종교, 교육 정책, 문화재, 게임, 웹툰·웹소설, "
            "한류·글로벌 콘텐츠, OTT·플랫폼"
        ),
        criteria=(
            "수상과 선정: 국제 영화제, 문학상, 유네스코 등재",
            "정책과 제도: 문화 관련 법안이나 정책, 교육과정 개편, 방송 규제",
            "산업 현안: 대형 흥행작이나 논란, 플랫폼 정책 변경, 저작권 분쟁",
            "공적 관심사: 유명인에 대한 기소·판결 같은 공식 조치, 파장이 큰 논란",
        ),
        report_keywords=(
            "영화 흥행",
            "드라마",
            "방송",
            "출판",
            "관광",
            "게임",
            "웹툰",
            "OTT",
            "한류",
            "K팝 아이돌",
            "문화재",
            "문화 정책",
        ),
    ),
    DepartmentProfile(
        name="스포츠부",
        coverage="프로 스포츠(야구·축구·농구·배구), 국제 대회, 올림픽, e스포츠, 체육 행정",
        criteria=(
            "경기 결과: 우승이나 준우승, 기록 달성, 매직넘버처럼 시즌 판도가 갈리는 순간",
            "선수 이동: FA, 트레이드·이적, 은퇴, 주전 부상, 징계",
            "대회: 올림픽·월드컵·아시안게임에 관한 공식 결정, 개최지 선정",
            "체육 행정: 연맹·협회의 공식 결정, 승부조작이나 도핑 징계",
        ),
        report_keywords=(
            "프로야구",
            "축구 대표팀",
            "올림픽",
            "FA 이적",
            "체육 행정",
            "프로축구",
            "프로농구",
            "프로배구",
            "e스포츠",
            "월드컵",
            "아시안게임",
        ),
    ),
    DepartmentProfile(
        name="국제부",
        coverage=(
            "국제 정치·외교, 글로벌 경제·통상, 주요국 정책(미국·중국·유럽·일본), 국제 분쟁·안보, "
            "글로벌 테크·산업, 국제기구(UN·WHO·IMF 등), 글로벌 문화·사회"
        ),
        criteria=(
            "강대국의 정책: 미국·중국·EU·일본 정상의 발언, 행정명령, 입법 결정",
            "분쟁과 안보: 전쟁, 무력 충돌, 제재, 동맹 관계 변화",
            "세계 경제: 주요 지표, 중앙은행 결정, 무역 분쟁과 관세",
            "한국에 영향이 있는 글로벌 테크: 빅테크 규제, AI 정책, 반도체 수출 통제",
            "국제기구: UN·WHO·IMF의 공식 결정이나 주요 보고서",
        ),
        report_keywords=(
            "미국 트럼프",
            "중국 시진핑",
            "EU 유럽",
            "우크라이나",
            "중동",
            "일본",
            "글로벌 경제",
            "국제 무역",
            "NATO",
            "UN 유엔",
            "워싱턴",
            "빅테크 규제",
        ),
    ),
)

DEPARTMENT_PROFILES: dict[str, DepartmentProfile] = {profile.name: profile for profile in _PROFILES}


def profile_for(department: str) -> DepartmentProfile | None:
    """The profile of a canonical department name ("사회부"), or None for an unknown one."""
    return DEPARTMENT_PROFILES.get(department)

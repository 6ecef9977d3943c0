"""The curated list of common Korean newspaper faults, seeded into `LintRule` by a data migration.

Sources of the list: the National Institute of Korean Language's refined words (다듬은 말) for
foreign words, and the usual desk guidance on translationese (번역투), double passives and
unsourced hearsay. Editors extend and mute rules in the admin; this file is only the seed.
"""

from __future__ import annotations

from typing import Any

# Not preceded by a Hangul/Latin letter: "케어" must not fire inside "헬스케어".
_START = r"(?<![가-힣A-Za-z])"

_DOUBLE_PASSIVE = [
    ("되어진", "된"),
    ("되어졌", "됐"),
    ("되어져", "돼"),
    ("되어질", "될"),
    ("되어지", "되"),
    ("보여진", "보인"),
    ("보여졌", "보였"),
    ("보여질", "보일"),
    ("보여지", "보이"),
    ("잊혀진", "잊힌"),
    ("잊혀졌", "잊혔"),
    ("잊혀지", "잊히"),
    ("쓰여진", "쓰인"),
    ("쓰여졌", "쓰였"),
    ("쓰여지", "쓰이"),
    ("불려진", "불린"),
    ("불려졌", "불렸"),
    ("불려지", "불리"),
    ("믿겨진", "믿긴"),
    ("믿겨지", "믿기"),
    ("나뉘어진", "나뉜"),
    ("나뉘어졌", "나뉘었"),
    ("나뉘어지", "나뉘"),
]

# (foreign word, refined Korean word); only words with a settled refined form that reads
# naturally in a news sentence. Widely naturalised words (플랫폼, 인프라, 콘텐츠) are left out.
_FOREIGN = [
    ("니즈", "요구"),
    ("마인드", "마음가짐"),
    ("솔루션", "해법"),
    ("리스크", "위험"),
    ("이슈", "쟁점"),
    ("로드맵", "이행안"),
    ("거버넌스", "협치"),
    ("가이드라인", "지침"),
    ("매뉴얼", "지침서"),
    ("프로세스", "절차"),
    ("태스크포스", "전담 조직"),
    ("테스크포스", "전담 조직"),
    ("어젠다", "의제"),
    ("아젠다", "의제"),
    ("벤치마킹", "본따르기"),
    ("패러다임", "틀"),
    ("시너지", "상승효과"),
    ("힐링", "치유"),
    ("팩트", "사실"),
    ("론칭", "출시"),
    ("런칭", "출시"),
    ("핫플레이스", "명소"),
    ("랜드마크", "상징물"),
    ("케어", "돌봄"),
    ("웰빙", "참살이"),
    ("모니터링", "점검"),
    ("업그레이드", "개선"),
    ("트렌드", "흐름"),
    ("컨트롤타워", "사령탑"),
    ("데드라인", "마감"),
    ("언택트", "비대면"),
    ("뉴노멀", "새 기준"),
    ("테스트베드", "시험대"),
    ("바우처", "이용권"),
    ("핫라인", "직통 전화"),
    ("미스매치", "불일치"),
    ("노하우", "비결"),
    ("매칭", "연결"),
    ("인센티브", "유인책"),
    ("컨설팅", "자문"),
    ("스펙", "이력"),
]

_SUBJECTIVE = r"충격적|역대급|경악|대박|어마어마|엄청난|파격적|획기적|아찔한|황당한|발칵"
_SOURCE_NAMED = r"따르면|밝혔|관계자|측은|측이|말했|전했|설명했|발표|보도|주장했|알렸"

CURATED_RULES: list[dict[str, Any]] = [
    *(
        {
            "name": "이중 피동",
            "pattern": wrong,
            "replacement": right,
            "suggestion": f"이중 피동: '{wrong}' → '{right}'",
        }
        for wrong, right in _DOUBLE_PASSIVE
    ),
    {
        "name": "번역투",
        "pattern": r"에 의해서?",
        "suggestion": (
            "행위자를 주어로 살려 능동문으로 쓰거나 '~에 따라'로 바꾸세요 (A에 의해 발표됐다 → A가 발표했다)"
        ),
    },
    {
        "name": "번역투",
        "pattern": r"[을를] 통해서?",
        "min_count": 3,
        "suggestion": "'~을 통해'가 잦습니다: '~로', '~에서', '~을 거쳐'로 바꾸세요",
    },
    {
        "name": "번역투",
        "pattern": r"(?:에|에게) 있어서?(?=[\s,])",
        "suggestion": "'~에 있어서'는 일본어투: '~에서', '~에게'로 바꾸세요",
    },
    {
        "name": "번역투",
        "pattern": r"[을를] 필요로 (?:하|한)",
        "suggestion": "'~을 필요로 하다' → '~이 필요하다'",
    },
    {
        "name": "번역투",
        "pattern": (
            r"(?:회의|회견|간담회|토론회|설명회|행사|모임|협의|면담|회담|회동)[을를] 가(?:졌|진|지|질|져)"
        ),
        "suggestion": "'회의를 가졌다' → '회의를 열었다', '회담했다'",
    },
    {
        "name": "번역투",
        "pattern": r"(?:검토|조사|준비|협의|논의|추진|수사|개발|점검) ?중에 있",
        "suggestion": "'~ 중에 있다' → '~ 중이다', '~하고 있다'",
    },
    {
        "name": "번역투",
        "pattern": r"에 위치한",
        "replacement": "에 있는",
        "suggestion": "'~에 위치한' → '~에 있는'",
    },
    {
        "name": "번역투",
        "pattern": r"에 다름 아니",
        "suggestion": "'~에 다름 아니다' → '~와 다름없다'",
    },
    {
        "name": "출처 없는 전언",
        "pattern": r"(?:것으로|걸로) (?:알려|전해)(?:졌|진|져)",
        "unless": _SOURCE_NAMED,
        "suggestion": "누가 알렸는지 출처를 밝히세요 (○○에 따르면 ~했다)",
    },
    {
        "name": "기자 주관어",
        "pattern": _SUBJECTIVE,
        "skip_in_quotes": True,
        "suggestion": "기자의 평가어입니다: 빼고 수치·비교로 사실을 보여 주세요 (인용이면 따옴표로)",
    },
    {
        "name": "중복 표현",
        "pattern": r"가장 (최[고대초저악상단])",
        "replacement": r"\1",
        "suggestion": "'가장 최고' → '최고' ('최'에 이미 '가장'이 있습니다)",
    },
    {
        "name": "중복 표현",
        "pattern": r"약 ?(\d[\d,.]*\s?(?:[만억천조]?\s?[가-힣%]{0,2}))\s?(?:가량|정도)",
        "replacement": r"약 \1",
        "suggestion": "'약 ~가량'은 겹말: '약'이나 '가량' 하나만",
    },
    {
        "name": "중복 표현",
        "pattern": r"과반수 이상",
        "replacement": "과반수",
        "suggestion": "'과반수 이상' → '과반수'",
    },
    {
        "name": "중복 표현",
        "pattern": r"미리 예약",
        "replacement": "예약",
        "suggestion": "'미리 예약' → '예약'",
    },
    {
        "name": "중복 표현",
        "pattern": r"다시 재개",
        "replacement": "재개",
        "suggestion": "'다시 재개' → '재개'",
    },
    {
        "name": "중복 표현",
        "pattern": r"남은 여생",
        "replacement": "여생",
        "suggestion": "'남은 여생' → '여생'",
    },
    *(
        {
            "name": "불필요한 외래어",
            "pattern": _START + foreign,
            "replacement": korean,
            "skip_in_quotes": True,
            "suggestion": f"'{foreign}' → '{korean}'",
        }
        for foreign, korean in _FOREIGN
    ),
]

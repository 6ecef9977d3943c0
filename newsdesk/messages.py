"""Reporter-facing sentences of the faces (web, API, commands), in one place."""

from __future__ import annotations

KEY_FORMAT = "Anthropic API 키 형식이 아닙니다. 'sk-'로 시작하는 키를 넣어 주세요."
KEYWORDS_EMPTY = "키워드를 하나 이상 입력해 주세요. 쉼표로 구분합니다. 예) 서부지검, 서부지법, 영등포경찰서"
KEYWORDS_TOO_MANY = "키워드는 {limit}개까지 등록할 수 있습니다."
KEYWORD_TOO_LONG = "키워드는 하나에 {limit}자까지 쓸 수 있습니다: {keyword}"
UNKNOWN_DEPARTMENT = (
    "알 수 없는 부서입니다. 사회부, 정치부, 경제부, 산업부, 테크부, 문화부, 스포츠부, 국제부 중에서 고르세요."
)
NOT_A_REPORTER = "기자 프로필이 없는 계정입니다. 관리자에게 `manage.py createreporter`로 등록을 요청하세요."
BAD_JSON = "요청 본문이 올바른 JSON이 아닙니다."
BAD_REQUEST = "요청 형식이 올바르지 않습니다."
NOT_FOUND = "찾을 수 없습니다."

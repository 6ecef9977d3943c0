"""Reporter-facing sentences of the faces (web, API, commands), in one place."""

from __future__ import annotations

KEY_FORMAT = "Anthropic API 키 형식이 아닙니다. 'sk-'로 시작하는 키를 넣어 주세요."
KEYWORDS_EMPTY = "키워드를 하나 이상 입력해 주세요. 쉼표로 구분합니다. 예) 서부지검, 서부지법, 영등포경찰서"
KEYWORDS_TOO_MANY = "키워드는 {limit}개까지 등록할 수 있습니다."
KEYWORD_TOO_LONG = "키워드는 하나에 {limit}자까지 쓸 수 있습니다: {keyword}"
UNKNOWN_DEPARTMENT = (
    "알 수 없는 부서입니다. 사회부, 정치부, 경제부, 산업부, 테크부, 문화부, 스포츠부, 국제부 중에서 고르세요."
)
UNKNOWN_MODEL = "고를 수 없는 모델입니다: {model}. 다음 중에서 고르세요: {choices}"
UNKNOWN_PUBLISHER_STYLE = "스타일이 등록되지 않은 언론사입니다: {name}. 다음 중에서 고르세요: {choices}"
NO_PUBLISHER_STYLES = "(편집자가 등록한 언론사 스타일이 아직 없습니다)"
NOT_A_REPORTER = "기자 프로필이 없는 계정입니다. 관리자에게 `manage.py createreporter`로 등록을 요청하세요."
BAD_JSON = "요청 본문이 올바른 JSON이 아닙니다."
BAD_REQUEST = "요청 형식이 올바르지 않습니다."
BODY_TOO_LARGE = "요청 본문이 너무 큽니다. 보도자료는 파일로 올리거나 나눠서 보내 주세요."
BAD_REFERENCE_DATE = "reference_date는 2026-03-05처럼 YYYY-MM-DD 형식의 실제 날짜로 적어 주세요."
NOT_FOUND = "찾을 수 없습니다."
SERVICE_UNAVAILABLE = (
    "서버가 잠시 데이터베이스에 연결하지 못해 요청을 저장하지 못했습니다. 잠시 후 다시 시도해 주세요."
)

# --- the web desk ------------------------------------------------------------------------------
DESK_STAGE_EDIT = "수정 작성"
DESK_LENGTH_NOT_NUMBER = "분량은 숫자로 적어 주세요."
DESK_LENGTH_CUSTOM_MISSING = "직접 입력을 고르셨다면 분량을 숫자로 적어 주세요."
DESK_FILE_TYPE = "PDF, DOCX, TXT 파일이나 사진(JPG·PNG·HEIC)만 올릴 수 있습니다."
DESK_FILE_AND_PHOTO = "파일과 사진 중 하나만 올려 주세요."
# Beside the photo field, before the OCR warning itself (services.OCR_CAUTION), which the draft
# shows again once the photo is read.
DESK_PHOTO_NOTE = "사진은 글자 인식(OCR)으로 읽습니다."
DESK_FILE_AGAIN = "보안상 파일은 다시 선택해야 합니다."
# A queue whose worker was running and is gone (newsdesk.workers): said at once, not after a wait.
DESK_WORKER_STOPPED = {
    "io": "지금은 파일을 읽는 작업자가 멈춰 있어 올린 파일을 바로 읽지 못합니다. 보도자료를 붙여 넣으면 "
    "평소대로 쓸 수 있고, 올린 파일은 저장되어 작업자가 돌아오면 처리됩니다.",
    "llm": "지금은 기사를 쓰는 작업자가 멈춰 있습니다. 요청은 저장되어 작업자가 돌아오면 이어서 처리됩니다. "
    "운영자에게 알려 주세요.",
}
DESK_FILE_PENDING = "파일을 읽는 데 시간이 걸리고 있습니다. 잠시 후 다시 시도하거나 내용을 붙여 넣어 주세요."
DESK_KEY_TEST_OK = "키가 정상적으로 응답했습니다."
DESK_KEY_TEST_NONE = "등록된 키가 없습니다. 먼저 키를 저장해 주세요."
DESK_PROFILE_SAVED = "프로필을 저장했습니다."
DESK_KEY_REMOVED = "API 키를 삭제했습니다."
DESK_RETRY_ONLY_FAILED = "실패한 작업만 다시 시도할 수 있습니다."
DESK_TOO_LONG = "{limit:,}자까지 입력할 수 있습니다."
DESK_VERIFY_CODE_ONLY = "API 키가 없어 코드 검사만 했습니다. 프로필에서 키를 등록하면 AI 검증도 함께 합니다."
DESK_REVISION_FILE_SUFFIX = "_{revision}판"

# --- the monitoring page ----------------------------------------------------------------------
DESK_MONITOR_STAGES = {
    "search": "뉴스 검색",
    "filter": "관련 기사 선별",
    "scrape": "본문 수집",
    "analyze": "분석",
    "done": "완료",
}

# --- login throttling -------------------------------------------------------------------------
# The same words for every lock, whether or not the account exists.
LOGIN_LOCKED = "로그인 실패가 여러 번 이어져 잠시 로그인을 막았습니다. {wait} 뒤에 다시 시도해 주세요."
API_TOKENS_LOCKED = (
    "잘못된 API 토큰이 여러 번 이어져 이 주소의 요청을 잠시 막았습니다. {wait} 뒤에 다시 시도해 주세요."
)
WAIT_MINUTES = "{minutes}분"
WAIT_HOURS = "{hours}시간"
WAIT_HOURS_MINUTES = "{hours}시간 {minutes}분"
# The desk's source panel: what kind of source a sentence rests on.
SOURCE_KIND_LABELS = {
    "press_release": "보도자료",
    "attachment": "첨부파일",
    "article": "타사 기사",
    "search": "검색 기사",
}

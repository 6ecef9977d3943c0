"""Every reporter-facing sentence the agents produce, in one place."""

from __future__ import annotations

NO_API_KEY = (
    "Anthropic API 키가 등록되어 있지 않습니다. 웹 프로필(/desk/profile/)이나 텔레그램 /set_apikey 로 "
    "본인 키를 등록해 주세요."
)
KEY_REFUSED = (
    "등록된 Anthropic API 키가 거부되었습니다(401). 키가 만료되었거나 잘못되었을 수 있습니다. "
    "프로필이나 /set_apikey 로 키를 다시 등록해 주세요."
)
KEY_NO_CREDIT = "Anthropic 계정의 크레딧이나 사용 한도가 부족합니다. 결제 설정을 확인해 주세요."
LLM_UNAVAILABLE = "AI 서비스가 일시적으로 응답하지 않습니다. 잠시 후 다시 시도해 주세요."
LLM_REQUEST_REJECTED = "AI 서비스가 요청을 처리하지 못했습니다. 입력을 줄이거나 잠시 후 다시 시도해 주세요."
LLM_BAD_OUTPUT = "AI가 올바른 형식의 결과를 내지 못했습니다. 다시 시도해 주세요."
LLM_REFUSED = "AI가 이 요청의 처리를 거절했습니다."

WRITING_DEADLINE = (
    "시간 제한({seconds}초)에 걸려 지금까지 쓴 기사로 마무리했습니다. 필요하면 '고쳐줘'로 다듬으세요."
)
WRITING_DEADLINE_NOTHING = (
    "시간 제한({seconds}초) 안에 AI가 기사를 내놓지 못했습니다. 잠시 후 다시 시도해 주세요."
)
WRITING_TOO_MANY_TURNS = "기사 작성이 정해진 단계(5회) 안에 끝나지 않았습니다. 다시 시도해 주세요."
RUN_TOO_MANY_ATTEMPTS = "작업이 반복해서 중단되어 더 이상 시도하지 않습니다. 다시 시도 버튼을 눌러 주세요."
RUN_TIMED_OUT = "작업 시간이 초과되었습니다. 다시 시도해 주세요."
RUN_INTERNAL_ERROR = "처리 중 예기치 못한 오류가 발생했습니다. 다시 시도해 주세요."
RUN_STALLED = "작업이 오래 멈춰 있어 중단했습니다. 다시 시도해 주세요."

ATTACHMENT_EXPIRED = "첨부파일이 만료되었습니다. 다시 보내주세요."
ATTACHMENT_MISSING = "첨부파일을 찾을 수 없습니다."
RETRYING = "재시도 중 {attempt}/{limit}"

EMPTY_PRESS_RELEASE = "보도자료 내용을 입력하거나 파일을 올려 주세요."
PRESS_RELEASE_TOO_LONG = "보도자료는 {limit:,}자까지 받을 수 있습니다. 지금 {length:,}자입니다."
UNKNOWN_DEPARTMENT = (
    "알 수 없는 부서입니다: {department}. "
    "사회부, 정치부, 경제부, 산업부, 테크부, 문화부, 스포츠부, 국제부 중 하나를 고르세요."
)
LENGTH_OUT_OF_RANGE = "분량은 {low}~{high}자 사이로 지정해 주세요."
STYLE_HINT_TOO_LONG = "스타일 요청은 200자까지 쓸 수 있습니다."
TOO_MANY_KEYWORDS = "검색 키워드는 5개까지, 각 30자까지 넣을 수 있습니다."
EMPTY_INSTRUCTION = "어떻게 고칠지 적어 주세요. 예) 제목 바꿔줘, 300자로 줄여줘"
INSTRUCTION_TOO_LONG = "수정 요청은 500자까지 쓸 수 있습니다."
FACT_NOT_LISTED = "그 핵심 사실은 이 기사의 목록에 없습니다. 화면을 새로 고친 뒤 다시 눌러 주세요."
EDIT_NEEDS_FINISHED_ARTICLE = "완성된 기사만 수정할 수 있습니다."

NO_MATERIAL = "기사를 쓸 자료가 없습니다. 보도자료나 첨부파일을 보내 주세요."
SEARCH_FAILED = "관련 기사 검색 실패: {reason}"
LENGTH_MISSED = "요청 분량({target})과 다릅니다: {length}자"
VERIFY_MODEL_MISSING = "AI 사실 확인 결과를 받지 못해 코드 검사만 적용했습니다."
VERIFY_ALL_CUT = "근거가 확인된 문장이 없어 본문이 모두 삭제되었습니다. 초안과 검증 결과를 확인하세요."
NOT_IN_SOURCES = "자료에서 찾을 수 없음"
HEADLINE_REVISED = "제목에서 자료로 확인되지 않는 내용({facts})을 고쳤습니다: {old} → {new}"
HEADLINE_FROM_BODY = (
    "제목의 {facts}을(를) 자료에서 확인하지 못해 본문 첫 문장으로 제목을 대신했습니다. 제목을 다시 써 주세요."
)
HEADLINE_MISSING = "(제목 없음)"
KEPT_BY_SPAN = "코드 검사는 찾지 못했지만, AI가 제시한 자료 구절에서 코드가 같은 값을 확인"
KEPT_BY_DERIVATION = "자료의 수치로 계산한 값: 코드가 다시 계산해 확인"
EVIDENCE_MISSING = "AI는 확인했다고 했지만 자료 구절이나 계산을 대지 못해 삭제"
EVIDENCE_REJECTED = "AI가 제시한 구절이나 계산을 코드가 자료에서 확인하지 못해 삭제"
CONTRADICTED_BY_CODE = "자료의 같은 항목과 값이 다름"
# A suspect claim: the code guard's binding judgement (another subject's value, another event's
# date) that is not precise enough to cut on by itself (agents.verification.suspects).
SUSPECT_MARK = "확인 필요"
SUSPECT_DEFAULT = "자료에서 이 값은 다른 대상이나 다른 일의 것으로 보입니다."
SUSPECT_UNCHECKED = SUSPECT_MARK + ": {reason} AI 검증 없이 문장을 남겼으니 자료와 직접 대조해 주세요."
SUSPECT_KEPT_BY_CLAUSE = (
    "코드가 다른 대상의 값으로 의심했지만, AI가 제시한 자료 구절에서 같은 대상과 값을 코드가 확인"
)
SUSPECT_EVIDENCE_MISSING = (
    "코드가 다른 대상의 값으로 의심했고, AI가 같은 대상과 값이 함께 적힌 자료 구절을 대지 못해 삭제"
)
SUSPECT_EVIDENCE_REJECTED = (
    "코드가 다른 대상의 값으로 의심했고, AI가 제시한 구절에서 같은 대상과 값을 코드가 확인하지 못해 삭제"
)
SUSPECT_SPANS = "대상에 관한 자료 구절: {subject} / 같은 값이 나오는 자료 구절: {value}"
DRAFT_DONE = "완료 · 사실 확인 {confirmed}건 확인"
DRAFT_DONE_REVISED = "완료 · 사실 확인 {confirmed}건 확인, {removed}문장 수정"
EDIT_DONE = "수정 완료"
RUN_QUEUED = "접수됨"
STAGE_ANALYZE = "첨부파일 분석 중"
STAGE_SEARCH = "관련 기사 검색 중"
STAGE_WRITE = "초안 작성 중"
STAGE_VERIFY = "사실 확인 중"
STAGE_EDIT = "수정 중"
# The name of each stage of a draft run, as progress lists show it.
STAGE_LABELS: dict[str, str] = {
    "queued": "대기",
    "analyze": "자료 분석",
    "search": "관련 기사 검색",
    "write": "초안 작성",
    "verify": "사실 확인",
    "done": "완료",
}
VERIFY_ARTICLE_EMPTY = "검증할 기사 본문을 입력해 주세요."
VERIFY_ARTICLE_TOO_LONG = "기사는 {limit:,}자까지 검증할 수 있습니다."
VERIFY_SOURCES_EMPTY = "기사와 대조할 자료(보도자료 등)를 하나 이상 넣어 주세요."
VERIFY_TOO_MANY_SOURCES = "자료는 {limit}개까지, 합쳐서 {chars:,}자까지 보낼 수 있습니다."
VERIFY_HEADLINE = "(제목 없음) 직접 쓴 기사 검증"

# A form's photo field takes photos only: the bytes decide, not the name (a document named .jpg).
UPLOAD_NOT_A_PHOTO = (
    "사진 칸에는 사진(JPG·PNG·HEIC)만 올릴 수 있습니다. 올린 파일은 사진이 아닙니다. "
    "문서는 '파일' 칸에 올려 주세요."
)

# --- monitoring: /check, /report, schedules ---------------------------------------------------
MONITOR_ALREADY_RUNNING = "이미 실행 중인 작업이 있습니다. 지금 작업이 끝난 뒤 다시 요청해 주세요."
MONITOR_WAITING = "앞선 작업이 끝나기를 기다리는 중"
MONITOR_WAIT_GAVE_UP = "앞선 작업이 오래 끝나지 않아 이번 실행을 건너뛰었습니다. 잠시 후 다시 요청해 주세요."
CHECK_NO_KEYWORDS = (
    "타사 체크에 쓸 키워드가 없습니다. 웹 프로필(/desk/profile/)이나 텔레그램 /set_keyword 로 "
    "키워드를 먼저 등록해 주세요. 예) 서부지검, 서부지법, 영등포경찰서"
)
MONITOR_UNKNOWN_DEPARTMENT = (
    "부서가 올바르지 않아 실행할 수 없습니다: {department}. 웹 프로필이나 텔레그램 /set_division 으로 "
    "사회부, 정치부, 경제부, 산업부, 테크부, 문화부, 스포츠부, 국제부 중 하나를 골라 주세요."
)
STAGE_CHECK_SEARCH = "네이버 뉴스 검색 중 (키워드 {count}개, {since} 이후)"
STAGE_REPORT_SEARCH = "{department} 뉴스 검색 중 (키워드 {count}개)"
MONITOR_FOUND = "검색 결과 {searched}건, 새로 살펴볼 기사 {kept}건"
STAGE_MONITOR_FILTER = "관련 기사 고르는 중 ({count}건)"
STAGE_MONITOR_SCRAPE = "본문 수집 중 ({count}건)"
MONITOR_NOT_SCRAPED = "본문을 가져오지 못한 {count}건은 검색 요약만으로 분석합니다"
STAGE_CHECK_ANALYZE = "타사 기사 분석 중 ({count}건)"
STAGE_REPORT_ANALYZE = "브리핑 분석 중 ({count}건)"
CHECK_DONE = "완료 · 주요 {important}건 / 전체 {total}건"
CHECK_DONE_EMPTY = "완료 · 새 기사 없음"
REPORT_DONE_FIRST = "완료 · 주요 {count}건"
REPORT_DONE_UPDATE = "완료 · 수정 {modified}건, 추가 {added}건"
REPORT_DONE_EMPTY = "완료 · 새로 확인된 관련 뉴스 없음"

SCHEDULE_COMMAND_NAMES = {"check": "타사 체크", "report": "브리핑"}
SCHEDULE_USAGE = (
    "입력 형식\n"
    "check 09:00 12:00 … (타사 체크, 최대 {limit}개)\n"
    "report 08:30 17:00 … (브리핑, 최대 {limit}개)\n"
    "check off / report off: 해당 예약 해제\n"
    "off: 모든 예약 해제"
)
SCHEDULE_CURRENT = "현재 예약 (한국 시간)\ncheck: {check}\nreport: {report}"
SCHEDULE_NONE = "(없음)"
SCHEDULE_BAD_COMMAND = "check 또는 report 로 시작해 주세요. 예) check 09:00 12:00"
SCHEDULE_NO_TIMES = "실행할 시각을 적어 주세요. 예) {command} 09:00 12:00"
SCHEDULE_TOO_MANY = "{name} 예약은 {limit}개까지 등록할 수 있습니다."
SCHEDULE_BAD_TIME = "시각 형식이 올바르지 않습니다: {value}. 09:00 처럼 시:분(24시간제)으로 적어 주세요."
SCHEDULE_SET = "자동 {name}을(를) 설정했습니다. 매일 {times}에 실행합니다."
SCHEDULE_DUPLICATES_IGNORED = "겹친 시각({times})은 한 번만 등록했습니다."
SCHEDULE_ADDED = "자동 {name} {time} 예약을 추가했습니다."
SCHEDULE_ALREADY = "{time}에는 이미 자동 {name}이(가) 예약되어 있습니다. 바뀐 것은 없습니다."
SCHEDULE_REMOVED = "자동 {name} {time} 예약을 해제했습니다."
SCHEDULE_NOT_FOUND = "{time}에 예약된 자동 {name}이(가) 없습니다. 바뀐 것은 없습니다."
SCHEDULE_COMMAND_OFF = "자동 {name} 예약을 모두 해제했습니다."
SCHEDULE_ALL_OFF = "모든 자동 실행 예약을 해제했습니다."
SCHEDULE_NOTHING_TO_CLEAR = "해제할 예약이 없습니다."
SCHEDULE_CONFLICT = "예약을 저장하는 중 충돌이 생겼습니다. 잠시 후 다시 시도해 주세요."
SCHEDULE_NEEDS_KEYWORDS = (
    "참고: 키워드가 없으면 자동 타사 체크가 실패합니다. /set_keyword 로 먼저 등록해 주세요."
)
SCHEDULE_TASK_DESCRIPTION = "기자 #{reporter_id}의 자동 {name} (매일 {time} KST)"
THIN_INPUT = (
    "자료에 확인할 수 있는 사실이 {facts}개뿐이라 {requested:,}자를 채우려면 추측이나 군더더기가 들어갑니다. "
    "자료가 뒷받침하는 약 {supportable:,}자로 썼습니다. 더 길게 원하시면 자료를 더 보내 주세요."
)
LINT_FIXED = "표기 점검 {count}곳 수정"
VERIFY_RETRYING = "사실 확인이 응답하지 않아 한 번 더 시도합니다…"
VERIFY_UNFINISHED = (
    "검증 미완료: AI 사실 확인을 끝내지 못했습니다({reason}). 숫자·날짜·인용은 코드로만 확인했습니다. "
    "기사를 다시 쓰지 않고 확인만 다시 할 수 있습니다."
)
ARTICLE_NOT_FOUND = "기사를 찾을 수 없습니다."
MATERIAL_CUT = (
    "{name}이(가) {total:,}자로 길어 앞부분 {kept:,}자만 읽었습니다({left:,}자는 빠졌습니다). "
    '다른 부분이 필요하면 그 부분만 붙여 넣거나, PDF라면 "3~10쪽으로"처럼 쪽 범위를 알려 주세요.'
)
PASTED_TEXT = "붙여 넣은 글"  # how a cut note names a release pasted into a chat
OUTLETS_CREDITED = "다른 언론사 기사에만 근거한 문장 {count}개에 출처(…에 따르면)를 붙였습니다."
OUTLET_UNCREDITED = "다른 언론사 기사에만 근거한 문장에 출처를 밝혀 주세요: {sentence}"
STAGE_FOLLOW_UP = "타사 기사 본문 읽는 중"
FOLLOW_UP_NOT_FOUND = "후속 기사로 쓸 항목을 찾을 수 없습니다. 보관 기간(5일)이 지났을 수 있습니다."
FOLLOW_UP_BAD = '후속 기사 요청은 {"item": 항목 번호} 형식이어야 합니다.'
FOLLOW_UP_PAGE_FAILED = (
    "{outlet} 기사 본문을 가져오지 못해, 타사 체크가 저장해 둔 {what}만 보고 썼습니다. "
    "원문({url})과 대조해 주세요."
)
FOLLOW_UP_SUMMARY = "요약"
FOLLOW_UP_TITLE = "제목"
FOLLOW_UP_NOTHING = (
    "{outlet} 기사 본문을 가져오지 못했고 저장된 요약도 없어 후속 기사를 쓸 수 없습니다. "
    "기사 내용이나 보도자료를 붙여 넣어 다시 요청해 주세요."
)
DRAFT_INSTRUCTION_TOO_LONG = "기사 작성 지시는 500자까지 쓸 수 있습니다."

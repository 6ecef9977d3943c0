"""What the bot says, in one place. Plain text: the sender escapes it for Telegram's HTML mode."""

from __future__ import annotations

DEPARTMENT_LIST = "사회부, 정치부, 경제부, 산업부, 테크부, 문화부, 스포츠부, 국제부"

REGISTER_FIRST = "먼저 /start 로 등록해 주세요. 부서, 키워드, Anthropic API 키를 차례로 묻습니다."
START = (
    "안녕하세요. 기자님의 취재를 돕는 뉴스 보조입니다.\n\n"
    "먼저 부서를 알려 주세요(아래 버튼을 누르거나 이름을 적어도 됩니다).\n\n"
    "언제든 /cancel 로 그만둘 수 있습니다."
)
ASK_DEPARTMENT_AGAIN = "부서를 알아듣지 못했습니다. 다음 중 하나를 적어 주세요.\n" + DEPARTMENT_LIST
ASK_KEYWORDS = (
    "{department}로 설정했습니다.\n\n타사 체크에 쓸 키워드를 쉼표로 구분해 보내 주세요.\n"
    "예) 서부지검, 서부지법, 영등포경찰서"
)
ASK_API_KEY = (
    "키워드: {keywords}\n\n마지막으로 Anthropic API 키(sk-로 시작)를 보내 주세요. "
    "키가 담긴 메시지는 바로 지우고, 키는 암호화해 저장합니다."
)
REGISTERED = (
    "등록을 마쳤습니다.\n부서: {department}\n키워드: {keywords}\n\n"
    "실행: /check 타사 체크, /report 부서 브리핑\n"
    "자동 실행: /schedule check 09:00 13:00\n"
    "설정: /set_keyword, /set_division, /set_apikey, /set_style(기사 스타일), /set_model(AI 모델), "
    "/status\n모든 명령: /help\n\n"
    "보도자료(붙여 넣기, PDF·DOCX·TXT 파일, 스캔본이나 사진, 아이폰 HEIC)를 보내며 "
    '"300자 기사 써줘"라고 하면 '
    '사실 확인을 거친 기사 초안을 드립니다. 받은 기사는 "제목 바꿔줘"처럼 말로 고칠 수 있습니다. '
    "직접 쓴 기사의 사실 확인은 웹 데스크의 '직접 쓴 기사 검증'에서 합니다."
)
FINISH_REGISTRATION = "등록을 먼저 마쳐 주세요. 지금 단계의 질문에 답하거나 /cancel 로 취소하세요."
CANCELLED = "취소했습니다."
NOTHING_TO_CANCEL = "진행 중인 설정이 없습니다."
HELP = (
    "쓸 수 있는 명령\n"
    "/check 내 키워드로 타사 단독·주요 기사 확인\n"
    "/report 부서 주요 뉴스 브리핑\n"
    "/schedule 자동 실행 예약 (예: /schedule check 09:00 13:00, /schedule off)\n"
    "/status 현재 설정 보기\n"
    "/set_keyword 키워드 바꾸기 (예: /set_keyword 서부지검, 서부지법)\n"
    "/set_division 부서 바꾸기 (예: /set_division 경제부)\n"
    "/set_apikey Anthropic API 키 바꾸기\n"
    "/set_style 기사 스타일(언론사) 고르기\n"
    "/set_model 기사 쓰는 AI 모델 고르기\n"
    "/cancel 진행 중인 설정 취소\n\n"
    '말로 해도 됩니다: "이 보도자료로 300자 기사 써줘"(파일 첨부), "제목 바꿔줘", "매일 9시에 체크 돌려줘"'
)
STATUS = (
    "부서: {department}\n키워드: {keywords}\nAPI 키: {key}\n자동 체크: {check}\n자동 브리핑: {report}\n"
    "기사 스타일: {style}"
)
STATUS_SPEND = (
    "사용 요금(내 API 키): 오늘 ${today:.4f} (LLM {today_calls}회), "
    "이번 달 ${month:.4f} (LLM {month_calls}회)\n"
    "모델: {model}"
)
COST_LINE = "⏱ {seconds} · LLM {calls}회 · ${dollars:.4f}"
NONE = "(없음)"
KEY_NOT_SET = "(미등록)"
KEY_REFUSED_NOTE = " (거부됨: /set_apikey 로 다시 등록해 주세요)"
ASK_NEW_KEYWORDS = "현재 키워드: {keywords}\n새 키워드를 쉼표로 구분해 보내 주세요. (/cancel 취소)"
KEYWORDS_CHANGED = "키워드를 바꿨습니다: {keywords}\n타사 체크 기록을 초기화했습니다."
ASK_NEW_DIVISION = "현재 부서: {department}\n바꿀 부서를 골라 주세요(이름을 적어도 됩니다). (/cancel 취소)"
DIVISION_UNCHANGED = "이미 {department}입니다."
DIVISION_CHANGED = "부서를 {department}로 바꿨습니다. 이전 체크·브리핑 기록을 초기화했습니다."
ASK_NEW_KEY = "현재 키: {key}\n새 Anthropic API 키를 보내 주세요. 메시지는 바로 지웁니다. (/cancel 취소)"
KEY_CHANGED = "API 키를 바꿨습니다: {key}"
KEY_MESSAGE_PLACEHOLDER = "[API 키 입력 — 저장하지 않음]"
ASK_SCHEDULE = (
    "현재 예약\n{current}\n\n형식: check 09:00 13:00 / report 08:30 / off (모두 해제)\n(/cancel 취소)"
)
ARTICLE_MODEL = "모델: {model}"
ARTICLE_STYLE = " · 스타일: {style}"
MODEL_UNKNOWN = "(기록 없음)"

# /set_style and /set_model
DEFAULT_CHOICE = "기본"
ASK_STYLE = (
    "지금 기사 스타일: {current}\n다음 기사부터 쓸 언론사 스타일을 고르세요. "
    "'기본'은 {department} 기본 스타일입니다."
)
NO_STYLES = "편집자가 등록한 언론사 스타일이 아직 없습니다. 지금은 {current} 스타일로 씁니다."
STYLE_CHANGED = "기사 스타일을 바꿨습니다: {current}\n다음 기사부터 적용합니다."
ASK_MODEL = "지금 모델: {current}\n다음 기사부터 쓸 모델을 고르세요. '기본'은 {default}입니다."
MODEL_CHANGED = "모델을 바꿨습니다: {current}\n다음 기사부터 적용합니다."
MODEL_OPTION = "{label} (입력 ${input}/출력 ${output}, 100만 토큰당)"
DEFAULT_SUFFIX = " (기본)"
BUTTON_EXPIRED = "지난 버튼입니다. 명령을 다시 보내 주세요."

FILE_RECEIVED = '파일을 받았습니다. 어떻게 처리할까요?\n예) "이 보도자료로 300자 기사 써줘"'
BUSY = "이전 요청을 처리 중입니다. 끝나면 다시 요청해 주세요."
PASTE_FAILED = (
    "보내 주신 글을 여러 번 처리하려 했지만 서버 문제로 끝내지 못했습니다. 글은 대화 기록에 남아 있으니"
    " 잠시 뒤 다시 보내 주세요."
)
ROUTER_FAILED = (
    "죄송합니다. 요청을 처리하지 못했습니다({reason}).\n"
    "명령으로도 할 수 있습니다: /check 타사 체크, /report 브리핑, /schedule 예약, /help 도움말"
)
REJECTED = "죄송합니다. {reason}\n도움말은 /help 를 보세요."
REJECT_DEFAULT = "제공하지 않는 기능입니다."
NO_ARTICLE_TO_EDIT = "수정할 기사를 찾을 수 없습니다. 먼저 기사를 작성해 주세요."
SCHEDULE_NEEDS_DETAILS = "예약할 명령과 시각을 알려 주세요. 예) /schedule check 09:00 13:00"
DIVISION_NEEDS_NAME = "어느 부서로 바꿀까요? " + DEPARTMENT_LIST
KEYWORDS_NEED_VALUES = "어떤 키워드로 바꿀까요? 예) /set_keyword 서부지검, 서부지법"
KEYWORD_NOT_FOUND = "등록된 키워드가 아닙니다: {keywords}"

DRAFT_ACCEPTED = "기사 작성을 시작합니다…"
FOLLOW_UP_BUTTON = "📝 후속 기사"
FOLLOW_UP_ASK = (
    "{outlet}「{title}」의 후속 기사를 씁니다.\n"
    "함께 쓸 보도자료나 지시(예: 피해자 반응 중심으로 600자)를 보내 주세요. "
    "더 보낼 것이 없으면 '바로 작성'을 누르세요."
)
FOLLOW_UP_NOW_BUTTON = "바로 작성"
FOLLOW_UP_STARTED = "후속 기사 작성을 시작했습니다."
FOLLOW_UP_ACCEPTED = "타사 기사를 읽고 후속 기사를 쓰는 중입니다…"
FOLLOW_UP_ALREADY = "이 기사의 후속 기사는 이미 쓰고 있습니다."
VERIFY_AGAIN_OFFER = "위 기사는 검증 미완료입니다. 기사를 다시 쓰지 않고 사실 확인만 다시 할 수 있습니다."
VERIFY_AGAIN_BUTTON = "검증 다시 하기"
VERIFY_AGAIN_STARTED = "사실 확인을 다시 시작했습니다."
VERIFY_AGAIN_ACCEPTED = "기사를 다시 검증하는 중입니다…"
EDIT_ACCEPTED = "기사를 고치는 중입니다…"
CHECK_ACCEPTED = "타사 체크를 시작합니다…"
REPORT_ACCEPTED = "{department} 브리핑을 만드는 중입니다…"
STATUS_LINE = "{label}: {message}"
STATUS_DONE = "완료 ✅"
STATUS_FAILED = "실패"
RUN_FAILED = "{label} 실패: {error}"
RUN_LABELS = {
    "draft": "기사 작성",
    "edit": "기사 수정",
    "check": "타사 체크",
    "report": "부서 브리핑",
    "chat": "대화",
}

ARTICLE_SOURCES = "참고한 기사:"
# The verification line says what was checked (kinds and counts) and what was done about it.
VERIFICATION_LINE = "사실 확인: {checked} 대조 → {confirmed}건 확인"
VERIFICATION_LINE_EDIT = "수정본 사실 확인: {checked} 대조 → {confirmed}건 확인"
VERIFICATION_NOTHING = "사실 확인: 자료와 대조할 수치·날짜·인용이 없었습니다"
VERIFICATION_NOTHING_EDIT = "수정본 사실 확인: 자료와 대조할 수치·날짜·인용이 없었습니다"
VERIFICATION_KIND = {"number": "수치", "date": "날짜", "quote": "인용", "name": "이름", "other": "기타 주장"}
VERIFICATION_COUNT = "{kind} {count}건"
VERIFICATION_FLAGGED = ", {flagged}건 근거 없음"
VERIFICATION_DELETED = " · {count}문장 삭제"
VERIFICATION_TRIMMED = " · {count}문장 축약"
VERIFICATION_HEADLINE = " · 제목 수정"
# Suspect claims kept without a model check: named so the reporter checks them against the sources.
VERIFICATION_NEEDS_CHECK = (
    "\n⚠ 확인 필요 {count}건: {claims} (코드가 다른 대상의 값으로 의심, 자료와 직접 대조해 주세요)"
)
VERIFICATION_NEEDS_CHECK_NAMED = 3  # claims named; the desk lists them all
VERIFICATION_NEEDS_CHECK_MORE = " 외 {count}건"
VERIFICATION_SKIPPED = "사실 확인: AI 검증을 하지 못해 코드 검사만 적용했습니다"
DESK_LINK = "수정 내역과 근거 전체 보기: {url}"
ARTICLE_WARNING = "⚠ {warning}"

STATS = "전체 사용자 {total}명\n\n[부서별]\n{departments}\n\n[스케줄] {scheduled}\n\n[사용자]\n{users}"
STATS_SCHEDULED = "{count}명 등록"
STATS_PER_COMMAND = "check {check}건 / report {report}건"

# The command menu Telegram shows next to the text box (setMyCommands; v1's order, plus /help).
COMMAND_MENU = [
    ("check", "타사 체크: 내 키워드로 단독·주요 기사 확인"),
    ("report", "부서 주요 뉴스 브리핑"),
    ("status", "현재 설정과 오늘·이번 달 사용 요금"),
    ("schedule", "자동 실행 예약 (예: /schedule check 09:00)"),
    ("set_division", "부서 바꾸기"),
    ("set_keyword", "키워드 바꾸기"),
    ("set_apikey", "Anthropic API 키 바꾸기"),
    ("set_style", "기사 스타일(언론사) 고르기"),
    ("set_model", "기사 쓰는 AI 모델 고르기"),
    ("help", "도움말"),
]
LINT_LINE = "표기 점검: {count}건 · {items}{more} — '고쳐줘'라고 보내면 고칩니다"
LINT_ITEM = "'{text}'({where}) → {fix}"
LINT_MORE = " 외 {count}건"
MISSING_FACTS_LINE = "빠진 핵심 사실 {count}건: {facts}{more}"
MISSING_FACTS_MORE = " 외 {count}건"

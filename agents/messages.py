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

WRITING_TOO_MANY_TURNS = "기사 작성이 정해진 단계(5회) 안에 끝나지 않았습니다. 다시 시도해 주세요."
WRITING_NO_SUBMIT = "AI가 기사를 제출하지 않았습니다. 다시 시도해 주세요."
WRITING_EMPTY_ARTICLE = "AI가 빈 기사를 제출했습니다. 다시 시도해 주세요."
RUN_TOO_MANY_ATTEMPTS = "작업이 반복해서 중단되어 더 이상 시도하지 않습니다. 다시 시도 버튼을 눌러 주세요."
RUN_TIMED_OUT = "작업 시간이 초과되었습니다. 다시 시도해 주세요."
RUN_INTERNAL_ERROR = "처리 중 예기치 못한 오류가 발생했습니다. 다시 시도해 주세요."
RUN_STALLED = "작업이 오래 멈춰 있어 중단했습니다. 다시 시도해 주세요."

ATTACHMENT_EXPIRED = "첨부파일이 만료되었습니다. 다시 보내주세요."
ATTACHMENT_MISSING = "첨부파일을 찾을 수 없습니다."
RETRYING = "재시도 중 {attempt}/{limit}"

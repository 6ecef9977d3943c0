"""Reporter-facing messages (Korean). Grouped here so wording is reviewed in one place."""

from __future__ import annotations

MSG_EMPTY_FILE = "빈 파일입니다. 내용이 있는 파일을 다시 올려주세요."
MSG_TOO_LARGE = (
    "파일 용량이 3MB를 초과합니다(현재 {size}). 3MB 이하로 줄인 파일을 올리거나 본문을 붙여넣어 주세요."
)
MSG_UNSUPPORTED = "지원하지 않는 파일 형식입니다. (PDF, DOCX, TXT, 사진(JPG·PNG·HEIC)만 지원)"
MSG_IMAGE = MSG_UNSUPPORTED + " 사진은 JPG·PNG·HEIC로 바꿔 보내주세요."
MSG_IMAGE_CORRUPT = (
    "사진 파일이 손상되었거나 JPG·PNG·HEIC가 아닙니다. 다시 찍거나 JPG·PNG로 저장해 보내주세요."
)
MSG_IMAGE_TOO_LARGE = (
    "사진 해상도가 너무 큽니다({megapixels}백만 화소, 최대 4천만 화소). 크기를 줄여 다시 보내주세요."
)
# Past Pillow's own limit the header's size is not read out; the same advice without the figure.
MSG_IMAGE_FAR_TOO_LARGE = "사진 해상도가 너무 큽니다(최대 4천만 화소). 크기를 줄여 다시 보내주세요."
MSG_OCR_UNAVAILABLE = (
    "이 서버에는 글자 인식(OCR) 기능이 설치되어 있지 않아 사진이나 스캔 문서를 읽을 수 없습니다. "
    "글자를 선택할 수 있는 PDF·DOCX·TXT를 올리거나 본문을 붙여넣어 주세요."
)
MSG_OCR_BUSY = "앞서 보낸 사진·스캔 문서의 글자를 읽는 중입니다. 끝난 뒤 다시 보내주세요."
MSG_OCR_FAILED = "사진·스캔 문서의 글자를 제한 시간 안에 읽지 못했습니다. 더 선명한 사진을 보내주세요."
MSG_OCR_EMPTY = "사진·스캔 문서에서 글자를 찾지 못했습니다. 글자가 잘 보이게 다시 찍어 보내주세요."
MSG_OCR_TIMEOUT = "사진·스캔 문서의 글자 읽기가 끝나지 않았습니다. 잠시 뒤 다시 시도해 주세요."
MSG_LEGACY_DOC = MSG_UNSUPPORTED + " 예전 워드 형식(.doc)은 워드에서 DOCX나 PDF로 저장해 올려주세요."
MSG_HWP = "한글(HWP/HWPX) 파일은 읽을 수 없습니다. 한글에서 '다른 이름으로 저장'으로 PDF로 저장해 올려주세요."
MSG_OFFICE_ENCRYPTED = "비밀번호로 보호된 워드 문서입니다. 비밀번호를 해제한 파일을 올려주세요."
MSG_PDF_ENCRYPTED = "비밀번호로 보호된 PDF라 열 수 없습니다. 비밀번호를 해제한 파일을 올려주세요."
MSG_PDF_CORRUPT = "PDF 파일이 손상되었거나 올바른 PDF가 아닙니다. 원본을 다시 저장해 올려주세요."
MSG_PDF_SCANNED = (
    "스캔한 이미지로 된 PDF로 보여 글자를 읽을 수 없습니다(텍스트 정보 없음). "
    "글자를 선택할 수 있는 PDF를 올리거나 본문을 붙여넣어 주세요."
)
MSG_PDF_SCANNED_NO_OCR = MSG_PDF_SCANNED + " (이 서버에는 글자 인식(OCR) 기능이 설치되어 있지 않습니다.)"
MSG_DOCX_CORRUPT = "DOCX 파일이 손상되어 읽을 수 없습니다. 워드에서 다시 저장하거나 PDF로 올려주세요."
MSG_DOCX_BOMB = (
    "DOCX 파일의 압축 구조가 비정상적입니다(풀면 지나치게 커지거나 항목이 너무 많음). "
    "워드에서 다시 저장하거나 PDF로 올려주세요."
)
MSG_DOCX_DOCTYPE = (
    "DOCX 파일 안에 허용되지 않는 XML 선언(DOCTYPE)이 있어 읽지 않았습니다. "
    "워드에서 다시 저장하거나 PDF로 올려주세요."
)
MSG_TXT_BINARY = "텍스트 파일이 아닌 것 같습니다(이진 데이터 포함). " + MSG_UNSUPPORTED
MSG_TXT_ENCODING = "텍스트 파일의 문자 인코딩을 알 수 없습니다. UTF-8로 저장해 올려주세요."
MSG_NO_TEXT = "파일에서 읽을 수 있는 글자가 없습니다. 내용을 확인해 다시 올려주세요."
MSG_UNREADABLE = "파일을 읽지 못했습니다. 손상되었을 수 있으니 다시 저장해 올리거나 본문을 붙여넣어 주세요."

WARN_PDF_PAGES_SKIPPED = (
    "전체 {total}쪽 중 앞의 {limit}쪽만 읽었습니다. 뒷부분이 필요하면 본문을 붙여넣어 주세요."
)
MSG_BAD_PAGES = "쪽 범위는 '3-10'이나 '3~10'처럼 적어 주세요(첫 쪽 ≤ 끝 쪽)."
WARN_PAGES_CUT = (
    "분량 한도(약 {limit:,}자)를 넘어 {first}~{last}쪽은 빠졌습니다({kept}쪽까지 읽음). "
    "필요하면 쪽 범위를 골라 다시 요청해 주세요."
)
WARN_PAGES_OUT_OF_RANGE = "파일은 {total}쪽뿐이라 고른 쪽이 없습니다. {first}~{last}쪽을 읽었습니다."
WARN_PDF_REPAIRED = "PDF 파일 일부가 손상되어 복구한 내용으로 읽었습니다. 빠진 내용이 없는지 확인해 주세요."
WARN_PDF_BLANK_PAGES = "글자가 없는 쪽({pages}쪽)은 읽지 못했습니다. 이미지로 된 쪽일 수 있습니다."
WARN_DOCX_TRACKED_CHANGES = (
    "문서에 변경 내용 추적(수정 표시)이 남아 있습니다. 삽입은 반영하고 삭제는 뺀 상태로 읽었으니 "
    "최종본이 맞는지 확인해 주세요."
)
WARN_DOCX_SKIPPED_PARTS = (
    "텍스트 상자나 콘텐츠 컨트롤 안의 글은 읽지 못했을 수 있습니다. "
    "빠진 내용이 있으면 본문을 붙여넣어 주세요."
)
WARN_OCR = (
    "사진·스캔 문서를 글자 인식(OCR)으로 읽었습니다. OCR로 읽은 숫자·날짜·이름은 틀릴 수 있으니 "
    "기사에 쓴 숫자를 반드시 원본과 대조하세요."
)
WARN_OCR_UNCERTAIN = (
    "OCR이 확신하지 못한 숫자({numbers})는 □로 가려 기사 작성과 검증에 쓰지 않았습니다. "
    "필요하면 원본에서 확인해 직접 넣으세요."
)
WARN_OCR_PAGES_SKIPPED = "스캔 문서 {total}쪽 중 앞의 {limit}쪽만 글자 인식(OCR)으로 읽었습니다."
WARN_OCR_PAGES_FAILED = "{pages}쪽은 글자 인식(OCR) 제한 시간 안에 읽지 못했습니다."

"""The frame of a press release: the lines around its content that no article reports.

An agency wraps every release in the same kinds of lines: who to call (담당부서, 문의, a phone
number, an e-mail address), when it may run (보도일시, 엠바고, 조간/석간), when the page was posted
or edited (작성일, 수정일, 등록일), a news agency's dateline and byline, a copyright line, and the
furniture of the page it was copied from (첨부, 조회수, 사진 설명 markers). These are kinds of line,
each recognised by its marker words or its form, never by one release's wording; a line of any of
these kinds is never a key fact, however many digits it holds. Pure Python: no Django, no LLM.
"""

from __future__ import annotations

import re

# Each pattern names one kind of frame line; a text holding any of them is frame.
KINDS: dict[str, re.Pattern[str]] = {
    "contact": re.compile(
        r"담당\s*(?:부서|자|과|팀)|문\s*의\s*[:：(]|^\s*문의\b|연락처|대표\s*전화|☎|"
        r"(?:전화|팩스|FAX|Fax|Tel|TEL|T\.)\s*[:：]\s*\(?\d|(?:팩스|FAX|Fax|Tel|TEL)\s*\(?\d"
    ),
    # "044-202-7777", "(02)2133-8680", "1588-1234"; a range of years ("2021-2025") is no number to call.
    "phone": re.compile(
        r"(?<![\d.,])(?:0\d{1,2}[-.)]\s?\d{3,4}[-.]\d{4}|(?!(?:19|20)\d\d-(?:19|20)\d\d)\d{3,4}-\d{4})(?![\d-])"
    ),
    "address": re.compile(r"[\w.+-]+@[\w-]+\.[\w.]+|https?://|www\.[\w-]+\."),
    # "(서울=연합뉴스)", "[세종=뉴시스]": where a news agency filed from.
    "dateline": re.compile(r"^\s*[(\[]?[가-힣]{2,6}\s*=\s*[가-힣A-Za-z]{2,12}[)\]]"),
    "embargo": re.compile(
        r"보도\s*(?:일시|시점|시간)|배포\s*(?:일시|시점|일|시간)|엠바고|보도\s*가능|보도할\s*수\s*있|"
        r"이후\s*(?:보도|사용|게재)|조간|석간|자료\s*제공\s*[:：]|\d{1,2}:\d{2}\s*배포|배포\s*\d"
    ),
    "posted": re.compile(
        r"(?:작성|수정|등록|입력|승인|게시|발행)(?:일|일시|일자|시간)\s*[:：]?\s*\d|(?:작성|수정|등록|입력|게시)\s*[:：]\s*\d"
    ),
    "byline": re.compile(
        r"^\s*[가-힣]{2,4}\s*(?:선임|수석|객원)?\s*기자\s*(?:=|$|[\w.]+@)|[\[(][가-힣]{2,4}\s?기자[\])]"
    ),
    "copyright": re.compile(
        r"[ⓒ©]|\([cC]\)|저작권|무단\s*(?:전재|복제|배포)|재배포\s*금지|Copyright|All rights reserved"
    ),
    "furniture": re.compile(
        r"첨부\s*(?:파일|자료)?\s*[:：]|조회\s*수?\s*[:：]?\s*\d|바로\s*가기|공유하기|구독하기|"
        r"사진\s*(?:있음|없음)|매수\s*[:：]|^\s*-\s*\d+\s*-\s*$|^\s*<?\s*붙\s*임\s*>?|콘텐츠\s*영역|데이터\s*요금"
    ),
}


def frame_kind(text: str) -> str | None:
    """The kind of frame line `text` is, or None for content."""
    return next((kind for kind, pattern in KINDS.items() if pattern.search(text)), None)


def is_frame(text: str) -> bool:
    return frame_kind(text) is not None


# A news agency's marks in front of a line ("(세종=연합뉴스) 홍길동 기자 = ") and a photo credit
# after it: cut off, the rest of the line is content.
_MARKS = re.compile(
    r"^\s*[(\[][가-힣]{2,6}\s*=\s*[가-힣A-Za-z]{2,12}[)\]]\s*(?:[가-힣]{2,4}\s*(?:선임|수석)?\s*기자\s*=\s*)?"
    r"|^\s*[가-힣]{2,4}\s*기자\s*=\s*|\s*\((?:사진|자료)\s*=[^)]{1,30}\)\s*"
    # "2025.7.25.(ⓒ연합뉴스)": a photo's credit and date run into the next line of a copied page
    r"|[\d.\s]*\((?:ⓒ|©)[^)]{0,20}\)\s*"
    # "보도시점 2024. 3. 28.(목) 12:00 (2024. 3. 29.(금) 조간)": the embargo stamp before a title
    r"|(?:보도|배포)\s*(?:시점|일시)\s*[:：]?\s*[\d.\s:]*(?:\([월화수목금토일]\)\s*[\d:\s]*)?(?:\((?:[^()]|\([^()]*\))*(?:조간|석간)\))?"
)


def without_marks(line: str) -> str:
    """`line` without a dateline, a byline in front of it or a photo credit inside it."""
    return _MARKS.sub(" ", line).strip()

"""Short Korean reasons the guard gives the reporter for each checked fact."""

from __future__ import annotations

CONFIRMED = "자료와 일치"
DERIVED = "자료의 수치로 계산됨"
NOT_FOUND = {
    "number": "자료에서 이 수치를 찾지 못함",
    "date": "자료에서 이 날짜를 찾지 못함",
    "quote": "자료에 이 인용문이 없음",
}
MISPLACED = "자료에서 이 값은 다른 대상의 수치이고, 이 대상의 수치는 {other}"
OTHER_VALUE = "자료에는 이 대상의 수치가 {other}로 나옴"
LIST_COUNT = "앞에 나열한 항목 수와 일치"
ROUNDED = "자료의 {source}를 반올림한 수치"
DERIVED_HERE = "같은 문장의 수치로 계산됨"
DERIVED_FROM_ARTICLE = "기사에 적힌 연도·목록·수치로 계산됨"
REVERSED = "자료에서는 {first}이 먼저, {second}이 나중 값으로 나와 변화의 전후가 바뀜"
DAY_MISPLACED = "자료에서 이 날짜는 다른 일의 날짜이고, 이 일의 날짜는 {other}"
NAMED_ELSEWHERE = "자료에서 이 값은 이 대상이 아닌 다른 대상의 수치"
AS_IN_BODY = "본문에서 자료로 확인된 문장의 같은 수치"
DIRECTION = "자료에서는 이 수치의 변화 방향(증가·감소 등)이 반대로 나옴"
ANNOUNCED = "자료의 배포일(발표일)과 일치"
EXCHANGED = "자료에서 이 값은 같은 문장의 다른 대상의 수치로, 두 대상이 서로 바뀜"
MOVED = "자료에서 이 값은 '{label}'의 수치로, 같은 문장 안에서 대상이 바뀜"
TABLE_CELL = "자료 표에서 '{row}'의 '{column}' 값은 {other}로, 이 수치는 같은 표의 다른 칸 값"

"""Every refusal a reporter reads is one type: faces and run tasks catch `UserFacingError` alone."""

from __future__ import annotations

import pytest

from agents import messages as msg
from agents.drafting.attachments import AttachmentUnavailable
from agents.drafting.writing import WritingFailed
from agents.errors import UserFacingError
from agents.llm import client as llm
from agents.monitoring.locks import JobBusy
from agents.monitoring.schedules import ScheduleInputError
from agents.monitoring.services import JobAlreadyRunning
from agents.services import InputError
from agents.sources.files import FileRejected
from newsdesk.services import ProfileError


@pytest.mark.parametrize(
    ("error", "code"),
    [
        (InputError("보도자료를 붙여 주세요.", field="press_release"), "input"),
        (JobAlreadyRunning(), "input"),
        (WritingFailed("기사를 쓰지 못했습니다."), "writing_failed"),
        (WritingFailed("분량이 모자랍니다.", "too_short"), "too_short"),
        (FileRejected("읽을 수 없는 파일입니다.", "unreadable"), "unreadable"),
        (AttachmentUnavailable(msg.ATTACHMENT_EXPIRED), "input"),
        (ScheduleInputError("시간을 09:00처럼 적어 주세요."), "schedule"),
        (JobBusy(reporter_id=1), "busy"),
        (llm.LLMKeyMissing("API 키가 없습니다."), "no_key"),
        (llm.LLMTransient("잠시 후 다시 시도해 주세요.", "HTTP 529"), "llm_unavailable"),
        (ProfileError("키워드를 하나 이상 적어 주세요.", field="keywords"), "input"),
    ],
)
def test_every_error_a_reporter_reads_is_a_user_facing_error_with_its_message_and_code(
    error: UserFacingError, code: str
) -> None:
    assert isinstance(error, UserFacingError)
    assert error.user_message and any("가" <= ch <= "힣" for ch in error.user_message)
    assert error.code == code


def test_a_detail_for_the_logs_stays_out_of_the_reporters_message() -> None:
    error = llm.LLMTransient("잠시 후 다시 시도해 주세요.", "HTTP 529 overloaded")

    assert str(error) == "HTTP 529 overloaded" and error.user_message == "잠시 후 다시 시도해 주세요."
    assert str(FileRejected("읽을 수 없습니다.", "unreadable")) == "unreadable: 읽을 수 없습니다."

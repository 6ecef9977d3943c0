"""End to end: a photo on Telegram and a scanned PDF on the desk become verified articles.

OCR runs in a real Celery worker consuming only the `io` queue (a thread of this process); the
draft task runs in the test thread, as an `llm` worker would, and must hand the OCR over.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from agents import tasks
from agents.models import Run, Upload
from agents.sources import files
from newsdesk.models import Reporter
from tests.agents.draft_script import submit, verify_pass
from tests.factories import PASSWORD, ReporterFactory
from tests.fakes.anthropic import FakeAnthropic
from tests.fakes.telegram import FakeTelegram, document_update
from tests.fixtures.scans import PrintedPage, needs_tesseract, photo, press_page, scanned_pdf
from tests.newsdesk.telegram.chat import CHAT, finish, last_text, process

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.xdist_group("worker"),
    needs_tesseract,
]

PAGE = press_page(7)


@pytest.fixture
def io_worker(transactional_db: None) -> Iterator[object]:
    from celery.contrib.testing.worker import start_worker

    from newsdesk.celery import app

    with start_worker(
        app, pool="solo", concurrency=1, perform_ping_check=False, loglevel="WARNING", queues=["io"]
    ) as worker:
        yield worker


def photo_update(*, file_id: str, size: int, caption: str) -> dict[str, Any]:
    """A photo message: Telegram sends every size, smallest first; the largest ≤ 3 MB is read."""
    update = document_update(chat_id=CHAT, file_id=file_id, file_name="", mime_type="", file_size=size)
    message = update["message"]
    del message["document"]
    message["photo"] = [
        {"file_id": "THUMB", "file_unique_id": "t", "width": 90, "height": 120, "file_size": 2_000},
        {"file_id": file_id, "file_unique_id": "p", "width": 1654, "height": 2339, "file_size": size},
        {"file_id": "HUGE", "file_unique_id": "h", "width": 9000, "height": 9000, "file_size": 5_000_000},
    ]
    message["caption"] = caption
    return update


def article_from(page: PrintedPage) -> tuple[str, str]:
    """An article whose figures all come from the printed page (so the guard confirms them)."""
    households = page.lines[1].split("지원 ")[1].split("가구")[0]
    headline = f"서울시, 청년 월세 지원 {households}가구로 확대"
    facts = " ".join(page.lines[2:6]).replace("지난해 (", "지난해(")
    padding = (
        "시는 청년층의 주거비 부담을 덜기 위해 지원 대상을 넓혔다고 설명했다. "
        "지원을 받으려면 주소지 관할 구청에 신청서와 임대차 계약서를 내야 한다. "
        "시 관계자는 청년들이 안정적으로 자립할 수 있도록 주거 정책을 계속 보완하겠다고 말했다. "
        "자세한 내용은 시 누리집에서 확인할 수 있다."
    )
    return headline, f"{facts}\n\n{padding}"


def test_a_photo_sent_on_telegram_with_a_request_becomes_a_verified_article(
    io_worker: object, fake_telegram: FakeTelegram, fake_llm: FakeAnthropic
) -> None:
    reporter = ReporterFactory(user=None, telegram_id=CHAT, anthropic_key="sk-ant-test-ocr-3333")
    image = photo(PAGE)
    fake_telegram.add_file("PHOTO1", image, file_name="photo.jpg", file_path="photos/file_1.jpg")
    fake_llm.tool(
        "route_to_tool",
        {"tool": "writing", "reason": "사진 보도자료", "extracted_params": {"has_attachment": True}},
    )

    process(photo_update(file_id="PHOTO1", size=len(image), caption="이걸로 기사 써줘"))

    assert Run.objects.filter(kind="draft").exists(), fake_telegram.sent_texts(CHAT)
    run = Run.objects.get(kind="draft", reporter=reporter)
    assert run.input["attachments"][0]["file_id"] == "PHOTO1"
    headline, body = article_from(PAGE)
    submit(fake_llm, headline=headline, body=body)
    verify_pass(fake_llm)
    run = finish(run)

    assert run.status == "done", run.error
    upload = Upload.objects.get(reporter=reporter)
    assert upload.ocr and upload.status == Upload.Status.PARSED and upload.content is None  # read in io
    draft_prompt = fake_llm.requests[1].last_user_text()
    assert "청년 월세 지원" in draft_prompt and PAGE.lines[3].split("예산은 ")[1][:3] in draft_prompt
    article = run.article
    assert article.verdict == "pass" and article.body == body
    assert {issue.status for issue in article.issues.all()} == {"confirmed"}
    reply = last_text(fake_telegram)
    assert headline in reply and "OCR" in reply and "원본과 대조" in reply


def test_a_scanned_pdf_uploaded_on_the_desk_becomes_a_verified_article(
    io_worker: object, fake_llm: FakeAnthropic, settings: Any
) -> None:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    reporter = ReporterFactory(anthropic_key="sk-ant-test-ocr-4444")
    desk = Client()
    assert (
        desk.post("/accounts/login/", {"username": reporter.user.username, "password": PASSWORD}).status_code
        == 302
    )
    scan = SimpleUploadedFile("스캔_보도자료.pdf", scanned_pdf([PAGE]), "application/pdf")

    response = desk.post("/desk/", {"press_release": "", "file": scan})

    assert response.status_code == 303
    run = Run.objects.get(reporter=reporter)
    upload = Upload.objects.get(pk=run.input["upload_id"])
    headline, body = article_from(PAGE)
    submit(fake_llm, headline=headline, body=body)
    verify_pass(fake_llm)
    tasks.draft_run.apply(args=[run.pk])
    run.refresh_from_db()
    upload.refresh_from_db()

    assert run.status == "done", run.error
    assert upload.ocr and upload.page_count == 1 and "주택정책과" in upload.text
    assert run.article.verdict == "pass" and run.article.body == body
    page = desk.get(f"/desk/drafts/{run.pk}/").content.decode()
    assert "글자 인식(OCR)" in page and "원본과 대조" in page


def test_a_second_photo_while_one_is_being_read_is_refused_before_any_work(
    fake_llm: FakeAnthropic, reporter: Reporter, settings: Any
) -> None:
    settings.NEWSDESK_UPLOAD_WAIT_SECONDS = 0
    from agents import services

    services.upload_receive(reporter=reporter, file_name="a.jpg", mime_type="image/jpeg", data=photo(PAGE))

    with pytest.raises(services.InputError) as caught:
        services.upload_receive(
            reporter=reporter, file_name="b.jpg", mime_type="image/jpeg", data=photo(PAGE)
        )

    assert caught.value.user_message == files.MSG_OCR_BUSY
    assert Upload.objects.filter(reporter=reporter).count() == 1

"""Files through the API: cheap checks in the web process, parsing in a real worker."""

from __future__ import annotations

import time

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from agents.models import Run, Upload
from newsdesk.services import token_issue
from tests.agents.draft_script import submit, verify_pass
from tests.fakes.anthropic import FakeAnthropic
from tests.fixtures.documents import make_pdf, make_scanned_pdf, make_zip

PDF_TEXT = "\n".join(
    [
        "서울시는 3일 청년 월세 지원 대상을 2만 가구로 늘린다고 밝혔다.",
        "지원 대상은 만 19~39세 무주택 청년으로, 월 최대 20만 원을 받는다.",
        "시는 이를 위해 예산 480억 원을 편성했다.",
    ]
)


def wait_finished(run: Run, timeout: float = 20) -> Run:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        run.refresh_from_db()
        if run.is_finished:
            return run
        time.sleep(0.1)
    raise AssertionError(f"run {run.pk} still {run.status}")


@pytest.fixture
def api(reporter) -> Client:
    return Client(HTTP_AUTHORIZATION=f"Bearer {token_issue(reporter=reporter)}")


def upload(client: Client, name: str, data: bytes, content_type: str = "application/octet-stream", **fields):
    file = SimpleUploadedFile(name, data, content_type=content_type)
    return client.post("/api/drafts", data={"file": file, **fields})


@pytest.mark.django_db(transaction=True)
@pytest.mark.xdist_group("worker")
def test_a_pdf_is_parsed_by_the_worker_and_drafted_from(
    api: Client, worker_thread, fake_llm: FakeAnthropic
) -> None:
    submit(fake_llm)
    verify_pass(fake_llm)

    response = upload(api, "보도자료.pdf", make_pdf([PDF_TEXT]), "application/pdf", length="350")

    assert response.status_code == 202, response.content
    run = Run.objects.get(pk=response.json()["id"])
    uploaded = Upload.objects.get(pk=run.input["upload_id"])
    assert uploaded.status == Upload.Status.PARSED and uploaded.content is None
    assert "청년 월세" in uploaded.text
    run = wait_finished(run)  # the worker thread takes the queued draft too
    assert run.status == Run.Status.DONE, run.error
    assert "480억 원" in fake_llm.requests[0].last_user_text()


@pytest.mark.django_db(transaction=True)
@pytest.mark.xdist_group("worker")
@pytest.mark.parametrize(
    ("name", "data", "words"),
    [
        ("locked.pdf", make_pdf([PDF_TEXT], encryption=4, user_pw="1234", owner_pw="5678"), "비밀번호"),
        ("scan.pdf", make_scanned_pdf(), "스캔"),
    ],
)
def test_a_pdf_the_worker_cannot_read_is_refused_with_422_and_nothing_queued(
    api: Client, worker_thread, name: str, data: bytes, words: str
) -> None:
    response = upload(api, name, data, "application/pdf")

    assert response.status_code == 422
    assert words in response.json()["detail"]
    assert not Run.objects.exists()


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("name", "data", "words"),
    [
        ("big.pdf", b"%PDF-1.7\n" + b"0" * (3 * 1024 * 1024), "3MB"),
        ("보도자료.hwp", b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\0" * 600, "PDF로 저장해 올려주세요"),
        ("photo.gif", b"GIF89a" + b"\0" * 100, "지원하지 않는 파일 형식"),
        ("broken.pdf", b"not a pdf at all", "PDF"),
        ("bomb.docx", make_zip({"[Content_Types].xml": b"<x/>", "word/document.xml": b"0" * 60_000_000}), ""),
        ("empty.txt", b"", ""),
    ],
)
def test_files_failing_the_cheap_checks_are_refused_before_storage(
    api: Client, name: str, data: bytes, words: str
) -> None:
    response = upload(api, name, data)

    assert response.status_code == 422
    assert words in response.json()["detail"]
    assert response.json()["field"] == "file"
    assert not Upload.objects.exists() and not Run.objects.exists()


@pytest.mark.django_db(transaction=True)
@pytest.mark.xdist_group("worker")
def test_the_chosen_pages_of_a_200_page_pdf_reach_the_model(
    api: Client, worker_thread, fake_llm: FakeAnthropic
) -> None:
    submit(fake_llm)
    verify_pass(fake_llm)
    pages = [f"제{n}쪽 표식\n{PDF_TEXT}" for n in range(1, 201)]

    response = upload(api, "긴자료.pdf", make_pdf(pages), "application/pdf", pages="150~152쪽")

    assert response.status_code == 202, response.content
    run = wait_finished(Run.objects.get(pk=response.json()["id"]))
    assert run.status == Run.Status.DONE, run.error
    prompt = fake_llm.requests[0].last_user_text()
    assert "제150쪽 표식" in prompt and "제152쪽 표식" in prompt
    assert "제1쪽 표식" not in prompt and "제153쪽 표식" not in prompt


@pytest.mark.django_db
def test_a_page_range_that_is_not_one_is_refused_with_its_field(api: Client) -> None:
    response = upload(api, "자료.pdf", make_pdf([PDF_TEXT]), "application/pdf", pages="10-3")

    assert response.status_code == 422
    assert response.json()["field"] == "pages" and "쪽 범위" in response.json()["detail"]
    assert not Upload.objects.exists()

"""/desk/: the new-draft form, validated in the browser and again on the server with the API's rules."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from agents.models import Run, Upload
from tests.fixtures.documents import make_pdf
from tests.fixtures.press import PRESS_RELEASE
from tests.newsdesk.desk.conftest import HTMX
from tests.newsdesk.desk.html import field_error, one, parse, text

pytestmark = pytest.mark.django_db


def test_the_form_page_is_a_whole_document_with_htmx_vendored_and_no_inline_code(desk: Client) -> None:
    response = desk.get("/desk/")

    assert response.status_code == 200
    soup = parse(response)
    assert soup.title and "새 기사" in soup.title.get_text()
    sources = [s.get("src") for s in soup.find_all("script")]
    assert any(src.endswith("django_htmx/htmx-2.min.js") for src in sources)
    assert all(src.startswith("/static/") for src in sources)  # nothing inline, nothing third-party
    assert not soup.find_all(style=True) and not soup.find_all("style")
    assert one(soup, "#id_department").find("option", selected=True)["value"] == "사회부"
    csp = response.headers["Content-Security-Policy"]
    assert "script-src 'self'" in csp and "style-src 'self'" in csp


def test_an_htmx_request_gets_only_the_main_region(desk: Client) -> None:
    response = desk.get("/desk/", **HTMX)

    body = response.content.decode()
    assert response.status_code == 200
    assert "<html" not in body and "<form" in body and "<title>" in body


def test_the_form_carries_the_korean_messages_for_the_browser_checks(desk: Client) -> None:
    soup = parse(desk.get("/desk/"))

    assert (
        one(soup, "#id_press_release")["data-required-msg"]
        == "보도자료 내용을 입력하거나 파일을 올려 주세요."
    )
    assert "100~3000자" in one(soup, "#id_length_custom")["data-range-msg"]
    assert one(soup, "#id_file")["data-max-bytes"] == str(3 * 1024 * 1024)


def test_a_valid_press_release_queues_a_web_draft_and_redirects_to_its_page(
    desk: Client, django_capture_on_commit_callbacks
) -> None:
    with django_capture_on_commit_callbacks() as callbacks:
        response = desk.post(
            "/desk/",
            {
                "press_release": PRESS_RELEASE,
                "department": "경제부",
                "length_choice": "1000",
                "style_hint": "간결하게",
                "keywords": "청년 월세, 서울시",
                "search_news": "on",
            },
        )

    run = Run.objects.get()
    assert response.status_code == 303 and response["Location"] == f"/desk/drafts/{run.pk}/"
    assert run.channel == "web" and run.kind == "draft"
    assert run.input["department"] == "경제부" and run.input["length"] == 1000
    assert run.input["keywords"] == ["청년 월세", "서울시"] and run.input["search_news"] is True
    assert len(callbacks) == 1


def test_a_custom_length_is_used(desk: Client) -> None:
    desk.post("/desk/", {"press_release": PRESS_RELEASE, "length_choice": "custom", "length_custom": "2,000"})

    assert Run.objects.get().input["length"] == 2000


def test_an_empty_press_release_is_refused_next_to_the_field_keeping_the_rest(desk: Client) -> None:
    response = desk.post("/desk/", {"press_release": "  ", "style_hint": "짧게 써줘", "department": "문화부"})

    assert response.status_code == 200 and not Run.objects.exists()
    assert field_error(response, "id_press_release") == "보도자료 내용을 입력하거나 파일을 올려 주세요."
    soup = parse(response)
    assert one(soup, "#id_style_hint")["value"] == "짧게 써줘"
    assert one(soup, "#id_department").find("option", selected=True)["value"] == "문화부"
    assert one(soup, "#id_press_release")["aria-invalid"] == "true"


@pytest.mark.parametrize(
    ("fields", "field_id", "message"),
    [
        ({"length_choice": "custom", "length_custom": "5000"}, "id_length_custom", "분량은 100~3000자"),
        ({"length_choice": "custom", "length_custom": "길게"}, "id_length_custom", "숫자로"),
        ({"length_choice": "custom", "length_custom": ""}, "id_length_custom", "직접 입력"),
        ({"keywords": "a,b,c,d,e,f"}, "id_keywords", "5개까지"),
        ({"style_hint": "가" * 201}, "id_style_hint", "200자"),
        ({"department": "연예부"}, "id_department", "알 수 없는 부서"),
    ],
)
def test_bad_fields_get_korean_errors_next_to_them_and_keep_the_press_release(
    desk: Client, fields: dict, field_id: str, message: str
) -> None:
    response = desk.post("/desk/", {"press_release": PRESS_RELEASE, **fields})

    assert response.status_code == 200 and not Run.objects.exists()
    assert message in field_error(response, field_id)
    assert PRESS_RELEASE.strip() in one(parse(response), "#id_press_release").get_text()


def test_a_press_release_over_the_limit_is_refused(desk: Client) -> None:
    response = desk.post("/desk/", {"press_release": "가" * 20_001})

    assert "20,000자" in field_error(response, "id_press_release")


def test_without_any_key_the_form_says_where_to_register_one(desk: Client, reporter) -> None:
    reporter.set_anthropic_key("")
    reporter.save()

    notice = text(desk.get("/desk/"), ".notice")
    response = desk.post("/desk/", {"press_release": PRESS_RELEASE})

    assert "API 키" in notice
    assert "API 키가 등록되어 있지 않습니다" in text(response, ".form-error")
    assert not Run.objects.exists()


def test_an_uploaded_pdf_is_stored_for_the_worker_and_the_draft_points_at_it(desk: Client, settings) -> None:
    settings.NEWSDESK_UPLOAD_WAIT_SECONDS = 0  # no worker here: the draft task extracts it later
    pdf = SimpleUploadedFile(
        "보도자료.pdf", make_pdf(["서울시는 3일 청년 월세 지원을 늘린다."]), "application/pdf"
    )

    response = desk.post("/desk/", {"press_release": "", "file": pdf})

    run = Run.objects.get()
    upload = Upload.objects.get()
    assert response.status_code == 303
    assert run.input["upload_id"] == upload.pk and upload.status == Upload.Status.PENDING
    assert upload.file_name == "보도자료.pdf"


@pytest.mark.parametrize(
    ("name", "data", "message"),
    [
        ("photo.gif", b"GIF89a" + b"0" * 100, "지원하지 않는 파일 형식"),
        ("big.txt", b"a" * (3 * 1024 * 1024 + 1), "3MB를 초과"),
        ("report.hwp", b"HWP Document File" + b"0" * 100, "한글(HWP/HWPX)"),
    ],
)
def test_a_refused_file_is_reported_next_to_the_file_field(
    desk: Client, name: str, data: bytes, message: str
) -> None:
    response = desk.post("/desk/", {"press_release": "", "file": SimpleUploadedFile(name, data)})

    assert response.status_code == 200 and not Run.objects.exists() and not Upload.objects.exists()
    assert message in field_error(response, "id_file")
    assert "다시 선택" in response.content.decode()


def test_a_file_with_a_bad_form_is_not_stored(desk: Client) -> None:
    pdf = SimpleUploadedFile("a.pdf", make_pdf(["서울시 발표"]), "application/pdf")

    desk.post("/desk/", {"file": pdf, "department": "연예부"})

    assert not Upload.objects.exists()


def test_a_page_range_goes_with_the_pdf_and_a_bad_one_is_refused_next_to_its_field(
    desk: Client, settings
) -> None:
    settings.NEWSDESK_UPLOAD_WAIT_SECONDS = 0
    pdf = make_pdf(["서울시는 3일 청년 월세 지원을 늘린다."])

    refused = desk.post(
        "/desk/", {"file": SimpleUploadedFile("a.pdf", pdf, "application/pdf"), "pages": "10-3"}
    )
    desk.post("/desk/", {"file": SimpleUploadedFile("a.pdf", pdf, "application/pdf"), "pages": "3-10"})

    assert "쪽 범위" in field_error(refused, "id_pages")
    assert Run.objects.get().input["pages"] == [3, 10] and Upload.objects.count() == 1

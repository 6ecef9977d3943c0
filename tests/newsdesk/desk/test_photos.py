"""Photos on the desk: the new-draft and verify-only forms take JPEG, PNG and HEIC from a file
picker or a phone's camera, judged by their bytes, with the OCR warning beside the field."""

from __future__ import annotations

import io

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from PIL import Image

from agents import messages as agent_msg
from agents.models import Run, Upload
from agents.sources.files import WARN_OCR
from tests.fixtures.documents import make_pdf
from tests.fixtures.press import PRESS_RELEASE
from tests.newsdesk.desk.html import field_error, one, parse

pytestmark = pytest.mark.django_db
FORMS = ["/desk/", "/desk/verify/"]
NOT_A_PHOTO = "사진 칸에는 사진(JPG·PNG·HEIC)만 올릴 수 있습니다"


def picture(image_format: str) -> bytes:
    buffer = io.BytesIO()
    Image.new("L", (400, 200), 255).save(buffer, format=image_format)
    return buffer.getvalue()


@pytest.mark.parametrize("path", FORMS)
def test_both_forms_offer_the_camera_and_take_jpeg_png_and_heic(desk: Client, path: str) -> None:
    soup = parse(desk.get(path))
    photo, file = one(soup, "#id_photo"), one(soup, "#id_file")

    assert photo["capture"] == "environment"
    for accepted in ("image/jpeg", "image/png", "image/heic", ".heic", ".jpg", ".png"):
        assert accepted in photo["accept"].split(",") and accepted in file["accept"].split(",")
    assert ".pdf" in file["accept"].split(",") and ".pdf" not in photo["accept"].split(",")
    assert ".heic" in photo["data-extensions"].split(",") and ".heic" in file["data-extensions"].split(",")


@pytest.mark.parametrize("path", FORMS)
def test_both_forms_say_a_photo_is_read_by_ocr_with_the_warning_the_draft_gives(
    desk: Client, path: str
) -> None:
    note = one(parse(desk.get(path)), "#id_photo-note").get_text()

    assert "글자 인식(OCR)" in note and WARN_OCR.split(". ", 1)[1] in note


@pytest.mark.parametrize(
    ("field", "name", "image_format"), [("photo", "IMG_0001.JPG", "JPEG"), ("file", "scan.png", "PNG")]
)
def test_a_photo_from_the_camera_or_the_file_picker_queues_a_draft_read_by_ocr(
    desk: Client, settings, field: str, name: str, image_format: str
) -> None:
    settings.NEWSDESK_UPLOAD_WAIT_SECONDS = 0  # no worker here: the io worker reads it later
    photo = SimpleUploadedFile(name, picture(image_format), f"image/{image_format.lower()}")

    response = desk.post("/desk/", {"press_release": "", field: photo})

    upload = Upload.objects.get()
    assert response.status_code == 303
    assert Run.objects.get().input["upload_id"] == upload.pk and upload.ocr and upload.file_name == name


def test_a_document_named_jpg_is_refused_in_korean_and_the_pasted_text_is_kept(desk: Client) -> None:
    fake = SimpleUploadedFile("보도자료.jpg", "서울시는 3일 발표했다.".encode(), "image/jpeg")

    response = desk.post("/desk/", {"press_release": PRESS_RELEASE, "photo": fake})

    assert response.status_code == 200 and not Run.objects.exists() and not Upload.objects.exists()
    assert "사진 파일이 손상되었거나 JPG·PNG·HEIC가 아닙니다" in field_error(response, "id_photo")
    assert PRESS_RELEASE.strip()[:40] in one(parse(response), "#id_press_release").get_text()
    assert "다시 선택" in response.content.decode()


@pytest.mark.parametrize("path", FORMS)
def test_a_pdf_in_the_photo_field_is_refused_by_its_bytes_whatever_its_name(desk: Client, path: str) -> None:
    pdf = SimpleUploadedFile("photo.jpg", make_pdf(["서울시는 3일 청년 월세 지원을 늘린다."]), "image/jpeg")

    response = desk.post(path, {"press_release": "", "article": PRESS_RELEASE, "photo": pdf})

    assert response.status_code == 200 and not Upload.objects.exists() and not Run.objects.exists()
    assert NOT_A_PHOTO in field_error(response, "id_photo")
    assert field_error(response, "id_photo") == agent_msg.UPLOAD_NOT_A_PHOTO


def test_a_file_and_a_photo_at_once_are_refused_and_neither_is_stored(desk: Client) -> None:
    pdf = SimpleUploadedFile("a.pdf", make_pdf(["서울시 발표"]), "application/pdf")
    photo = SimpleUploadedFile("b.png", picture("PNG"), "image/png")

    response = desk.post("/desk/", {"press_release": PRESS_RELEASE, "file": pdf, "photo": photo})

    assert response.status_code == 200 and not Upload.objects.exists() and not Run.objects.exists()
    assert "하나만" in field_error(response, "id_photo")


def test_without_tesseract_a_photo_is_refused_with_the_ocr_message(desk: Client, no_tesseract: None) -> None:
    photo = SimpleUploadedFile("b.png", picture("PNG"), "image/png")

    response = desk.post("/desk/", {"press_release": "", "photo": photo})

    assert not Upload.objects.exists() and not Run.objects.exists()
    assert "글자 인식(OCR) 기능이 설치되어 있지 않아" in field_error(response, "id_photo")


# --- the edit form ---


def test_the_edit_form_takes_a_file_or_a_photo_with_the_camera_and_the_ocr_note(
    desk: Client, done_run: Run
) -> None:
    form = one(desk.get(f"/desk/drafts/{done_run.pk}/"), "form.edit")

    photo = one(form, f"#id_photo-{done_run.pk}")
    assert form["enctype"] == form["hx-encoding"] == "multipart/form-data"
    assert photo["capture"] == "environment" and "image/heic" in photo["accept"].split(",")
    assert "글자 인식(OCR)" in one(form, f"#id_photo-{done_run.pk}-note").get_text()


def test_an_edit_with_a_photo_queues_a_revision_that_reads_it(desk: Client, done_run: Run, settings) -> None:
    settings.NEWSDESK_UPLOAD_WAIT_SECONDS = 0
    photo = SimpleUploadedFile("정정.png", picture("PNG"), "image/png")

    response = desk.post(
        f"/desk/drafts/{done_run.pk}/edits/", {"instruction": "사진 수치로 고쳐줘", "photo": photo}
    )

    upload = Upload.objects.get()
    edit = Run.objects.get(kind=Run.Kind.EDIT)
    assert response.status_code == 303 and edit.input["upload_id"] == upload.pk and upload.ocr


def test_an_edit_with_a_document_named_jpg_is_refused_and_nothing_is_stored(
    desk: Client, done_run: Run
) -> None:
    fake = SimpleUploadedFile("정정.jpg", make_pdf(["서울시 발표"]), "image/jpeg")

    response = desk.post(
        f"/desk/drafts/{done_run.pk}/edits/", {"instruction": "사진 수치로 고쳐줘", "photo": fake}
    )

    assert response.status_code == 200 and not Upload.objects.exists()
    assert not Run.objects.filter(kind=Run.Kind.EDIT).exists()
    assert field_error(response, f"id_photo-{done_run.pk}") == agent_msg.UPLOAD_NOT_A_PHOTO


def test_an_edit_without_an_instruction_stores_no_photo(desk: Client, done_run: Run) -> None:
    photo = SimpleUploadedFile("정정.png", picture("PNG"), "image/png")

    desk.post(f"/desk/drafts/{done_run.pk}/edits/", {"instruction": " ", "photo": photo})

    assert not Upload.objects.exists() and not Run.objects.filter(kind=Run.Kind.EDIT).exists()

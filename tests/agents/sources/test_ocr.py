"""Photos and scanned PDFs read by Tesseract: numbers read right, limits, and a missing Tesseract."""

from __future__ import annotations

import io
import struct
import zlib

import pymupdf
import pytest

from agents.sources import files
from agents.sources.files import ocr
from tests.fixtures.documents import make_pdf
from tests.fixtures.scans import needs_tesseract, number_accuracy, photo, press_page, scanned_pdf

PAGES = [press_page(seed) for seed in range(6)]


@needs_tesseract
@pytest.mark.parametrize("fmt", ["jpeg", "png"])
def test_a_photo_of_a_printed_press_release_has_at_least_98_percent_of_its_numbers_right(fmt: str) -> None:
    truth, read = [], []
    for page in PAGES:
        result = files.extract_text(data=photo(page, fmt=fmt), file_name=f"photo.{fmt}", ocr=True)
        truth.append(page.text)
        read.append(result.text)
        assert result.ocr and result.kind == "image"

    assert number_accuracy("\n".join(truth), "\n".join(read)) >= 0.98


@needs_tesseract
def test_a_scanned_pdf_is_read_page_by_page_with_its_table() -> None:
    result = files.extract_text(data=scanned_pdf(PAGES[:3]), file_name="scan.pdf", ocr=True)

    truth = "\n".join(page.text for page in PAGES[:3])
    assert result.kind == "pdf" and result.page_count == 3 and result.ocr
    assert number_accuracy(truth, result.text) >= 0.98
    assert "가구 수" in result.text and "2024년" in result.text  # the table, not only the prose
    assert files.WARN_OCR in result.warnings


@needs_tesseract
def test_a_pdf_whose_text_layer_is_garbage_is_read_by_ocr() -> None:
    document = pymupdf.open(stream=scanned_pdf(PAGES[:1]), filetype="pdf")
    # A text layer of mojibake, as a PDF without a ToUnicode map gives (invisible, like OCR layers).
    document[0].insert_text((60, 800), "ÃÂ¿½ÐÏÑ¾¼µ¶·¸¹º»¼½¾¿ÀÁÂÃÄÅÆÇÈÉÊË" * 3, render_mode=3)

    result = files.extract_text(data=document.tobytes(), file_name="scan.pdf", ocr=True)

    assert result.ocr and number_accuracy(PAGES[0].text, result.text) >= 0.98


def test_a_photo_or_scan_outside_the_io_worker_asks_for_ocr_instead_of_reading() -> None:
    if not files.ocr_available():
        pytest.skip("Tesseract is not installed: the photo is refused instead (tested below)")
    for data, name in [(photo(PAGES[0]), "photo.jpg"), (scanned_pdf(PAGES[:1]), "scan.pdf")]:
        with pytest.raises(files.FileRejected) as caught:
            files.extract_text(data=data, file_name=name)
        assert caught.value.code == files.NEEDS_OCR


@needs_tesseract
def test_numbers_ocr_is_unsure_of_are_blanked_in_the_trusted_text(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ocr, "LOW_CONFIDENCE", 101)  # every number counts as unsure

    result = files.extract_text(data=photo(PAGES[0]), file_name="photo.jpg", ocr=True)

    assert result.uncertain and "2025" in "".join(result.uncertain)
    assert not any(char.isdigit() for char in result.trusted_text)
    assert files.UNCERTAIN_MARK in result.source_text
    assert any("□로 가려" in warning for warning in result.warnings)


def test_a_photo_with_too_many_pixels_is_refused_from_its_header(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ocr, "ocr_available", lambda: True)
    monkeypatch.setattr(ocr, "MAX_IMAGE_PIXELS", 1000)

    with pytest.raises(files.FileRejected) as caught:
        files.precheck(data=photo(PAGES[0]), file_name="photo.jpg")

    assert caught.value.code == "too_large" and "화소" in caught.value.user_message


@needs_tesseract
def test_only_the_first_pages_of_a_long_scan_are_read(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ocr, "MAX_OCR_PAGES", 1)

    result = files.extract_text(data=scanned_pdf(PAGES[:2]), file_name="scan.pdf", ocr=True)

    assert result.page_count == 1
    assert any("2쪽 중 앞의 1쪽" in warning for warning in result.warnings)


@needs_tesseract
def test_a_page_that_takes_too_long_is_reported_not_waited_for(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ocr, "OCR_PAGE_SECONDS", 0.01)

    with pytest.raises(files.FileRejected) as caught:
        files.extract_text(data=photo(PAGES[0]), file_name="photo.jpg", ocr=True)

    assert caught.value.code == "ocr_timeout"


def test_without_tesseract_a_photo_gets_a_clear_korean_message(no_tesseract: None) -> None:
    for check in (
        lambda: files.precheck(data=photo(PAGES[0]), file_name="photo.jpg"),
        lambda: files.precheck_metadata(file_name="photo.jpg", mime_type="image/jpeg", size=90_000),
        lambda: files.extract_text(data=photo(PAGES[0]), file_name="photo.jpg", ocr=True),
    ):
        with pytest.raises(files.FileRejected) as caught:
            check()
        assert caught.value.user_message == files.MSG_OCR_UNAVAILABLE


def test_without_tesseract_a_scanned_pdf_says_so(no_tesseract: None) -> None:
    with pytest.raises(files.FileRejected) as caught:
        files.extract_text(data=scanned_pdf(PAGES[:1]), file_name="scan.pdf")

    assert caught.value.code == "scanned" and "OCR" in caught.value.user_message


def test_a_text_pdf_is_not_sent_to_ocr() -> None:
    text = "서울시는 청년 월세 지원 대상을 2만 가구로 늘린다고 14일 밝혔다. 예산은 480억 원이다."

    result = files.extract_text(data=make_pdf(["\n".join([text] * 3)]), file_name="release.pdf")

    assert not result.ocr and result.source_text == result.text


# --- iPhone photos (HEIC) ---


def heic(data: bytes) -> bytes:
    """The photo as an iPhone saves it; encoded by pillow-heif (a development dependency: its x265
    encoder is GPL, so the product itself only decodes, with pi-heif)."""
    import pillow_heif
    from PIL import Image

    buffer = io.BytesIO()
    pillow_heif.from_pillow(Image.open(io.BytesIO(data))).save(buffer, quality=85)
    return buffer.getvalue()


@needs_tesseract
def test_an_iphone_photo_in_heic_is_read_like_a_jpeg() -> None:
    data = heic(photo(PAGES[0]))

    result = files.extract_text(data=data, file_name="IMG_0412.HEIC", mime_type="image/heic", ocr=True)

    assert result.ocr and result.kind == "image"
    assert number_accuracy(PAGES[0].text, result.text) >= 0.98


def test_a_heic_photo_passes_the_cheap_checks_as_an_image(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ocr, "ocr_available", lambda: True)

    assert files.precheck(data=heic(photo(PAGES[0])), file_name="IMG_0412.HEIC") == "image"


def test_a_heic_photo_has_the_same_pixel_limit_as_a_jpeg(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ocr, "ocr_available", lambda: True)
    monkeypatch.setattr(ocr, "MAX_IMAGE_PIXELS", 1000)

    with pytest.raises(files.FileRejected) as caught:
        files.precheck(data=heic(photo(PAGES[0])), file_name="IMG_0412.HEIC")

    assert caught.value.code == "too_large" and "화소" in caught.value.user_message


def test_a_damaged_heic_gets_the_damaged_photo_message(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ocr, "ocr_available", lambda: True)
    data = heic(photo(PAGES[0]))

    with pytest.raises(files.FileRejected) as caught:
        files.extract_text(data=data[: len(data) // 3], file_name="IMG_0412.HEIC", ocr=True)

    assert caught.value.code == "corrupt" and "손상" in caught.value.user_message


# --- Pillow's own decompression-bomb limits ---


def png_header(width: int, height: int) -> bytes:
    """A PNG that declares `width` x `height` pixels and holds none (all a bomb needs to be opened)."""
    header = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    chunk = b"IHDR" + header
    ihdr = struct.pack(">I", len(header)) + chunk + struct.pack(">I", zlib.crc32(chunk))
    end = struct.pack(">I", 0) + b"IEND" + struct.pack(">I", zlib.crc32(b"IEND"))
    return b"\x89PNG\r\n\x1a\n" + ihdr + end


@pytest.mark.parametrize(
    ("width", "height", "pillow_says"),
    [(20_000, 10_000, "DecompressionBombError"), (10_000, 10_000, "DecompressionBombWarning")],
)
def test_a_photo_past_pillow_s_own_limit_is_too_large_not_damaged(
    monkeypatch: pytest.MonkeyPatch, width: int, height: int, pillow_says: str
) -> None:
    monkeypatch.setattr(ocr, "ocr_available", lambda: True)
    monkeypatch.setattr(ocr, "MAX_IMAGE_PIXELS", 10**12)  # only Pillow's limit stands in the way

    with pytest.raises(files.FileRejected) as caught:
        files.extract_text(data=png_header(width, height), file_name="photo.png", ocr=True)

    assert caught.value.code == "too_large", pillow_says
    assert "해상도가 너무 큽니다" in caught.value.user_message
    assert f"{width * height // 1_000_000}백만 화소" in caught.value.user_message

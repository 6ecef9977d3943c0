"""Upload text extraction: every fixture is built here, so no binary files live in the repo."""

from __future__ import annotations

import io
import random
import time
import zipfile

import pymupdf
import pytest
from docx.document import Document as DocxDocument
from docx.oxml import parse_xml
from docx.oxml.ns import nsdecls

from agents.sources.files import (
    MAX_FILE_BYTES,
    MAX_PDF_PAGES,
    PAGE_BREAK,
    Extracted,
    FileRejected,
    detect_kind,
    extract_text,
    ocr,
    precheck,
    precheck_metadata,
)
from tests.fixtures.documents import make_docx, make_pdf, make_scanned_pdf, make_zip, press_release, rezip

LINES = [
    "서울시는 15일 청년 주거 지원 예산을 2천억 원으로 늘린다고 밝혔다.",
    "신청은 다음 달 1일부터 서울주거포털에서 받는다.",
    "지원 대상은 만 19세에서 39세 사이의 무주택 청년이다.",
]
PAGE_TEXT = "\n".join(LINES)
OLE2_MAGIC = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
SAVE_AS_PDF = "PDF로 저장해 올려주세요"
UNSUPPORTED = "지원하지 않는 파일 형식입니다. (PDF, DOCX, TXT, 사진(JPG·PNG·HEIC)만 지원)"
CODES = {
    "too_large",
    "unsupported",
    "hwp",
    "encrypted",
    "corrupt",
    "scanned",
    "empty",
    "zip_bomb",
    "needs_ocr",
    "ocr_unavailable",
}


def rejected(data: bytes, file_name: str, mime_type: str = "") -> FileRejected:
    with pytest.raises(FileRejected) as caught:
        extract_text(data=data, file_name=file_name, mime_type=mime_type)
    return caught.value


# --- PDF ---


def test_it_extracts_korean_text_from_a_pdf() -> None:
    result = extract_text(data=make_pdf([PAGE_TEXT]), file_name="보도자료.pdf", mime_type="application/pdf")

    assert result == Extracted(text=PAGE_TEXT, kind="pdf", page_count=1, warnings=[])


def test_it_reads_every_page_of_a_multi_page_pdf_in_order() -> None:
    pages = [f"{number}쪽\n{PAGE_TEXT}" for number in (1, 2, 3)]

    result = extract_text(data=make_pdf(pages), file_name="release.pdf")

    assert result.page_count == 3
    assert result.text == f"\n{PAGE_BREAK}\n".join(pages)  # page breaks kept for page ranges


def test_it_extracts_a_pdf_locked_only_by_an_owner_password() -> None:
    data = make_pdf([PAGE_TEXT], encryption=pymupdf.PDF_ENCRYPT_AES_256, owner_pw="editor", user_pw="")

    assert extract_text(data=data, file_name="locked.pdf").text == PAGE_TEXT


def test_it_rejects_a_password_protected_pdf() -> None:
    data = make_pdf([PAGE_TEXT], encryption=pymupdf.PDF_ENCRYPT_AES_256, owner_pw="editor", user_pw="open")

    error = rejected(data, "secret.pdf")

    assert error.code == "encrypted"
    assert "비밀번호" in error.user_message
    assert "해제한 파일" in error.user_message


def test_it_rejects_a_truncated_pdf_as_corrupt() -> None:
    data = make_pdf([PAGE_TEXT, PAGE_TEXT])

    assert rejected(data[:600], "cut.pdf").code == "corrupt"


def test_it_rejects_garbage_after_a_pdf_header_as_corrupt() -> None:
    error = rejected(b"%PDF-1.7\n" + bytes(range(256)) * 4, "broken.pdf")

    assert error.code == "corrupt"
    assert "PDF" in error.user_message


def test_it_rejects_a_file_named_pdf_without_a_pdf_header() -> None:
    assert rejected(b"just some words, not a pdf at all", "fake.pdf").code == "corrupt"


def test_it_reads_a_slightly_damaged_pdf_and_warns_that_it_was_repaired() -> None:
    data = make_pdf([PAGE_TEXT])

    result = extract_text(data=data[:-40], file_name="damaged.pdf")

    assert result.text == PAGE_TEXT
    assert any("복구" in warning for warning in result.warnings)


def test_without_tesseract_it_rejects_a_scanned_pdf_without_a_text_layer(no_tesseract: None) -> None:
    error = rejected(make_scanned_pdf(), "scan.pdf")

    assert error.code == "scanned"
    assert "스캔" in error.user_message
    assert "붙여넣어" in error.user_message


def test_it_treats_a_pdf_with_almost_no_text_as_scanned(no_tesseract: None) -> None:
    assert rejected(make_pdf(["1쪽", "2쪽"]), "thin.pdf").code == "scanned"


def test_it_warns_about_image_only_pages_in_an_otherwise_text_pdf() -> None:
    document = pymupdf.open(stream=make_pdf([PAGE_TEXT, PAGE_TEXT]), filetype="pdf")
    document.insert_pdf(pymupdf.open(stream=make_scanned_pdf(1), filetype="pdf"))

    result = extract_text(data=document.tobytes(), file_name="mixed.pdf")

    assert result.page_count == 3
    assert any("3쪽" in warning for warning in result.warnings)


def test_it_reads_up_to_its_page_limit_and_warns_about_the_rest() -> None:
    pages = [f"{number}쪽\n{PAGE_TEXT}" for number in range(1, MAX_PDF_PAGES + 6)]

    result = extract_text(data=make_pdf(pages), file_name="long.pdf")

    assert result.page_count == MAX_PDF_PAGES
    assert f"{MAX_PDF_PAGES}쪽\n" in result.text
    assert f"{MAX_PDF_PAGES + 1}쪽" not in result.text
    assert len(result.warnings) == 1
    assert f"{MAX_PDF_PAGES + 5}쪽" in result.warnings[0]
    assert f"{MAX_PDF_PAGES}쪽" in result.warnings[0]


# --- DOCX ---


def test_it_reads_a_docx_header_then_body_in_document_order_then_footer() -> None:
    result = extract_text(data=make_docx(press_release), file_name="보도자료.docx")

    assert result.kind == "docx"
    assert result.page_count == 0
    assert result.warnings == []
    assert result.text == (
        "보도자료 | 서울특별시 주택정책과\n"
        "서울시, 청년 주거 지원 예산 2천억 원으로 확대\n"
        "구분 | 2024년 | 2025년\n"
        "예산 | 1천억 원 | 2천억 원\n"
        "신청은 다음 달 1일부터 받는다.\n"
        "문의: 주택정책과 02-2133-0000"
    )


def test_it_shows_a_horizontally_merged_docx_cell_once() -> None:
    def build(document: DocxDocument) -> None:
        table = document.add_table(rows=2, cols=3)
        merged = table.cell(0, 0).merge(table.cell(0, 2))
        merged.text = "2025년 청년 주거 지원 계획"
        for cell, value in zip(table.rows[1].cells, ["월세", "전세", "매입"], strict=True):
            cell.text = value

    text = extract_text(data=make_docx(build), file_name="t.docx").text

    assert text == "2025년 청년 주거 지원 계획\n월세 | 전세 | 매입"


def test_it_does_not_repeat_identical_headers_of_several_sections() -> None:
    def build(document: DocxDocument) -> None:
        document.sections[0].header.paragraphs[0].text = "서울특별시 보도자료"
        document.add_paragraph("첫 번째 절의 본문입니다.")
        second = document.add_section()
        second.header.is_linked_to_previous = False
        second.header.paragraphs[0].text = "서울특별시 보도자료"
        document.add_paragraph("두 번째 절의 본문입니다.")

    text = extract_text(data=make_docx(build), file_name="t.docx").text

    # The section break is an empty paragraph, hence the blank line.
    assert text == "서울특별시 보도자료\n첫 번째 절의 본문입니다.\n\n두 번째 절의 본문입니다."


def test_it_reads_tracked_changes_as_accepted_and_warns() -> None:
    w = nsdecls("w")

    def build(document: DocxDocument) -> None:
        paragraph = document.add_paragraph("올해 예산은 ")
        paragraph._p.append(
            parse_xml(
                f'<w:del {w} w:id="1" w:author="kim"><w:r><w:delText>2천억 원</w:delText></w:r></w:del>'
            )
        )
        paragraph._p.append(
            parse_xml(f'<w:ins {w} w:id="2" w:author="kim"><w:r><w:t>3천억 원</w:t></w:r></w:ins>')
        )
        paragraph.add_run("이다.")

    result = extract_text(data=make_docx(build), file_name="changes.docx")

    assert result.text == "올해 예산은 3천억 원이다."
    assert len(result.warnings) == 1
    assert "변경 내용 추적" in result.warnings[0]


def test_it_rejects_a_docx_zip_bomb_before_parsing() -> None:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        with zipfile.ZipFile(io.BytesIO(make_docx(press_release))) as source:
            for info in source.infolist():
                archive.writestr(info.filename, source.read(info))
        with archive.open("word/media/zeros.bin", "w") as member:
            chunk = bytes(1024 * 1024)
            for _ in range(60):  # 60 MB of zeros, written a megabyte at a time
                member.write(chunk)
    data = out.getvalue()
    assert len(data) < MAX_FILE_BYTES

    with pytest.raises(FileRejected) as caught:
        precheck(data=data, file_name="bomb.docx")
    assert caught.value.code == "zip_bomb"
    assert rejected(data, "bomb.docx").code == "zip_bomb"


def test_it_rejects_a_docx_part_that_compresses_more_than_100_times() -> None:
    data = rezip(make_docx(press_release), add={"word/media/zeros.bin": bytes(2 * 1024 * 1024)})

    assert rejected(data, "ratio.docx").code == "zip_bomb"


def test_it_rejects_a_docx_with_too_many_zip_entries() -> None:
    extra = {f"extra/item{number}.xml": b"<a/>" for number in range(1001)}
    data = rezip(make_docx(press_release), add=extra)

    assert rejected(data, "many.docx").code == "zip_bomb"


@pytest.mark.parametrize("codec", ["utf-8", "utf-16"])
def test_it_rejects_a_docx_with_a_doctype_billion_laughs(codec: str) -> None:
    original = make_docx(press_release)
    with zipfile.ZipFile(io.BytesIO(original)) as archive:
        xml = archive.read("word/document.xml").decode("utf-8")
    declaration, rest = xml.split("?>", 1)
    bomb = '<!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">]>'
    hostile = (declaration.replace("UTF-8", codec.upper()) + "?>" + bomb + rest).encode(codec)
    data = rezip(original, replace={"word/document.xml": hostile})

    error = rejected(data, "lol.docx")

    assert error.code == "corrupt"
    assert "DOCTYPE" in error.user_message


def test_it_rejects_a_file_named_docx_that_is_not_a_zip() -> None:
    assert rejected(b"PK\x03\x04 but nothing else of a zip", "broken.docx").code == "corrupt"
    assert rejected("그냥 텍스트".encode(), "plain.docx").code == "corrupt"


def test_it_rejects_a_zip_that_is_not_a_word_document() -> None:
    data = make_zip({"[Content_Types].xml": b"<Types/>", "xl/workbook.xml": b"<workbook/>"})

    error = rejected(data, "sheet.xlsx")

    assert error.code == "unsupported"
    assert UNSUPPORTED in error.user_message


def test_it_rejects_a_legacy_word_doc() -> None:
    data = OLE2_MAGIC + bytes(512) + "WordDocument".encode("utf-16-le") + bytes(512)

    error = rejected(data, "old.doc", "application/msword")

    assert error.code == "unsupported"
    assert UNSUPPORTED in error.user_message


def test_it_rejects_a_password_protected_docx() -> None:
    # Word stores an encrypted .docx as an OLE2 container with an EncryptedPackage stream.
    data = OLE2_MAGIC + bytes(512) + "EncryptedPackage".encode("utf-16-le") + bytes(512)

    assert rejected(data, "secret.docx").code == "encrypted"


# --- TXT ---


@pytest.mark.parametrize("codec", ["cp949", "euc-kr", "utf-8", "utf-8-sig", "utf-16", "utf-16-be-bom"])
def test_it_decodes_korean_text_files_in_common_encodings(codec: str) -> None:
    data = (
        b"\xfe\xff" + PAGE_TEXT.encode("utf-16-be") if codec == "utf-16-be-bom" else PAGE_TEXT.encode(codec)
    )

    result = extract_text(data=data, file_name="memo.txt", mime_type="text/plain")

    assert result == Extracted(text=PAGE_TEXT, kind="txt", page_count=0, warnings=[])


def test_it_normalises_line_ends_blank_lines_trailing_spaces_and_nul() -> None:
    raw = "\r\n\r\n제목 \t\r\n\r\n\r\n\r\n본문\x00 첫 줄   \r\n둘째 줄\r\n\r\n"

    text = extract_text(data=raw.encode("utf-8"), file_name="memo.txt").text

    assert text == "제목\n\n본문 첫 줄\n둘째 줄"


def test_it_rejects_binary_garbage_named_txt() -> None:
    garbage = random.Random(7).randbytes(4096)

    error = rejected(garbage, "notes.txt")

    assert error.code == "unsupported"


def test_it_rejects_a_text_file_in_an_unknown_encoding() -> None:
    error = rejected(b"\x80\xff\x80\xff abc \xff\xfe\xfd" * 10, "memo.txt")

    assert error.code == "unsupported"
    assert "인코딩" in error.user_message


def test_it_rejects_a_text_file_with_only_whitespace_as_empty() -> None:
    assert rejected(b" \r\n\t\r\n  \n", "blank.txt").code == "empty"


# --- Size, emptiness and type ---


def test_it_rejects_a_file_over_3_mb_and_names_its_size() -> None:
    error = rejected(b"a" * (MAX_FILE_BYTES + 1), "big.txt")

    assert error.code == "too_large"
    assert "3MB를 초과" in error.user_message
    assert "3.1MB" in error.user_message


def test_it_accepts_a_file_of_exactly_3_mb() -> None:
    assert precheck(data=b"a" * MAX_FILE_BYTES, file_name="big.txt") == "txt"


def test_it_rejects_an_empty_file() -> None:
    error = rejected(b"", "empty.pdf")

    assert error.code == "empty"
    assert "빈 파일" in error.user_message


@pytest.mark.parametrize(
    ("data", "file_name"),
    [
        (OLE2_MAGIC + bytes(512) + "HwpSummaryInformation".encode("utf-16-le"), "보도자료.hwp"),
        (OLE2_MAGIC + bytes(1024), "보도자료.hwp"),
        (OLE2_MAGIC + bytes(1024), "attachment.bin"),
        (b"HWP Document File V3.00 \x1a\x01\x02\x03\x04\x05", "old.hwp"),
        (make_zip({"mimetype": b"application/hwp+zip", "Contents/section0.xml": b"<sec/>"}), "보도자료.hwpx"),
        (make_zip({"mimetype": b"application/hwp+zip"}), "misnamed.docx"),
        (b"PK\x03\x04 truncated", "보도자료.hwpx"),
    ],
)
def test_it_asks_for_a_pdf_instead_of_a_hangul_file(data: bytes, file_name: str) -> None:
    error = rejected(data, file_name)

    assert error.code == "hwp"
    assert SAVE_AS_PDF in error.user_message


def test_it_reads_a_broken_png_as_a_damaged_photo_even_when_named_pdf() -> None:
    png = b"\x89PNG\r\n\x1a\n" + bytes(64)

    for name in ("photo.png", "photo.pdf"):
        error = rejected(png, name, "image/png")
        assert error.code in {"corrupt", "ocr_unavailable"}
        assert "사진" in error.user_message


def test_it_rejects_image_formats_ocr_does_not_take() -> None:
    error = rejected(b"GIF89a" + bytes(64), "photo.gif", "image/gif")

    assert error.code == "unsupported" and UNSUPPORTED in error.user_message


# An iPhone photo's first box: the major brand, then the compatible brands.
HEIC_FTYP = b"\x00\x00\x00\x18ftypheic\x00\x00\x00\x00mif1heic"
HEIC_GENERIC_FIRST = b"\x00\x00\x00\x1cftypmif1\x00\x00\x00\x00mif1MiHEheic"
AVIF_FTYP = b"\x00\x00\x00\x1cftypavif\x00\x00\x00\x00avifmif1miaf"


@pytest.mark.parametrize("head", [HEIC_FTYP, HEIC_GENERIC_FIRST])
@pytest.mark.parametrize("name", ["IMG_0412.HEIC", "IMG_0412.jpg", "보도자료"])
def test_an_iphone_photo_is_an_image_for_ocr_whatever_its_name(head: bytes, name: str) -> None:
    assert detect_kind(data=head + bytes(400), file_name=name, mime_type="image/jpeg") == "image"


def test_other_heif_images_are_refused_with_the_photo_formats_that_are_read() -> None:
    error = rejected(AVIF_FTYP + bytes(400), "photo.avif", "image/avif")

    assert error.code == "unsupported" and "JPG·PNG·HEIC로 바꿔" in error.user_message


def test_it_trusts_magic_bytes_over_the_file_name() -> None:
    assert detect_kind(data=make_pdf([PAGE_TEXT]), file_name="release.txt") == "pdf"
    assert detect_kind(data=make_docx(press_release), file_name="release.bin") == "docx"


def test_it_falls_back_to_the_mime_type_when_the_name_has_no_extension() -> None:
    assert (
        detect_kind(data="본문".encode(), file_name="보도자료", mime_type="text/plain; charset=utf-8")
        == "txt"
    )


def test_it_rejects_an_unknown_file_type() -> None:
    error = rejected(b"<html><body>hi</body></html>", "page.html", "text/html")

    assert error.code == "unsupported"
    assert error.user_message == UNSUPPORTED


# --- Telegram metadata ---


@pytest.mark.parametrize(
    ("file_name", "mime_type", "size"),
    [
        ("보도자료.pdf", "application/pdf", 1024),
        ("보도자료.DOCX", "application/octet-stream", MAX_FILE_BYTES),
        ("memo.txt", "", 10),
        ("document", "application/pdf", 1024),
        ("보도자료.pdf", "application/pdf", 0),  # Telegram may omit file_size
        ("IMG_0412.HEIC", "application/octet-stream", 1024),
        ("document", "image/heif", 1024),
    ],
)
def test_it_accepts_supported_files_from_telegram_metadata(
    file_name: str, mime_type: str, size: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(ocr, "ocr_available", lambda: True)  # photos need OCR, tested in test_ocr

    precheck_metadata(file_name=file_name, mime_type=mime_type, size=size)


@pytest.mark.parametrize(
    ("file_name", "mime_type", "size", "code", "phrase"),
    [
        ("보도자료.pdf", "application/pdf", MAX_FILE_BYTES + 1, "too_large", "3MB를 초과"),
        ("보도자료.hwp", "application/x-hwp", 1024, "hwp", SAVE_AS_PDF),
        ("document", "application/haansofthwp", 1024, "hwp", SAVE_AS_PDF),
        ("보도자료.hwpx", "application/octet-stream", 1024, "hwp", SAVE_AS_PDF),
        ("old.doc", "application/msword", 1024, "unsupported", UNSUPPORTED),
        ("photo.gif", "image/gif", 1024, "unsupported", UNSUPPORTED),
        ("archive.zip", "application/zip", 1024, "unsupported", UNSUPPORTED),
    ],
)
def test_it_rejects_files_from_telegram_metadata(
    file_name: str, mime_type: str, size: int, code: str, phrase: str
) -> None:
    with pytest.raises(FileRejected) as caught:
        precheck_metadata(file_name=file_name, mime_type=mime_type, size=size)

    assert caught.value.code == code
    assert phrase in caught.value.user_message


# --- Fuzz ---


def mutate(data: bytes, rng: random.Random) -> bytes:
    buffer = bytearray(data)
    for _ in range(rng.randint(1, 3)):
        operation = rng.choice(["flip", "truncate", "insert", "delete", "duplicate"])
        position = rng.randrange(max(len(buffer), 1))
        if operation == "flip":
            for _ in range(rng.randint(1, 20)):
                buffer[rng.randrange(len(buffer))] = rng.randrange(256)
        elif operation == "truncate":
            del buffer[position:]
        elif operation == "insert":
            buffer[position:position] = rng.randbytes(rng.randint(1, 64))
        elif operation == "delete":
            del buffer[position : position + rng.randint(1, 256)]
        else:
            buffer[position:position] = buffer[position : position + rng.randint(1, 512)]
        if not buffer:
            break
    return bytes(buffer)


def mutate_docx_part(data: bytes, rng: random.Random) -> bytes:
    """Damage the XML inside an otherwise valid zip, so python-docx itself sees the damage."""
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        name = rng.choice(
            ["word/document.xml", "word/styles.xml", "[Content_Types].xml", "word/_rels/document.xml.rels"]
        )
        part = archive.read(name)
    return rezip(data, replace={name: mutate(part, rng)})


def fuzz_cases(rng: random.Random) -> list[tuple[bytes, str]]:
    pdf = make_pdf([PAGE_TEXT, PAGE_TEXT], encryption=pymupdf.PDF_ENCRYPT_NONE)
    docx_data = make_docx(press_release)
    prefixes = [
        b"",
        b"%PDF-1.7\n",
        b"PK\x03\x04",
        OLE2_MAGIC,
        b"\xef\xbb\xbf",
        b"\xff\xfe",
        b"\x89PNG\r\n\x1a\n",
    ]
    names = ["a.pdf", "a.docx", "a.txt", "a.hwp", "a", "a.png"]
    cases = [
        (rng.choice(prefixes) + rng.randbytes(rng.randint(0, 4096)), rng.choice(names)) for _ in range(60)
    ]
    cases += [(mutate(pdf, rng), rng.choice(["a.pdf", "a.txt"])) for _ in range(60)]
    cases += [(mutate(docx_data, rng), "a.docx") for _ in range(40)]
    cases += [(mutate_docx_part(docx_data, rng), "a.docx") for _ in range(40)]
    return cases


def test_it_only_ever_raises_file_rejected_for_random_and_mutated_bytes() -> None:
    rng = random.Random(20250601)
    cases = fuzz_cases(rng)
    started = time.monotonic()

    for data, file_name in cases:
        try:
            result = extract_text(data=data, file_name=file_name)
        except FileRejected as error:
            assert error.code in CODES
            assert error.user_message
        else:
            assert result.text.strip()
            assert result.kind in {"pdf", "docx", "txt", "image"}

    assert len(cases) == 200
    assert time.monotonic() - started < 5

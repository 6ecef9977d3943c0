"""The embargo reader: the header line of a release, read to the moment it may be published (KST)."""

from __future__ import annotations

from datetime import date, datetime

import pytest

from agents.facts.embargo import KST, is_embargoed, publish_label, read_embargo, release_embargo

REFERENCE = date(2025, 11, 28)


def kst(*parts: int) -> datetime:
    return datetime(*parts, tzinfo=KST)  # type: ignore[misc]


@pytest.mark.parametrize(
    ("line", "until"),
    [
        ("보도시점: 12. 1.(월) 06:00 이후", kst(2025, 12, 1, 6, 0)),
        ("보도일시: 2024.3.5.(화) 12:00", kst(2024, 3, 5, 12, 0)),
        ("보도시점 2024. 3. 28.(목) 12:00 (2024. 3. 29.(금) 조간)", kst(2024, 3, 28, 12, 0)),
        (
            "<보도일시><2018. 9. 4.(화) 조간(온라인 9. 3. 12:00)부터 보도해 주시기 바랍니다.>",
            kst(2018, 9, 3, 12, 0),
        ),
        ("엠바고: 12월 2일(화) 오후 2시 30분", kst(2025, 12, 2, 14, 30)),
        ("보 도 일 시 : '25. 12. 3.(수) 정오", kst(2025, 12, 3, 12, 0)),
        ("보도일시 2025. 12. 4.(목) 24:00", kst(2025, 12, 5, 0, 0)),
    ],
)
def test_a_stated_moment_is_read_to_the_minute_in_kst(line: str, until: datetime) -> None:
    embargo = read_embargo(f"보도자료\n{line}\n제목", reference=REFERENCE)

    assert embargo is not None
    assert embargo.until == until
    assert embargo.text == " ".join(line.split())
    assert embargo.to_json()["until"].endswith("+09:00")


def test_the_distribution_time_on_the_same_line_is_not_the_embargo() -> None:
    embargo = read_embargo("보도시점 2023. 9. 7.(목) 12:00 배포 2023. 9. 7.(목) 08:00", reference=REFERENCE)

    assert embargo is not None and embargo.until == kst(2023, 9, 7, 12, 0)


def test_a_distribution_line_before_the_embargo_is_skipped() -> None:
    line = "배포일시 2018. 9. 3.(월) 09:00 보도일시 2018. 9. 4.(화) 10:00"
    embargo = read_embargo(line, reference=REFERENCE)

    assert embargo is not None and embargo.until == kst(2018, 9, 4, 10, 0)


@pytest.mark.parametrize(
    "line",
    ["보도시점: 배포 즉시", "보도일시: 즉시 보도 가능", "보도시점 : 배포 시 / 배포 : 2025. 11. 28.(금)"],
)
def test_immediate_release_has_no_embargo(line: str) -> None:
    assert read_embargo(line, reference=REFERENCE) is None


def test_morning_edition_only_follows_the_noon_before_convention() -> None:
    embargo = read_embargo("엠바고: 12월 2일(화) 조간", reference=REFERENCE)

    assert embargo is not None and embargo.until == kst(2025, 12, 1, 12, 0)


def test_evening_edition_only_is_noon_of_its_day() -> None:
    embargo = read_embargo("보도일시: 2025. 12. 2.(화) 석간", reference=REFERENCE)

    assert embargo is not None and embargo.until == kst(2025, 12, 2, 12, 0)


def test_an_edition_without_a_date_is_the_next_paper_after_the_reference_day() -> None:
    embargo = read_embargo("보도시점: 조간", reference=REFERENCE)

    assert embargo is not None and embargo.until == kst(2025, 11, 28, 12, 0)


def test_a_year_is_inferred_nearest_the_reference_day_across_new_year() -> None:
    embargo = read_embargo("보도시점: 1. 2.(금) 06:00", reference=date(2026, 12, 30))

    assert embargo is not None and embargo.until == kst(2027, 1, 2, 6, 0)


def test_a_stated_weekday_picks_the_year_it_names() -> None:
    embargo = read_embargo("보도시점: 6. 1.(월) 06:00", reference=date(2026, 3, 1))

    assert embargo is not None and embargo.until == kst(2026, 6, 1, 6, 0)


@pytest.mark.parametrize(
    "text",
    [
        "보도시점: 언젠가 알려 드림",
        "보도일시 2. 30.(월) 09:00",
        "보도일시 13. 45. 99:99",
        "",
        "보도자료\n" + "본문 " * 5000,
        "배 포 일 2020. 2. 28. / (총 16매)",
        "\x00보도시점\x00: ((((",
    ],
)
def test_an_unreadable_or_missing_line_gives_none_without_an_error(text: str) -> None:
    assert read_embargo(text, reference=REFERENCE) is None


def test_a_date_in_the_body_is_not_an_embargo() -> None:
    body = "보도자료\n정부는 12월 1일(월) 06:00부터 새 제도를 시행한다고 밝혔다."

    assert read_embargo(body, reference=REFERENCE) is None


def test_the_pasted_text_wins_over_the_attached_file() -> None:
    stored = release_embargo("보도시점: 12. 1.(월) 06:00", "보도시점: 12. 2.(화) 06:00", reference=REFERENCE)

    assert stored == {"until": "2025-12-01T06:00:00+09:00", "text": "보도시점: 12. 1.(월) 06:00"}


def test_the_label_names_month_day_weekday_and_time() -> None:
    assert publish_label(kst(2025, 12, 1, 6, 0)) == "보도 가능: 12월 1일(월) 06:00 이후"


def test_an_embargo_holds_until_its_moment_and_not_after() -> None:
    stored = {"until": "2025-12-01T06:00:00+09:00", "text": "보도시점: 12. 1.(월) 06:00"}

    assert is_embargoed(stored, now=kst(2025, 12, 1, 5, 59))
    assert not is_embargoed(stored, now=kst(2025, 12, 1, 6, 0))
    assert not is_embargoed(None, now=kst(2025, 12, 1, 5, 0))
    assert not is_embargoed({"until": "어제", "text": ""}, now=kst(2025, 12, 1, 5, 0))


def test_a_line_that_opens_with_its_date_keeps_the_stated_time() -> None:
    embargo = read_embargo("2025. 12. 7.(일) 11:00 < 12. 8.(월) 조간 >", reference=REFERENCE)

    assert embargo is not None and embargo.until == kst(2025, 12, 7, 11, 0)


def test_a_label_whose_values_sit_on_the_next_lines_is_read_as_one_header() -> None:
    release = (
        "보도자료\n\n보도시점\n\n(온라인)\n\n2025. 12. 2.(화) 18:00\n\n(지 면)\n\n2025. 12. 3.(수) 조간\n\n"
        "고향사랑기부로 불어넣은 지역활력, 2025년 상반기 모금결과 공개\n"
    )

    embargo = read_embargo(release, reference=REFERENCE)

    assert embargo is not None and embargo.until == kst(2025, 12, 2, 18, 0)
    assert embargo.text == "보도시점 (온라인) 2025. 12. 2.(화) 18:00 (지 면) 2025. 12. 3.(수) 조간"


def test_an_online_line_with_a_date_is_a_header_line() -> None:
    embargo = read_embargo("보도자료\n(온라인) 2025. 12. 2.(화) 18:00\n", reference=REFERENCE)

    assert embargo is not None and embargo.until == kst(2025, 12, 2, 18, 0)


def test_a_stated_online_time_wins_over_the_morning_edition_convention() -> None:
    embargo = read_embargo(
        "보도시점: (온라인) 2025. 12. 2.(화) 18:00 / (지 면) 2025. 12. 3.(수) 조간", reference=REFERENCE
    )

    assert embargo is not None and embargo.until == kst(2025, 12, 2, 18, 0)


def test_a_date_without_a_year_takes_the_year_of_the_line_not_of_the_reference_day() -> None:
    line = "<보도일시><2018. 9. 4.(화) 조간(온라인 9. 3. 12:00)부터 보도해 주시기 바랍니다.>"

    embargo = read_embargo(line, reference=REFERENCE)

    assert embargo is not None and embargo.until == kst(2018, 9, 3, 12, 0)


def test_a_body_word_that_contains_an_edition_word_is_not_a_header() -> None:
    text = "보도자료\n전국 인구를 기준으로 따지면 1인당 관람 횟수가 3.83회로 최대치를 기록했다."

    assert read_embargo(text, reference=REFERENCE) is None

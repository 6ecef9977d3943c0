"""A verifier's trim is accepted only when it deletes whole words and nothing that changes the meaning."""

from __future__ import annotations

from datetime import date

import pytest

from agents.verification.trims import deleted_words, is_safe_trim

SOURCES = ["서울시는 예산 480억 원을 편성했다. 신청은 10일부터 받는다."]
REFERENCE = date(2026, 3, 3)


def safe(original: str, trimmed: str) -> bool:
    return is_safe_trim(original=original, trimmed=trimmed, sources=SOURCES, reference=REFERENCE)


def test_deleting_whole_words_is_a_safe_trim() -> None:
    assert safe(
        "시는 예산 480억 원을 편성해 청년 주거 문제를 근본적으로 해결했다.",
        "시는 예산 480억 원을 편성해 청년 주거 문제를 해결했다.",
    )


def test_deleting_the_last_words_may_move_the_final_period() -> None:
    assert safe("시는 예산 480억 원을 편성했다, 사상 최대 규모다.", "시는 예산 480억 원을 편성했다.")


def test_a_word_with_a_new_ending_is_a_replacement_and_is_refused() -> None:
    assert not safe(
        "시는 예산 480억 원을 편성해 청년 주거 문제를 근본적으로 해결했다.", "시는 예산 480억 원을 편성했다."
    )


def test_a_changed_name_is_refused_even_when_it_shares_a_stem() -> None:
    assert not safe("서울시는 예산 480억 원을 편성해 지원한다.", "서울대는 예산 480억 원을 편성했다.")
    assert not safe("서울시는 예산 480억 원을 새로 편성했다.", "서울대는 예산 480억 원을 편성했다.")


def test_reordered_words_are_refused() -> None:
    assert not safe("시는 예산 480억 원을 올해 새로 편성했다.", "예산 480억 원을 시는 편성했다.")


@pytest.mark.parametrize(
    ("original", "trimmed"),
    [
        ("시는 올해 예산을 늘리지 않고 유지한다.", "시는 올해 예산을 유지한다."),  # 않
        ("시는 올해 신청을 안 받는다고 밝혔다.", "시는 올해 신청을 받는다고 밝혔다."),  # 안
        ("시는 올해 신청을 못 받는다고 밝혔다.", "시는 올해 신청을 받는다고 밝혔다."),  # 못
        ("시는 올해 추가 예산이 없다고 밝혔다.", "시는 올해 추가 예산이 밝혔다."),  # 없
        ("이번 조치는 규제가 아니라 지원이라고 밝혔다.", "이번 조치는 규제가 지원이라고 밝혔다."),  # 아니
        ("시는 미지급 지원금 480억 원을 집행한다.", "시는 지원금 480억 원을 집행한다."),  # 미-
        ("시는 불법 건축물 20곳을 철거한다.", "시는 건축물 20곳을 철거한다."),  # 불-
        ("시는 비공개 회의에서 예산을 정했다.", "시는 회의에서 예산을 정했다."),  # 비-
    ],
)
def test_a_trim_that_drops_a_negation_is_refused(original: str, trimmed: str) -> None:
    assert not safe(original, trimmed)


def test_a_trim_that_leaves_an_unsupported_number_is_refused() -> None:
    assert not safe(
        "시는 예산 500억 원을 편성해 청년 주거 문제를 해결했다.", "시는 예산 500억 원을 편성했다."
    )


def test_an_empty_or_unchanged_trim_is_not_a_trim() -> None:
    original = "시는 예산 480억 원을 편성했다."
    assert not safe(original, original)
    assert not safe(original, "  ")


def test_deleted_words_names_what_a_subsequence_leaves_out() -> None:
    assert deleted_words(original="가 나 다 라.", trimmed="가 다.") == ["나", "라."]
    assert deleted_words(original="가 나 다.", trimmed="가 마.") is None

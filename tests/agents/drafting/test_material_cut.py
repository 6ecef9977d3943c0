"""Nothing dropped silently: material over what the model reads is cut with a note saying so."""

from __future__ import annotations

from agents.drafting.material import cut_material
from tests.fixtures.press import long_release


def test_text_within_the_limit_is_kept_whole_without_a_note() -> None:
    assert cut_material("짧은 글", 100, name="첨부파일") == ("짧은 글", "")


def test_longer_text_is_cut_at_a_paragraph_and_the_note_says_how_much_and_how_to_choose() -> None:
    text = long_release()

    kept, note = cut_material(text, 5000, name="보도자료.pdf")

    assert len(kept) <= 5000 and text.startswith(kept) and kept.endswith("말했다.")
    assert (
        f"{len(text):,}자" in note and f"{len(kept):,}자" in note and f"{len(text) - len(kept):,}자" in note
    )
    assert "3~10쪽으로" in note and "보도자료.pdf" in note

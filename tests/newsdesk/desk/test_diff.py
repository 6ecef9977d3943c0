"""The word-level diff and the verify-only highlight (pure functions, no database)."""

from __future__ import annotations

from bs4 import BeautifulSoup

from newsdesk.desk.diff import (
    ClaimRef,
    has_changes,
    link_claims,
    render_diff,
    render_highlight,
    tokens,
    word_diff,
)
from tests.fixtures.press import BODY, BODY_WITH_HALLUCINATION, HALLUCINATED_SENTENCE


def ops(old: str, new: str) -> list[tuple[str, str]]:
    return [(s.op, s.text) for s in word_diff(old, new)]


def test_identical_texts_have_no_changes() -> None:
    segments = word_diff(BODY, BODY)

    assert not has_changes(segments)
    assert "".join(s.text for s in segments) == BODY


def test_a_cut_sentence_is_one_deletion_tagged_with_its_sentence_number() -> None:
    segments = word_diff(BODY_WITH_HALLUCINATION, BODY)

    deletions = [s for s in segments if s.op == "delete"]
    assert [(d.text, d.sentence) for d in deletions] == [(HALLUCINATED_SENTENCE, 9)]
    assert not [s for s in segments if s.op == "insert"]


def test_a_trim_deletes_and_inserts_at_word_level() -> None:
    assert ops("예산 480억 원을 편성해 청년 주거를 해결했다.", "예산 480억 원을 편성했다.") == [
        ("equal", "예산 480억 원을 "),
        ("delete", "편성해 청년 주거를 해결했다."),
        ("equal", " "),
        ("insert", "편성했다."),
    ]


def test_words_are_matched_by_themselves_not_by_the_spaces_around_them() -> None:
    assert ops("첫 문장이다. 둘째 문장이다.", "둘째 문장이다.") == [
        ("delete", "첫 문장이다."),
        ("equal", " 둘째 문장이다."),
    ]


def test_a_deletion_never_spans_two_sentences() -> None:
    segments = word_diff("하나다. 둘이다. 셋이다.", "셋이다.")

    assert [(s.text, s.sentence) for s in segments if s.op == "delete"] == [("하나다.", 1), ("둘이다.", 2)]


def test_a_removed_paragraph_keeps_its_break_as_layout() -> None:
    segments = word_diff("첫 문단.\n\n둘째 문단.", "첫 문단.")

    assert [(s.op, s.text) for s in segments] == [("equal", "첫 문단.\n\n"), ("delete", "둘째 문단.")]


def test_tokens_carry_the_guards_sentence_numbers_and_paragraph_breaks() -> None:
    found = tokens("가나 다라. 마바.\n\n사아.")

    assert [(t.text, t.sentence) for t in found] == [
        ("가나", 1),
        ("다라.", 1),
        ("마바.", 2),
        ("\n\n", None),
        ("사아.", 3),
    ]


def test_rendering_links_each_cut_to_its_claims_and_anchors_the_sentence_once() -> None:
    segments = link_claims(word_diff("하나다. 둘은 2개다. 셋이다.", "하나다. 셋이다."), {2: [4, 7]})

    soup = BeautifulSoup(render_diff(segments, anchor_prefix="a1"), "lxml")

    deletion = soup.select_one("del.diff-del")
    assert deletion.get_text() == "둘은 2개다." and deletion["id"] == "a1-s2"
    assert [a["href"] for a in soup.select("sup.claim-refs a")] == ["#a1-c4", "#a1-c7"]


def test_rendering_escapes_everything_it_is_given() -> None:
    html = render_diff(word_diff('<b>굵게</b> "따옴표"', '<script>x()</script> "따옴표"'))

    assert "<script>" not in html and "<b>" not in html
    assert "&lt;script&gt;" in html and "&quot;" in html


def test_the_highlight_marks_flagged_sentences_and_emphasises_each_claim() -> None:
    html = render_highlight(
        "하나다. 예산은 1,500억원이고 내년에 늘린다.\n\n셋이다.",
        {2: [ClaimRef(1, "1,500억원"), ClaimRef(2, "내년")]},
        anchor_prefix="v",
    )

    soup = BeautifulSoup(html, "lxml")
    mark = soup.select_one("mark.flagged")
    assert mark["id"] == "v-s2" and [s.get_text() for s in mark.select("strong")] == ["1,500억원", "내년"]
    assert [a["href"] for a in soup.select("sup a")] == ["#v-c1", "#v-c2"]
    assert soup.get_text() == "하나다. 예산은 1,500억원이고 내년에 늘린다.1 2\n\n셋이다."


def test_the_highlight_escapes_claims_and_text() -> None:
    html = render_highlight("<img src=x onerror=y()> 주장.", {1: [ClaimRef(1, "<img")]}, anchor_prefix="v")

    assert "<img" not in html and "&lt;img" in html


def test_a_long_article_marks_each_cut_sentence_once() -> None:
    # How fast it runs is measured in bench/desk_render.py; here only what it marks.
    old = "\n\n".join([BODY_WITH_HALLUCINATION] * 6)
    new = "\n\n".join([BODY] * 6)

    deletions = [s.text for s in word_diff(old, new) if s.op == "delete"]

    assert deletions == [HALLUCINATED_SENTENCE] * 6

"""Direct quotations, compared by their words only."""

from __future__ import annotations

from agents.verification.guard import extract_facts
from tests.agents.verification.guard.helpers import keys, unsupported


def test_it_keys_a_quote_by_its_words_without_spaces_or_punctuation() -> None:
    assert keys("그는 “규제를 풀겠다”고 말했다.") == ["q:규제를풀겠다"]
    assert keys('그는 "규제를, 풀겠다!"고 말했다.') == ["q:규제를풀겠다"]


def test_it_supports_a_quote_whose_words_appear_in_a_source_with_other_marks_and_spacing() -> None:
    source = '장관은 "규제를  풀겠다. 기업이 살아야 한다"며 말했다.'
    assert unsupported("장관은 “규제를 풀겠다”고 했다.", source) == []
    assert unsupported("장관은 「기업이 살아야 한다」고 했다.", source) == []


def test_it_flags_a_quote_with_one_word_changed() -> None:
    source = "장관은 “규제를 과감히 풀겠다”고 말했다."
    assert unsupported("장관은 “규제를 신속히 풀겠다”고 말했다.", source) == ["“규제를 신속히 풀겠다”"]


def test_it_ignores_short_double_quotes_two_letter_curly_ones_and_short_straight_ones() -> None:
    assert keys("이른바 “K팝” 열풍") == []
    assert keys("이른바 ‘꼼수’ 인상") == []
    assert keys("이른바 '혁신 성장' 전략") == []


def test_it_checks_a_name_in_curly_single_quotes_from_three_letters() -> None:
    source = "감귤 ‘미래향’ 품종의 현장 평가회를 13일 연다. 기존 품종인 ‘황금향’의 장점을 살렸다."
    assert keys("감귤 ‘미래향’ 품종") == ["q:미래향"]
    assert unsupported("감귤 ‘미래향’ 품종과 ‘황금향’을 비교한다.", source) == []
    assert unsupported("감귤 ‘미래과’ 품종의 평가회를 연다.", source) == ["‘미래과’"]


def test_it_treats_long_single_quotes_as_quotes() -> None:
    assert keys("그는 ‘청년이 살아야 나라가 산다’고 했다.") == ["q:청년이살아야나라가산다"]


def test_it_treats_corner_brackets_as_quotes() -> None:
    assert keys("그는 『채식주의자』를 읽었다.") == ["q:채식주의자"]


def test_it_checks_numbers_inside_a_quote_as_numbers_too() -> None:
    facts = extract_facts("그는 “예산 1,200억원을 쓰겠다”고 했다.")
    assert [(f.kind, f.key) for f in facts] == [
        ("quote", "q:예산1200억원을쓰겠다"),
        ("number", "120000000000|원"),
    ]

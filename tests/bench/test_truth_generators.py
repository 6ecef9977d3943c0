"""The property generators tell the truth: a faithful rewrite states the same values, an injected
error states a different one, and the missing-facts judges read a listing as a reporter would."""

from __future__ import annotations

from collections import Counter
from datetime import date
from decimal import Decimal

import pytest

from bench.truth import corpus, inject, rewrite, tables
from bench.truth.figures import find_dates, find_figures
from bench.truth.missing import is_boilerplate, is_fragment, names, wrap
from bench.truth.run import is_factual

CTX = rewrite.Context(date(2024, 3, 25), "release", "seed")
UNIT_WORDS = {"퍼센트": "%", "％": "%", "%포인트": "%p", "퍼센트포인트": "%p", "%P": "%p", "％p": "%p"}


def _values(sentence: str) -> Counter[tuple[Decimal, str]]:
    """(value, unit) of every amount, the unit in one spelling."""
    return Counter(
        (f.value.normalize(), UNIT_WORDS.get(f.unit, f.unit)) for f in find_figures(sentence) if f.unit
    )


@pytest.mark.parametrize(
    ("text", "value", "unit"),
    [
        ("2,867만 8천명", Decimal(28678000), "명"),
        ("1조2000억원", Decimal(1_200_000_000_000), "원"),
        ("12만 3천 명", Decimal(123000), "명"),
        ("30여 명", Decimal(30), "명"),
        ("3.5%p", Decimal("3.5"), "%p"),
        ("1백24억5천만㎾h", Decimal(12_450_000_000), ""),
    ],
)
def test_the_reader_reads_korean_amounts(text: str, value: Decimal, unit: str) -> None:
    figure = find_figures(text)[0]
    assert figure.value == value
    if unit:
        assert figure.unit == unit


def test_a_figure_in_a_range_or_a_code_is_not_free_to_rewrite() -> None:
    assert not any(f.plain for f in find_figures("3~5%"))
    assert not find_figures("PM-2.5 농도")[0].plain
    assert [d.day for d in find_dates("지난 5일 발표했다")] == [5]


def _corpus_sentences() -> list[tuple[str, rewrite.Context]]:
    texts = corpus.sample(corpus.load(), 15)
    out = []
    for text in texts:
        for i, line in enumerate(text.text.split("\n")):
            for sentence in line.split(". "):
                if is_factual(sentence):
                    out.append((sentence, rewrite.Context(text.date, text.kind, f"{text.id}:{i}")))
    return out


SENTENCES = _corpus_sentences()


@pytest.mark.parametrize("kind", ["separators", "magnitude", "percent", "spacing"])
def test_a_format_rewrite_of_a_corpus_sentence_states_the_same_values(kind: str) -> None:
    rewritten = 0
    for sentence, ctx in SENTENCES:
        new = rewrite.KINDS[kind](sentence, ctx)
        if new:
            rewritten += 1
            assert _values(new) == _values(sentence), (sentence, new)
    assert rewritten >= 10


def test_brackets_dropped_keep_every_figure() -> None:
    for sentence, ctx in SENTENCES:
        new = rewrite.brackets(sentence, ctx)
        if new:
            assert _values(new) == _values(sentence), (sentence, new)


def test_rounding_stays_within_the_precision_papers_keep() -> None:
    assert rewrite.rounding("취업자는 2,216,612명이다.", rewrite.Context(None, "news", "a")) in {
        "취업자는 약 222만명이다.",
        "취업자는 221만여명이다.",
        "취업자는 222만명가량이다.",
    }
    # "가량" before a particle that needs a closed syllable would be ungrammatical: not chosen.
    for seed in "abcdefgh":
        new = rewrite.rounding("피해액은 2631억원으로 늘었다.", rewrite.Context(None, "news", seed))
        assert new and "가량으로" not in new.replace("가량으로", "") and "가량로" not in new


def test_hangul_numerals_and_dates_are_rewritten_to_the_same_count_and_day() -> None:
    assert rewrite.native("점포 3곳과 2개월 동안", CTX) == "점포 세 곳과 두 달 동안"
    assert rewrite.native("3년 동안 5% 늘었다", CTX) is None  # Sino counters keep their digits
    assert rewrite.dates("2024년 3월 5일 발표했다", rewrite.Context(date(2024, 3, 25), "news", "x")) in {
        "2024.3.5. 발표했다",
        "3월 5일 발표했다",
        "지난 5일 발표했다",
    }
    assert rewrite.dates("2023년 수출이 늘었다", CTX) == "지난해 수출이 늘었다"
    assert rewrite.lead("수출이 5% 늘었다고 밝혔다.", CTX) == "수출이 5% 늘었다고 25일 밝혔다."


def test_quotations_and_titles_are_never_rewritten() -> None:
    sentence = "통계청은 '2023년 사교육비조사' 결과 2023년 사교육비가 \"3.5% 늘었다\"고 밝혔다."
    for kind, new in rewrite.rewrites(sentence, CTX).items():
        assert "'2023년 사교육비조사'" in new and '"3.5% 늘었다"' in new, kind


def test_a_table_row_becomes_one_sentence_per_cell() -> None:
    table = "(단위: 톤/년)\n구 분\tPM-2.5\tSOx\n2016\t69,768\t313,210"
    assert [tables.sentence(cell) for cell in tables.cells(table)] == [
        "2016년 PM-2.5는 69,768톤으로 집계됐다.",
        "2016년 SOx는 313,210톤으로 집계됐다.",
    ]


def test_every_injection_states_something_the_sentence_did_not() -> None:
    text = "수출은 3.5% 늘어 2,867만 8천명이 일했고, 수입은 2.1%였다. 지난 5일 발표했다."
    src = inject.source_of(text)
    sentence = "수출은 3.5% 늘어 2,867만 8천명이 일했고, 수입은 2.1%였다."
    for kind, injector in inject.KINDS.items():
        result = injector(sentence, src, CTX)
        if result is None:
            continue
        mutated, _ = result
        assert mutated != sentence, kind
        if kind in ("digit", "unit", "added"):
            assert _values(mutated) != _values(sentence), kind
        if kind in ("swap", "before_after", "total_part", "subject"):
            assert _values(mutated) == _values(sentence), kind  # same figures, other places
    assert inject.direction("매출은 3.5% 증가했다", src, CTX) == ("매출은 3.5% 감소했다", "증가 → 감소")
    assert inject.hangul("점포 3곳", src, CTX) == ("점포 세 곳", ("점포 네 곳", "세 → 네"))


def test_an_added_percentage_is_not_a_rounding_of_one_the_text_gives() -> None:
    src = inject.source_of("수출은 8.3% 늘었다.")
    for seed in "abcdefghij":
        result = inject.added("수출이 늘었다.", src, rewrite.Context(None, "news", seed))
        assert result is not None
        value = Decimal(result[1].split()[1].rstrip("%"))
        assert abs(value - Decimal("8.3")) >= 1


@pytest.mark.parametrize(
    "listed",
    [
        "또한",
        "12세",
        "→ (‘21) 503억원",
        "있기 때문으로 해석된다.",
        "첫 5000만 원대를",
        "전년대비 0.5% 감소했으나",
        "수도권은 경기지역(경기도 전월대비 2,852호 증가)의",
        "승인 금액 증가율은 작년 동기와 올해 1분기",
    ],
)
def test_fragments_are_judged_fragments(listed: str) -> None:
    assert is_fragment(listed)


@pytest.mark.parametrize(
    "listed",
    [
        "월별 출생아 수는 14개월째 감소세를",
        "물가는 3% 올랐다",
        "지방은 9만 7630호로",
        "공항별로는 대구(118.9%)",
        "내·외국인 관광객 1,420만 명이",
        "벼 재배면적 감소와 병충해 피해 영향으로 올해 쌀 생산량이 지난해보다 크게 줄었습니다.",
    ],
)
def test_a_clause_with_its_subject_is_not_a_fragment(listed: str) -> None:
    assert not is_fragment(listed)


def test_every_line_of_a_release_frame_is_boilerplate_and_the_text_is_not() -> None:
    framed = wrap("수출은 3.5% 늘었다.", source="통계청", day=date(2024, 3, 5), seed=7)
    lines = [line for line in framed.splitlines() if line.strip()]
    assert [is_boilerplate(line) for line in lines] == [True, True, False, True, True, True, True]
    assert is_boilerplate("(서울=연합뉴스) 김철수 기자 = 수출이 늘었다")
    assert not is_boilerplate("2024년 3월 5일 발표한 수출은 3.5% 늘었다")


def test_a_listed_fact_names_a_removed_sentence_by_its_figures_or_its_words() -> None:
    removed = "농가소득은 2023년 5082만8000원으로 첫 5000만 원대를 돌파했다."
    assert names("농가소득은 2023년 5082만8000원으로", removed)
    assert not names("농업소득은 960만원으로", removed)
    assert names("첫 5000만 원대를 돌파했다", "농가소득이 첫 5000만 원대를 돌파했다")


@pytest.mark.parametrize(
    ("table", "kind", "sentence"),
    [
        (
            "(단위: 억원)\n구분\t2022\t2023\n수출\t6,836\t6,322",
            "unit-line",
            "2023년 수출은 6322억 원으로 집계됐다.",
        ),
        (
            "구분\t출생아(명)\t사망자(명)\n서울\t39,000\t45,000",
            "header",
            "서울 출생아는 39,000명으로 집계됐다.",
        ),
        (
            "구분\t2022\t2023\n수출(억 달러)\t6,836\t6,322",
            "row-label",
            "2023년 수출은 6322억 달러로 집계됐다.",
        ),
        ("구분\n2012년\n2013년\n인원\n2,052명\n2,139명", "own", "2013년 인원은 2,139명으로 집계됐다."),
        (
            "구분 |\n모집인원 |\n경쟁률 |\n일반전형 |\n611 |\n3.66 : 1 |",
            "ratio",
            "일반전형 경쟁률은 3.66대 1로 집계됐다.",
        ),
        ("강수량(mm): 봄(250.1), 겨울(28.1)", "label-value", "겨울 강수량은 28.1mm로 집계됐다."),
        (
            "구분 | 2024년 | 증감률 |\n사회복지 | 477,206 | 9.70% |",
            "percent",
            "사회복지 증감률은 9.70%로 집계됐다.",
        ),
    ],
)
def test_a_table_cell_becomes_a_sentence_with_the_unit_its_table_gives(
    table: str, kind: str, sentence: str
) -> None:
    found = tables.cells(table)
    assert sentence in [tables.sentence(c) for c in found if c.kind == kind]


def test_a_table_with_no_unit_for_its_cells_gives_no_sentence() -> None:
    assert tables.cells("구분\t2022\t2023\n수출\t6,836\t6,322") == []  # no unit anywhere
    assert tables.cells("(단위: 억원, 명)\n구분\t2022\n수출\t6,836") == []  # which unit is a guess


def test_table_errors_change_the_cell_or_take_another_cell_of_the_row() -> None:
    text = "(단위: 억원)\n구분\t2022\t2023\n수출\t6,836\t6,322"
    found = tables.cells(text)
    wrong = tables.changed(found[1], text, "seed")
    assert wrong and wrong != tables.sentence(found[1]) and wrong.startswith("2023년 수출은 632")
    swapped = tables.swapped(found, "seed")
    assert swapped and swapped[1] in (
        "2022년 수출은 6322억 원으로 집계됐다.",
        "2023년 수출은 6836억 원으로 집계됐다.",
    )

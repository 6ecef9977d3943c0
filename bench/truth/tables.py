"""Tables as pages carry them, read cell by cell, and each cell written as an article sentence.

A cell is generated only where the table says which unit it has: a "(단위: 억원)" line above the
table, a unit in its column's header ("비율(%)") or in its row's label ("수출액(억 달러)"), the
cell's own unit ("1,926명", "5.67%", "3.66 : 1"), or the series label of "label(unit) : (1위) 270,
(2위) 252" and "강수량(mm): 봄(250.1), 겨울(28.1)". A table whose rows do not line up with its
header, or whose unit line names several units the row does not choose between, gives no cell: a
sentence written from a guess would be a wrong case.

Table forms read: rows of cells apart by tabs, by "|" or by two or more spaces; a cell a line (a
table flattened from HTML, each line ending " |", or an HWP release's table, each cell a short line
after a "구분" line).
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from decimal import Decimal

from bench.truth import forms
from bench.truth.rewrite import _batchim

_UNIT_LINE = re.compile(r"단위\s*[:：]\s*([^)\]\n]+?)\s*(?:[)\]]|$)", re.MULTILINE)
_SCALES = {
    "천": Decimal(1000),
    "백만": Decimal(10) ** 6,
    "만": Decimal(10) ** 4,
    "억": Decimal(10) ** 8,
    "조": Decimal(10) ** 12,
}
_UNITS = ("억 달러", "달러", "원", "명", "건", "톤", "개소", "개", "곳", "가구", "세대", "mm", "㎜", "℃", "%")
_NUMBER = r"\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?"
_CELL = re.compile(rf"(?P<num>{_NUMBER})\s?(?P<unit>%|명|건|개소|개|곳|원|톤)?")
_RATIO = re.compile(rf"(?P<num>{_NUMBER})\s?:\s?1")
_NEGATIVE = re.compile(r"^[△∆▲▽▼-]|^\(")
_YEAR = re.compile(r"^(?:(?:19|20)\d{2}|[’‘']\d{2})(?:년|\.)?(?:\s?\d{1,2}\.)?(?:\s?(?:안|예산|년안))?$")
_LABEL_UNIT = re.compile(r"\((?P<unit>[^()\d]{1,8})\)")


@dataclass(frozen=True)
class Cell:
    row: str  # the row's label ("피해금액", "2016")
    column: str  # the column's header ("’22년", "PM-2.5")
    written: str  # the cell as the table writes it
    number: str  # its figure's digits as written ("69,768")
    value: Decimal  # in the unit below
    unit: str  # "원", "명", "%", "대 1", ...
    kind: str  # where the unit came from: a key of KINDS


# What tells the cell its unit, as the bench reports it.
KINDS = {
    "unit-line": 'a "(단위: …)" line',
    "header": 'a header cell "(명)"',
    "row-label": 'the row label "수출(억 달러)"',
    "own": 'the cell\'s own unit "1,926명"',
    "percent": "percentages",
    "ratio": 'ratios "3.66 : 1" ↔ "3.66대 1"',
    "label-value": 'label(value) cells "겨울(28.1)"',
}


def cells(text: str) -> list[Cell]:
    """Every cell of the text's tables whose unit the table states, in text order."""
    found: list[Cell] = []
    for rows, unit_line in _tables(text):
        header, group = rows[0], ""
        for row in rows[1:]:
            count = next((k for k, c in enumerate(row) if k and _numeric(c)), len(row))
            labels, values = row[:count], row[count:]  # the first cell is a label, a year too
            if not labels or not values or not all(map(_numeric, values)) or len(values) >= len(header):
                continue
            if len(labels) > 1:
                group = labels[0]  # a label spanning rows ("계 | 건수", then "사망")
            elif group and len(values) + 1 < len(header):
                labels = [group, *labels]
            label = " ".join(labels)
            for column, written in zip(header[-len(values) :], values, strict=True):
                cell = _cell(label, column, written, unit_line)
                if cell:
                    found.append(cell)
    return found + _series(text)


def _tables(text: str) -> list[tuple[list[list[str]], list[tuple[Decimal, str]] | None]]:
    """(rows, the unit line's units) of each table; the first row is the header."""
    lines = text.splitlines()
    tables = []
    i = 0
    while i < len(lines):
        block, j = _block(lines, i)
        if len(block) >= 2:
            units = _unit_line(lines[max(0, i - 3) : i + 1])
            tables.append((block, units))
            i = j
        else:
            i += 1
    return tables


def _block(lines: list[str], i: int) -> tuple[list[list[str]], int]:
    """The table starting at line i and the line after it: rows of split cells, or one cell a line."""
    if re.fullmatch(r"[-|: ]+", lines[i].strip()):
        return [], i + 1  # a Markdown rule under a header is no header of its own
    row = _split(lines[i])
    if not row and lines[i].strip().count(" ") >= 2 and not re.search(r"[|\t]|\s{2}", lines[i].strip()):
        return _spaced(lines, i)
    if len(row) >= 3 and not any(_numeric(c) and not _YEAR.match(c) for c in row[1:]):
        rows, j = [row], i + 1
        while j < len(lines) and len(cells := _split(lines[j])) >= 2:
            if not re.fullmatch(r"[-|: ]+", lines[j]):
                rows.append(cells)
            j += 1
        return rows, j
    if _one_cell(lines[i]) and re.fullmatch(r"\|?\s*구\s?분\s*\|?", lines[i].strip()):
        j = i
        stream = []
        while j < len(lines) and _one_cell(lines[j]):
            stream.append(lines[j].strip().strip("|").strip())
            j += 1
        return _rows_of(stream), j
    return [], i + 1


def _spaced(lines: list[str], i: int) -> tuple[list[list[str]], int]:
    """Cells apart by single spaces: a row is its label (its words up to the first figure) and
    figures only; the header a corner and a word a column ("구분 2022 2023"), or words grouped up
    to each unit label ("소속기관 비율(%) 읍면동 비율(%)"), as many as the first row's figures."""
    words = lines[i].split()
    if any(_numeric(w) and not _YEAR.match(w) for w in words[1:]) or i + 1 >= len(lines):
        return [], i + 1
    width = len(_labelled(lines[i + 1])) - 1
    groups, since = [], 0
    for k, word in enumerate(words):
        if _LABEL_UNIT.search(word):
            groups.append(" ".join(words[since : k + 1]))
            since = k + 1
    if len(words) - 1 == width:
        header = words
    elif since == len(words) and len(groups) == width:
        header = ["", *groups]
    else:
        return [], i + 1
    rows, j = [header], i + 1
    while j < len(lines) and len(cells := _labelled(lines[j])) == len(header):
        rows.append(cells)
        j += 1
    return rows, j


def _labelled(line: str) -> list[str]:
    words = line.split()
    count = next((k for k, w in enumerate(words) if k and _numeric(w)), len(words))
    figures = words[count:]
    if not count or not figures or not all(map(_numeric, figures)):
        return []
    return [" ".join(words[:count]), *figures]


def _split(line: str) -> list[str]:
    if "\t" in line:
        parts = line.split("\t")
    elif line.count("|") >= 2:
        parts = line.strip().strip("|").split("|")
    else:
        parts = re.split(r"\s{2,}", line.strip())
    cells = [p.strip() for p in parts]
    while cells and not cells[-1]:
        cells.pop()
    return cells if len(cells) >= 2 and all(cells) else []


def _one_cell(line: str) -> bool:
    """A line that is one cell: short, and no sentence."""
    cell = line.strip().strip("|").strip()
    return bool(cell) and len(cell) <= 24 and not re.search(r"[다음함임]\.?$|[.?!]$", cell)


def _rows_of(stream: list[str]) -> list[list[str]]:
    """Cells one a line back into rows. The header runs up to the first row's labels: that row's
    labels and its run of numbers fill the header's width, or one more where a group label spans
    rows ("계 | 건수 | 1,251 | …" under "구분 | 2018년 | …"). Every row has as many numbers."""
    width = next((k for k, c in enumerate(stream) if _numeric(c) and not _YEAR.match(c)), 0)
    count = 0
    while width + count < len(stream) and _numeric(stream[width + count]):
        count += 1
    labels = next((n for n in (1, 2) if width - n == n + count or width - n + 1 == n + count), 0)
    if not labels or width - labels < 2:
        return []
    rows, row = [stream[: width - labels]], []
    for cell in stream[width - labels :]:
        if _numeric(cell) and not (_YEAR.match(cell) and not row):
            row.append(cell)
            if sum(map(_numeric, row)) == count:
                rows.append(row)
                row = []
        elif row and _numeric(row[-1]):
            break  # a row ended short: the rest is no longer this table
        else:
            row.append(cell)
    return rows


def _numeric(cell: str) -> bool:
    cell = cell.strip()
    return bool(re.fullmatch(rf"[△∆▲▽▼(+-]?\s?(?:{_NUMBER})\s?(?:%p?|명|건|개소|개|곳|원|톤|: ?1)?\)?", cell))


def _unit_line(lines: list[str]) -> list[tuple[Decimal, str]] | None:
    for line in reversed(lines):
        m = _UNIT_LINE.search(line)
        if m:
            units = [_unit(part) for part in re.split(r"[,/·]", m.group(1).removesuffix("/년"))]
            return [u for u in units if u]
    return None


def _unit(written: str) -> tuple[Decimal, str] | None:
    """ "백만원" → (10^6, 원); "천 톤" → (1000, 톤); "%" → (1, %); what no article writes → None."""
    spec = written.strip().replace(" ", "")
    for word, size in _SCALES.items():
        if spec.startswith(word) and spec[len(word) :]:
            rest = _unit(spec[len(word) :])
            return (size * rest[0], rest[1]) if rest else None
    spec = {"억달러": "억 달러", "㎜": "mm"}.get(spec, spec)
    return (Decimal(1), spec) if spec in _UNITS else None


def _cell(row: str, column: str, written: str, unit_line: list[tuple[Decimal, str]] | None) -> Cell | None:
    if _NEGATIVE.match(written):
        return None  # a fall written △ or in brackets is not a figure an article restates as is
    ratio = _RATIO.fullmatch(written)
    if ratio:
        return Cell(row, column, written, ratio["num"], _decimal(ratio["num"]), "대 1", "ratio")
    m = _CELL.fullmatch(written)
    if not m:
        return None
    value = _decimal(m["num"])
    if m["unit"]:
        kind = "percent" if m["unit"] == "%" else "own"
        return Cell(row, column, written, m["num"], value, m["unit"], kind)
    for label, kind in ((column, "header"), (row, "row-label")):
        unit = _label_unit(label)
        if unit:
            return Cell(_bare(row), _bare(column), written, m["num"], value * unit[0], unit[1], kind)
    unit = _of_line(unit_line or [], row, column)
    if unit:
        kind = "percent" if unit[1] == "%" else "unit-line"
        return Cell(row, column, written, m["num"], value * unit[0], unit[1], kind)
    return None


_RATE = re.compile(r"(?:률|율|비율|비중|구성비)(?:\(|$)")


def _of_line(units: list[tuple[Decimal, str]], row: str, column: str) -> tuple[Decimal, str] | None:
    """The unit line's unit of this cell: its only one, or with several ("건, %") the % of a rate's
    row or column ("비율", "증감률") and the one other unit of every other cell."""
    if len(units) == 1:
        return units[0]
    rate = bool(_RATE.search(row) or _RATE.search(column))
    percent = [u for u in units if u[1] == "%"]
    others = [u for u in units if u[1] not in ("%", "%p")]
    if rate:
        return percent[0] if percent else None
    return others[0] if len(others) == 1 else None


def _label_unit(label: str) -> tuple[Decimal, str] | None:
    m = _LABEL_UNIT.search(label)
    return _unit(m["unit"]) if m else None


def _bare(label: str) -> str:
    return _LABEL_UNIT.sub("", label).strip()


def _decimal(number: str) -> Decimal:
    return Decimal(number.replace(",", ""))


# "역대 1분기 수출액(억 달러) : (1위) 270(’21.1Q), (2위) 252" and "강수량(mm): 봄(250.1), 겨울(28.1)"
_SERIES = re.compile(
    r"(?P<label>[가-힣][^\n:：(]{0,30}?)\s?\((?P<unit>[^()\d\n]{1,8})\)\s?[:：](?P<rest>[^\n]+)"
)
_RANKED = re.compile(rf"\((?P<key>\d{{1,2}}위|[’‘']?\d{{2,4}}년?)\)\s?(?P<num>{_NUMBER})(?![\d.]|,\d)")
_LABELLED = re.compile(rf"(?P<key>[가-힣]{{1,8}})\s?\((?P<num>{_NUMBER})\)")


def _series(text: str) -> list[Cell]:
    found = []
    for m in _SERIES.finditer(text):
        unit = _unit(m["unit"])
        if not unit:
            continue
        label = m["label"].strip().lstrip("*※ ").strip()
        for item in _RANKED.finditer(m["rest"]):
            value = _decimal(item["num"]) * unit[0]
            found.append(Cell(label, item["key"], item.group(), item["num"], value, unit[1], "row-label"))
        for item in _LABELLED.finditer(m["rest"]):
            value = _decimal(item["num"]) * unit[0]
            found.append(Cell(item["key"], label, item.group(), item["num"], value, unit[1], "label-value"))
    return found


# --- cells written as article sentences --------------------------------------------------------


def sentence(cell: Cell, value: Decimal | None = None) -> str:
    """ "2023년 환급률은 26.1%로 집계됐다.": the cell's time label first, then its subject."""
    when, what = (cell.column, cell.row) if _YEAR.match(cell.column) else (cell.row, cell.column)
    if re.fullmatch(r"(?:19|20)\d{2}", when):
        when += "년"
    amount = _amount(value if value is not None else cell.value, cell)
    subject = f"{when} {what}".strip()
    return f"{subject}{_topic(subject)} {amount}{_ro(amount)} 집계됐다."


def _amount(value: Decimal, cell: Cell) -> str:
    """The value as papers write it: the table's own digits where no scale applies ("69,768톤"),
    만/억 groups where one does ("9417억 원"), "3.66대 1" for a ratio."""
    if cell.unit == "대 1":
        return f"{_plain(value)}대 1"
    if _decimal(cell.number) == cell.value:  # no scale: write it as the table does
        return forms.digits(value, comma="," in cell.number and value >= 1000) + cell.unit
    gap = " " if cell.unit in ("원", "달러", "억 달러") else ""
    return forms.amount(value) + gap + cell.unit


def _plain(value: Decimal) -> str:
    return forms.digits(value, comma=value >= 1000 and value == value.to_integral_value())


def _topic(word: str) -> str:
    return "는" if not _batchim(word) else "은"


def _ro(word: str) -> str:
    final = _batchim(word)
    return "로" if final in (None, 0, 8) else "으로"


# --- errors a table invites ----------------------------------------------------------------------


def changed(cell: Cell, text: str, seed: str) -> str | None:
    """The cell's sentence with its last digit changed, to a figure the text never writes."""
    rng = random.Random(seed)
    digits = cell.number.replace(",", "")
    scale = cell.value / _decimal(digits) if _decimal(digits) else Decimal(1)
    for step in rng.sample(range(1, 10), 9):
        new = _decimal(digits[:-1] + str((int(digits[-1]) + step) % 10))
        if new and not _written(new, text):
            return sentence(cell, new * scale)
    return None


def swapped(row: list[Cell], seed: str) -> tuple[Cell, str] | None:
    """One cell's sentence with the value of another cell of its row (same unit, another value)."""
    rng = random.Random(seed)
    pairs = [(a, b) for a in row for b in row if a is not b and a.unit == b.unit and a.value != b.value]
    if not pairs:
        return None
    a, b = rng.choice(pairs)
    return a, sentence(a, b.value)


def _written(value: Decimal, text: str) -> bool:
    """Whether the text writes this figure anywhere, as a whole number of its own."""
    plain = re.escape(forms.digits(value, comma=False))
    return bool(re.search(rf"(?<![\d.]){plain}(?![\d]|\.\d)", text.replace(",", "")))


def rows(found: list[Cell]) -> list[list[Cell]]:
    """Cells grouped by their row label, in text order."""
    grouped: dict[str, list[Cell]] = {}
    for cell in found:
        grouped.setdefault(cell.row, []).append(cell)
    return list(grouped.values())

"""A source's tables read as tables: each cell with its row's label and its column's header.

A figure of a table is a fact about two things at once, its row ("환급률", "일반회계") and its
column ("’22년", "2025 예산"). The number index finds the value anywhere in the source; this module
tells where in a table it stands, so that an article sentence which names a column (or a row) of
that table and gives it the figure of another column (or row) is caught: "’22년 환급률은 22.8%"
where the table has 22.8 under ’18년 and 26.1 under ’22년.

Tables are read in the forms pages carry them: rows of cells apart by tabs, by "|" or by runs of
two or more spaces; a cell a line (a table flattened from HTML, each line ending " |", or an HWP
release's table after a "구분" line); and series lines, "수출액(억 달러) : (’20년) 512, (’21년) 644".
A row that does not line up with its header is left out: a cell whose header is a guess would
make a wrong verdict.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import lru_cache

_GAPS = re.compile(r"[^\S\n]{2,}|[^\S\n ]")  # what the guard's reading makes one space
_NUMBER = r"\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?"
_FIGURE = re.compile(rf"[△∆▲▽▼(+-]{{0,2}}\s?(?:{_NUMBER})\s?(?:%p?|명|건|개소|개|곳|원|톤|: ?1)?\)?")
_YEAR_CELL = re.compile(r"(?:(?:19|20)\d{2}|[’‘']\d{2})(?:년|\.)?(?:\s?\d{1,2}\.)?(?:\s?(?:안|예산|년안))?")
_CORNER = re.compile(r"\|?\s*구\s?분\s*\|?")
_SERIES_MARK = re.compile(r"\([^()\d\n]{1,8}\)\s?[:：]")
_SERIES_LABEL = re.compile(r"[가-힣][^\n:：(]{0,30}?(?=\s?$)")
_KEYED = re.compile(rf"\((?P<key>[’‘']?\d{{2,4}}년?)\)\s?(?P<num>{_NUMBER})(?![\d.]|,\d)")
_LABELLED = re.compile(rf"(?P<key>[가-힣]{{1,8}})\s?\((?P<num>{_NUMBER})\)")
# A year the sentence names: "2023년", "2025 예산", "’22년"; never the digits of an amount ("2052명").
_YEARS = re.compile(r"(?<![\d.,])(?:(?P<full>(?:19|20)\d{2})|[’‘'](?P<short>\d{2}))(?=년|\.|\s|$|[)’,])")
_HEADER_CHARS = 120
_ROW_CHARS = 400  # a longer line is prose, never a row of a table apart by single spaces
_ROW = re.compile(r"\d[\d,.]* +[△∆-]?\d")  # two figures side by side
_UNIT_LABEL = re.compile(r"\([^()\d]{1,8}\)$")
_WORDS = re.compile(r"[가-힣]{2,}|[A-Za-z][A-Za-z0-9.\-]*")


@dataclass(frozen=True)
class Cell:
    start: int  # the cell's figure, in the source text
    end: int
    row: str
    column: str
    table: int  # which table of the text it belongs to
    number: str  # the figure as written


@lru_cache(maxsize=64)
def read(raw: str) -> tuple[Cell, ...]:
    """Every cell of the source's tables that lines up with its header and its row's label, at
    its place in the source as the guard reads it: with each run of spaces and tabs made one
    space. The tables are read before that, while tabs and runs of spaces still part the cells."""
    found: list[Cell] = []
    for k, rows in enumerate(_tables(raw)):
        found += _cells(rows, k)
    runs = [(m.start(), m.end()) for m in _GAPS.finditer(raw)]
    ends, removed, total = [e for _, e in runs], [], 0
    for start, end in runs:
        total += end - start - 1
        removed.append(total)

    def spaced(position: int) -> int:
        k = bisect_right(ends, position)
        return position - (removed[k - 1] if k else 0)

    return tuple(replace(c, start=spaced(c.start), end=spaced(c.start) + (c.end - c.start)) for c in found)


def _at(cells: Sequence[Cell], start: int) -> Cell | None:
    return next((c for c in cells if c.start <= start < c.end), None)


Span = tuple[int, int, str]  # a cell's start, end and text


def _tables(text: str) -> list[list[list[Span]]]:
    lines = [(m.start(), m.group()) for m in re.finditer(r"[^\n]+", text)]
    tables: list[list[list[Span]]] = []
    i = 0
    while i < len(lines):
        rows, i = _block(lines, i)
        if len(rows) >= 2:
            tables.append(rows)
    tables += _series(text)
    return tables


def _block(lines: list[tuple[int, str]], i: int) -> tuple[list[list[Span]], int]:
    """The table starting at line i, and the line after it."""
    line, parted = lines[i][1], _parted(lines[i][1])
    if re.fullmatch(r"[-|: ]+", line.strip()):
        return [], i + 1  # a Markdown rule under a header is no header of its own
    # A line of prose is no header: a header apart by single spaces is short, over a row of figures.
    header = parted or (len(line) <= _HEADER_CHARS and i + 1 < len(lines) and _ROW.search(lines[i + 1][1]))
    row = _split(*lines[i]) if header else []
    if len(row) >= 3 and not any(_figure(c[2]) and not _YEAR_CELL.fullmatch(c[2]) for c in row[1:]):
        if not parted:
            return _spaced_rows(lines, i, row)
        rows, j = [row], i + 1
        while j < len(lines) and len(cells := _split(*lines[j])) >= 2:
            if not re.fullmatch(r"[-|: ]+", lines[j][1]):
                rows.append(cells)
            j += 1
        return rows, j
    if _CORNER.fullmatch(lines[i][1].strip()):
        stream, j = [], i
        while j < len(lines) and _one_cell(lines[j][1]):
            stream.append(_stripped(*lines[j]))
            j += 1
        return _rows_of(stream), j
    return [], i + 1


def _spaced_rows(lines: list[tuple[int, str]], i: int, words: list[Span]) -> tuple[list[list[Span]], int]:
    """Cells apart by single spaces are words as well as cells. A row is its label (the words up to
    its first figure) and then figures only; the header is a corner and a word a column ("구분 2022
    2023"), or words grouped up to each unit label ("소속기관 비율(%) 읍면동 비율(%)"), whichever
    gives as many columns as the first row has figures. The block ends at a row that has not."""
    below = lines[i + 1] if i + 1 < len(lines) else (0, "")
    first = _labelled(_split(*below)) if len(below[1]) <= _ROW_CHARS else []
    width = len(first) - 1
    groups = _grouped(words)
    if len(words) - 1 == width:
        header = words
    elif len(groups) == width:
        header = [(words[0][0], words[0][0], ""), *groups]
    else:
        return [], i + 1
    rows, j = [header], i + 1
    while j < len(lines) and len(cells := _labelled(_split(*lines[j]))) == len(header):
        rows.append(cells)
        j += 1
    return rows, j


def _grouped(words: list[Span]) -> list[Span]:
    """Words joined up to each one that ends in a unit label; [] where a word is left over."""
    groups, since = [], 0
    for k, word in enumerate(words):
        if _UNIT_LABEL.search(word[2]):
            groups.append(_joined(words[since : k + 1]))
            since = k + 1
    return groups if since == len(words) else []


def _labelled(words: list[Span]) -> list[Span]:
    """A row of words as its label, then its figures; [] where a word follows the first figure."""
    count = next((k for k, w in enumerate(words) if k and _figure(w[2])), len(words))
    figures = words[count:]
    if not count or not figures or not all(_figure(w[2]) for w in figures):
        return []
    return [_joined(words[:count]), *figures]


def _joined(words: list[Span]) -> Span:
    return words[0][0], words[-1][1], " ".join(w[2] for w in words)


def _parted(line: str) -> bool:
    """Whether the line parts its cells by more than a single space."""
    return "\t" in line or line.count("|") >= 2 or "  " in line.strip()


def _split(offset: int, line: str) -> list[Span]:
    if "\t" in line:
        pattern = r"[^\t]+"
    elif line.count("|") >= 2:
        pattern = r"[^|]+"
    elif _parted(line):
        pattern = r"\S+(?: \S+)*"
    else:
        pattern = r"\S+"
    cells = [_stripped(offset + m.start(), m.group()) for m in re.finditer(pattern, line)]
    cells = [c for c in cells if c[2]]
    return cells if len(cells) >= 2 else []


def _stripped(offset: int, cell: str) -> Span:
    body = cell.strip().strip("|").strip()
    start = offset + cell.find(body) if body else offset
    return start, start + len(body), body


def _one_cell(line: str) -> bool:
    cell = line.strip().strip("|").strip()
    return bool(cell) and len(cell) <= 24 and not re.search(r"[다음함임]\.?$|[.?!]$", cell)


def _figure(cell: str) -> bool:
    return bool(_FIGURE.fullmatch(cell.strip()))


def _rows_of(stream: list[Span]) -> list[list[Span]]:
    """Cells one a line back into rows: the header runs up to the first row's labels, whose run of
    figures fills the header's width (or one more, where a group label spans rows)."""
    width = next((k for k, c in enumerate(stream) if _figure(c[2]) and not _YEAR_CELL.fullmatch(c[2])), 0)
    count = 0
    while width + count < len(stream) and _figure(stream[width + count][2]):
        count += 1
    labels = next((n for n in (1, 2) if width - n in (n + count, n + count - 1)), 0)
    if not labels or width - labels < 2:
        return []
    rows: list[list[Span]] = [stream[: width - labels]]
    row: list[Span] = []
    for cell in stream[width - labels :]:
        if _figure(cell[2]) and not (_YEAR_CELL.fullmatch(cell[2]) and not row):
            row.append(cell)
            if sum(_figure(c[2]) for c in row) == count:
                rows.append(row)
                row = []
        elif row and _figure(row[-1][2]):
            break  # a row ended short: the rest is no longer this table
        else:
            row.append(cell)
    return rows


def _cells(rows: list[list[Span]], table: int) -> list[Cell]:
    header, group, found = rows[0], "", []
    for row in rows[1:]:
        count = next((k for k, c in enumerate(row) if k and _figure(c[2])), len(row))
        labels, values = [c[2] for c in row[:count]], row[count:]
        if not values or not all(_figure(c[2]) for c in values) or len(values) >= len(header):
            continue
        if len(labels) > 1:
            group = labels[0]  # a label spanning rows ("계 | 건수", then "사망")
        elif group and len(values) + 1 < len(header):
            labels = [group, *labels]
        label = " ".join(labels)
        for column, (start, end, number) in zip(header[-len(values) :], values, strict=True):
            found.append(Cell(start, end, label, column[2], table, number))
    return found


def _series(text: str) -> list[list[list[Span]]]:
    """ "수출액(억 달러) : (’20년) 512, (’21년) 644": a row keyed by years; "강수량(mm): 봄(250.1),
    겨울(28.1)": a column keyed by labels, each label(value) a row of its own."""
    found = []
    for mark in _SERIES_MARK.finditer(text):
        # Found by its "(unit) :" first: a pattern opening at the label would be tried at every word.
        line = text.rfind("\n", 0, mark.start()) + 1
        named = _SERIES_LABEL.search(text, max(line, mark.start() - 32), mark.start())
        if not named:
            continue
        end = text.find("\n", mark.end())
        offset, rest = mark.end(), text[mark.end() : end if end >= 0 else len(text)]
        label: Span = (named.start(), named.end(), named.group().strip().lstrip("*※ "))
        corner: Span = (named.start(), named.start(), "")
        keyed = list(_KEYED.finditer(rest))
        if len(keyed) >= 2:
            header = [corner, *(_span(offset, k, "key") for k in keyed)]
            found.append([header, [label, *(_span(offset, k, "num") for k in keyed)]])
        labelled = list(_LABELLED.finditer(rest))
        if len(labelled) >= 2:
            rows = ([_span(offset, k, "key"), _span(offset, k, "num")] for k in labelled)
            found.append([[corner, label], *rows])
    return found


def _span(offset: int, match: re.Match[str], group: str) -> Span:
    return offset + match.start(group), offset + match.end(group), match[group]


# --- what an article sentence names of a table --------------------------------------------------


def years(text: str) -> frozenset[int]:
    named = set()
    for m in _YEARS.finditer(text):
        named.add(int(m["full"]) if m["full"] else 2000 + int(m["short"]))
    return frozenset(named)


def names(sentence: str, label: str) -> bool:
    """Whether the sentence names this header or row label: its years, and its words."""
    wanted, words = years(label + " "), _WORDS.findall(re.sub(r"[’‘']?\d{2,4}년?", " ", label))
    if not wanted and not words:
        return False
    flat = sentence.replace(" ", "")
    return wanted <= years(sentence) and all(w in flat for w in words)


def misplaced(sentence: str, cells: Sequence[Cell], starts: Sequence[int]) -> Cell | None:
    """The cell the sentence asks for, where every source mention of its value (at `starts`) is a
    table cell (of `cells`, one source's) whose column or row the sentence contradicts: it names
    another column (or row) of that table, and the table's cell there holds another figure. None
    wherever a mention fits, stands outside a table, or the asked-for cell is not one cell."""
    asked = None
    for start in starts:
        cell = _at(cells, start)
        if cell is None:
            return None  # stated in prose, or in a table this reader does not line up
        table = [c for c in cells if c.table == cell.table]
        columns = {c.column for c in table if names(sentence, c.column)}
        rows = {c.row for c in table if names(sentence, c.row)}
        fits_column = not columns or cell.column in columns
        fits_row = not rows or cell.row in rows
        if fits_column and fits_row:
            return None
        wanted_columns = {cell.column} if fits_column else columns
        wanted_rows = {cell.row} if fits_row else rows
        target = [c for c in table if c.column in wanted_columns and c.row in wanted_rows]
        if len(target) != 1 or _digits(target[0].number) == _digits(cell.number):
            return None
        asked = target[0]
    return asked


def _digits(number: str) -> str:
    return re.sub(r"[^\d.]", "", number)

"""How well the embargo reader reads real release header lines, against a naive baseline.

    python bench/embargo_eval.py

The lines: bench/data/embargo/lines.jsonl, header lines of public Korean government releases, each
with the address it was read from, the release's date and the moment it may be published as a
reader of the line would state it (or null: "배포 즉시", or no embargo stated). A line is read with
the release's date as the reference day. The data is split by the hash of its address, the same way
as the property corpus (bench.truth.corpus.is_frozen): a third frozen, held out from tuning.

Also: how often each reader finds an embargo in the texts of the property corpus
(bench/data/corpus/texts.jsonl), which state none (their release headers were not kept): a false
embargo would hold a reporter's article back for nothing.

The baseline is what a first attempt looks like: the first line that mentions 보도 and has a full
date with a time, read as that date and time; no line, no embargo.
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from agents.facts.embargo import KST, read_embargo
from bench.truth.corpus import PARTS, load, part_of

LINES = Path(__file__).parent / "data" / "embargo" / "lines.jsonl"
_NAIVE = re.compile(r"(\d{4})\.\s*(\d{1,2})\.\s*(\d{1,2})\.?[^0-9]*?(\d{1,2}):(\d{2})")

Reader = Callable[[str, date], datetime | None]


@dataclass(frozen=True)
class Line:
    url: str
    line: str
    release_date: date
    expected: datetime | None

    @property
    def part(self) -> str:
        return part_of(self.url)


def load_lines(path: Path = LINES) -> list[Line]:
    lines = []
    for raw_line in path.read_text(encoding="utf-8").splitlines():
        if raw_line.strip():
            raw = json.loads(raw_line)
            expected = datetime.fromisoformat(raw["expected_until"]) if raw["expected_until"] else None
            lines.append(Line(raw["url"], raw["line"], date.fromisoformat(raw["release_date"]), expected))
    return lines


def reader(text: str, reference: date) -> datetime | None:
    embargo = read_embargo(text, reference=reference)
    return embargo.until if embargo else None


def baseline(text: str, reference: date) -> datetime | None:
    for line in text.splitlines():
        match = _NAIVE.search(line) if "보도" in line else None
        if match:
            year, month, day, hour, minute = (int(g) for g in match.groups())
            try:
                return datetime(year, month, day, hour, minute, tzinfo=KST)
            except ValueError:
                return None
    return None


def accuracy(read: Reader, lines: list[Line]) -> tuple[int, int]:
    right = sum(1 for item in lines if read(item.line, item.release_date) == item.expected)
    return right, len(lines)


def false_embargoes(read: Reader) -> tuple[int, int]:
    texts = load()
    found = sum(1 for text in texts if read(text.text, text.date or date(2024, 1, 1)) is not None)
    return found, len(texts)


def main() -> None:
    lines = load_lines()
    print(f"embargo lines: {len(lines)} from {len({item.url for item in lines})} releases")
    for part in (*PARTS, "all"):
        chosen = [item for item in lines if part in ("all", item.part)]
        ours, theirs = accuracy(reader, chosen), accuracy(baseline, chosen)
        print(f"  {part:7} reader {ours[0]}/{ours[1]}   baseline {theirs[0]}/{theirs[1]}")
    ours, theirs = false_embargoes(reader), false_embargoes(baseline)
    print(f"false embargo in corpus texts: reader {ours[0]}/{ours[1]}   baseline {theirs[0]}/{theirs[1]}")
    for item in lines:
        got = reader(item.line, item.release_date)
        if got != item.expected:
            print(f"  MISS {item.line!r}: read {got}, expected {item.expected}")


if __name__ == "__main__":
    main()

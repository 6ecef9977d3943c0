"""No code line cites a document outside the repository ("v1-spec §8", "seed 4.5", "issue 9",
"ARCHITECTURE 6.3", "lesson 12", a commit of another repository): a reader cannot follow such a
reference, so the line states the rule itself. Markdown documents are free to cite."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SUFFIXES = (".py", ".txt", ".html", ".js", ".css", ".toml", ".yaml", ".cfg", ".example")
CITATION = re.compile(
    r"""
      §                                   # a section sign: "v1-spec §8", "§19"
    | \bARCHITECTURE\b
    | \bv1-spec\b | \breference/ | \bseeds/
    | \bseed(?:\s+(?:\d|")|'s\b|\s+plan\b) # "seed 4.5", "seed "Verification Step"", "the seed's …"
    | \bissues?\s+\#?\d                   # "issue 9", "issue 10's"
    | \blessons?\s+\d | \bv1\s+lessons?\b  # "lesson 12", "v1 lessons"
    | \bv1\s+[0-9a-f]{7}\b                # a commit of v1's repository
    | \bsection\s+\d+(?:\.\d+)*           # "section 11.2"
    """,
    re.VERBOSE,
)


def code_files() -> list[Path]:
    listed = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True)
    return [
        ROOT / name
        for name in listed.stdout.split()
        if name.endswith(SUFFIXES) and not name.startswith("bench/data/") and "/migrations/" not in name
    ]


def citations(text: str) -> list[tuple[int, str]]:
    return [
        (number, line.strip()) for number, line in enumerate(text.splitlines(), 1) if CITATION.search(line)
    ]


def test_no_code_line_cites_a_document_outside_the_repository() -> None:
    files = code_files()
    found = [
        f"{path.relative_to(ROOT)}:{number}: {line}"
        for path in files
        for number, line in citations(path.read_text(encoding="utf-8"))
        if path.resolve() != Path(__file__).resolve()
    ]

    assert len(files) > 300
    assert not found, "\n".join(found)


def test_the_rule_sees_each_kind_of_citation_and_leaves_ordinary_words_alone() -> None:
    cited = [
        "(v1-spec §8)",
        "see §19",
        "The JSON API (ARCHITECTURE 6.3)",
        "The writing agent (seed 4.5)",
        'Verification (seed "Verification Step")',
        "the seed's format",
        "(issue 9, safe trims)",
        "the README's table (issue 10's done when)",
        "instead of failing (v1 lesson 12)",
        "# per command (v1 bfbb000)",
        "The seed's routing table (section 11.2)",
    ]
    plain = [
        "pages = [press_page(seed) for seed in range(PAGES)]",
        'env={"PYTHONHASHSEED": str(seed)}',
        "operations = [migrations.RunPython(seed, unseed)]",
        "a fact the guard found is not an issue",
        "v1 wiped the /check history when keywords changed",
    ]

    assert [line for line in cited if not CITATION.search(line)] == []
    assert [line for line in plain if CITATION.search(line)] == []

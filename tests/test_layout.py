"""The layout a newcomer reads: no product file past 400 lines (split it by subject), and only a
few modules loose at the top of agents/ (its doors and its app wiring); the rest lives in a
package named for its subject."""

from __future__ import annotations

import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PRODUCT = ("agents/", "newsdesk/", "conversations/", "styles/", "templates/", "static/")
MAX_LINES = 400
MAX_LOOSE_IN_AGENTS = 12


def product_files() -> list[Path]:
    listed = subprocess.run(
        ["git", "ls-files", *PRODUCT], cwd=ROOT, capture_output=True, text=True, check=True
    )
    return [ROOT / name for name in listed.stdout.split() if "/migrations/" not in name]


def test_no_product_file_is_longer_than_400_lines() -> None:
    files = product_files()
    long = {
        str(path.relative_to(ROOT)): lines
        for path in files
        if path.suffix in (".py", ".html", ".js", ".css", ".txt")
        and (lines := len(path.read_text(encoding="utf-8").splitlines())) > MAX_LINES
    }

    assert len(files) > 200
    assert long == {}


def test_at_most_twelve_modules_are_loose_at_the_top_of_agents() -> None:
    loose = sorted(path.name for path in (ROOT / "agents").glob("*.py"))

    assert len(loose) <= MAX_LOOSE_IN_AGENTS, loose
    assert {"services", "models", "work", "llm", "verification"} <= {
        path.name for path in (ROOT / "agents").iterdir() if (path / "__init__.py").is_file()
    }

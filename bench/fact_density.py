"""How many checkable facts published articles carry per 100 characters, per department.

    python bench/fact_density.py            # prints the table from bench/data/density/articles.json
    python bench/fact_density.py --collect SRC.json   # (re)measures articles given as JSON

The articles are real published Korean news (outlet, URL, title and date in the data file). Their
text is not stored here (it is the outlets' copyright): `--collect` reads a local JSON list of
{department, outlet, url, title, date, text}, counts each text's distinct facts with the same code
the thin-input guard uses (agents.facts.density) and stores only the counts and the facts found. The
figures feed agents.facts.density.DENSITY; the table printed here goes in docs/verification.md.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from statistics import median

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import _django

_django.setup()

from agents.facts import density  # noqa: E402
from agents.verification.guard import extract_facts  # noqa: E402

DATA = Path(__file__).parent / "data" / "density" / "articles.json"
DEPARTMENT_ORDER = ["사회부", "정치부", "경제부", "산업부", "테크부", "문화부", "스포츠부", "국제부"]
NOTICE = (
    "서울 마포구는 12월 1일부터 내년 2월 28일까지 망원한강공원 야외 썰매장을 운영한다. "
    "운영 시간은 오전 10시부터 오후 5시까지이며 입장료는 2000원이다. 만 4세 이상 어린이가 이용할 수 있고 "
    "하루 4회차로 나눠 회차당 300명까지 받는다. 문의는 구청 체육진흥과(02-3153-8000)."
)


def collect(source: Path) -> None:
    """Counts the given articles and stores them with the rows already there (same URL: replaced)."""
    given = json.loads(source.read_text())
    urls = {item["url"] for item in given}
    kept = [row for row in json.loads(DATA.read_text()) if row["url"] not in urls] if DATA.exists() else []
    rows = []
    for item in given:
        text = item["text"]
        facts = sorted({fact.key for fact in extract_facts(text)})
        chars = len(text.replace("\n", ""))
        rows.append(
            {
                **{k: item[k] for k in ("department", "outlet", "url", "title", "date")},
                "chars": chars,
                "facts": facts,
            }
        )
    rows = sorted(kept + rows, key=lambda row: DEPARTMENT_ORDER.index(row["department"]))
    DATA.parent.mkdir(parents=True, exist_ok=True)
    DATA.write_text(json.dumps(rows, ensure_ascii=False, indent=1) + "\n")
    print(f"stored {len(rows)} articles ({len(given)} given) in {DATA}")


def table() -> dict[str, float]:
    rows = json.loads(DATA.read_text())
    by_department: dict[str, list[float]] = {}
    for row in rows:
        by_department.setdefault(row["department"], []).append(100 * len(row["facts"]) / row["chars"])
    print(f"{'department':<8} {'articles':>8} {'facts/100 chars (median)':>26} {'min':>6} {'max':>6}")
    figures = {}
    for department, values in by_department.items():
        figures[department] = round(median(values), 2)
        low, high = min(values), max(values)
        print(f"{department:<8} {len(values):>8} {figures[department]:>26.2f} {low:>6.2f} {high:>6.2f}")
    overall = round(median(v for values in by_department.values() for v in values), 2)
    print(f"{'all':<8} {len(rows):>8} {overall:>26.2f}")
    return figures


def notice_example(figures: dict[str, float]) -> None:
    facts = density.distinct_facts(NOTICE)
    print(
        f"\nexample: a {len(NOTICE)}-character notice with {facts} distinct facts, asked for 1,500 characters"
    )
    for department in ("사회부", "문화부", "경제부"):
        rate = figures.get(department, 0.0)
        supportable = round(facts / rate * 100, -1) if rate else 0
        print(f"  {department}: supports about {supportable:.0f} characters (before the guard: all 1,500)")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--collect", type=Path, help="JSON list of articles with their text")
    args = parser.parse_args()
    if args.collect:
        collect(args.collect)
    notice_example(table())

"""The day a release is announced, as an article's lead writes it: "…라고 25일 밝혔다".

A release rarely states its own date in its text, and an article's lead always does: where no source
states its announcement day, the day before an announcing verb is confirmed when it is the
release's date (the reference date).
"""

from __future__ import annotations

import re
from datetime import date

from agents.verification.guard.dates import DateHit

# The verbs a lead announces with, right after the day ("25일 밝혔다", "25일 오후 발표했다").
_ANNOUNCING = re.compile(
    r"\s?(?:오전|오후|낮|밤)?\s?(?:밝혔|밝히|발표했|발표한|발표하|발표됐|공개했|공개한|전했|말했|알렸|내놨|내놓"
    r"|발간했|발간한|펴냈|배포했|공표했|설명했|브리핑)"
)


def announces(text: str, hit: DateHit) -> bool:
    """Whether the date is a day written before an announcing verb: "1일 밝혔다"."""
    return any(name == "d" for name, _ in hit.stated) and bool(_ANNOUNCING.match(text, hit.end))


def announcement_day(text: str, hit: DateHit, reference: date | None) -> bool:
    """Whether the date is the reference day, written before an announcing verb; the caller asks
    only where no source states its own announcement day."""
    if reference is None or not announces(text, hit):
        return False
    stated = dict(hit.stated)
    wanted = {"d": reference.day, "m": reference.month, "y": reference.year}
    return "d" in stated and all(stated[k] == v for k, v in wanted.items() if k in stated)

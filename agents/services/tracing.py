"""What an article rests on and what it leaves out, stored with every revision.

`source` numbers in the provenance index `Article.source_material`: the press release comes first
when there is one, then the other sources in the order the article was checked against them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from agents.keyfacts import missing_facts
from agents.provenance import attribute


def traced(*, headline: str, body: str, material: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """The `provenance` and `missing_facts` fields of an Article with this body and material."""
    texts = [str(doc.get("text", "")) for doc in material]
    release = next((str(d.get("text", "")) for d in material if d.get("kind") == "press_release"), "")
    missing = missing_facts(release=release, headline=headline, body=body) if release else []
    return {
        "provenance": attribute(body=body, sources=texts),
        "missing_facts": [fact.to_json() for fact in missing],
    }

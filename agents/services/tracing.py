"""What an article rests on and what it leaves out, stored with every revision.

`source` numbers in the provenance index `Article.source_material`: the press release comes first
when there is one, then the other sources in the order the article was checked against them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from agents.facts.keyfacts import missing_facts
from agents.facts.provenance import attribute


def traced(*, headline: str, body: str, material: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """The `provenance` and `missing_facts` fields of an Article with this body and material."""
    texts = [str(doc.get("text", "")) for doc in material]
    doc = next((d for d in material if d.get("kind") == "press_release"), None)
    release = str(doc.get("text", "")) if doc else ""
    listed = list(doc.get("key_facts", [])) if doc else []
    missing = missing_facts(release=release, headline=headline, body=body, listed=listed) if release else []
    return {
        "provenance": attribute(body=body, sources=texts),
        "missing_facts": [fact.to_json() for fact in missing],
    }


def with_key_facts(*, material: list[dict[str, Any]], listed: list[dict[str, str]]) -> list[dict[str, Any]]:
    """`material` with the key facts the model submitted with the article stored on the press
    release (edits inherit them with the material); unchanged when it listed none."""
    doc = next((d for d in material if d.get("kind") == "press_release"), None)
    if doc is None or not listed:
        return material
    return [{**d, "key_facts": listed} if d is doc else d for d in material]

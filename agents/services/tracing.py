"""What an article rests on and what it leaves out, stored with every revision.

`source` numbers in the provenance index `Article.source_material`: the press release comes first
when there is one, then the other sources in the order the article was checked against them. Every
span also names its source's `kind` (and an article's `outlet`), and a sentence resting only on
another outlet's article is credited to it before the article is saved (agents.facts.attribution).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from agents import messages as msg
from agents.facts.attribution import credit_outlets, with_kinds
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
        "provenance": with_kinds(attribute(body=body, sources=texts), material),
        "missing_facts": [fact.to_json() for fact in missing],
    }


def with_key_facts(*, material: list[dict[str, Any]], listed: list[dict[str, str]]) -> list[dict[str, Any]]:
    """`material` with the key facts the model submitted with the article stored on the press
    release (edits inherit them with the material); unchanged when it listed none."""
    doc = next((d for d in material if d.get("kind") == "press_release"), None)
    if doc is None or not listed:
        return material
    return [{**d, "key_facts": listed} if d is doc else d for d in material]


def outlets_credited(*, body: str, material: Sequence[dict[str, Any]], warnings: list[str]) -> str:
    """The body with every sentence that rests only on another outlet's article credited to it;
    what was credited, or could not be, is said in `warnings` (the reporter reads it)."""
    result = credit_outlets(body=body, material=material)
    if result.credited:
        warnings.append(msg.OUTLETS_CREDITED.format(count=len(result.credited)))
    warnings.extend(msg.OUTLET_UNCREDITED.format(sentence=text[:80]) for text in result.flagged)
    return result.body

"""What kind of source each sentence rests on, and crediting the outlet of another paper's reporting.

Every provenance span names the kind of its source (`press_release`, `attachment`, `article`,
`search`) and, for another outlet's article, that `outlet`. A sentence that rests only on other
outlets' articles would read like our own reporting, so after writing, code credits it: the
sentence gets "<outlet>에 따르면 " in front unless it already names the outlet or attributes the
claim ("…에 따르면", "…가 보도했다"). A sentence that the reporter's own material (release,
file, conversation) also supports is not credited: it does not rest *only* on the article.
Pure Python: no Django, no LLM.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from agents.facts.provenance import Segment, figures, segments, spans_for
from agents.verification.guard import join_sentences, split_sentences

# The stored material kinds, as a span's kind: the conversation context is text the reporter gave,
# like a pasted release.
SPAN_KIND = {
    "press_release": "press_release",
    "context": "press_release",
    "attachment": "attachment",
    "article": "article",
    "search": "search",
}
OUTLET_KINDS = frozenset({"article", "search"})
# "…에 따르면", "…에 의하면", "…가 보도했다", "…의 보도": the claim is already someone's.
_ATTRIBUTED = re.compile(r"에 따르면|에 의하면|보도")
_PREFIXABLE = re.compile(r"^[\w“\"‘']")


def source_kind(doc: Mapping[str, Any]) -> str:
    return SPAN_KIND.get(str(doc.get("kind", "")), "press_release")


def source_outlet(doc: Mapping[str, Any]) -> str:
    """The outlet of an article source; rows stored before `outlet` existed carry it in the title
    ("<outlet> | <title>")."""
    if source_kind(doc) not in OUTLET_KINDS:
        return ""
    outlet = str(doc.get("outlet") or "")
    if not outlet and " | " in str(doc.get("title", "")):
        outlet = str(doc["title"]).split(" | ", 1)[0]
    return outlet.strip()


def with_kinds(
    provenance: Sequence[Mapping[str, Any]], material: Sequence[Mapping[str, Any]]
) -> list[dict[str, Any]]:
    """The provenance with `kind` (and, for articles, `outlet`) on every span."""
    rows = []
    for row in provenance:
        spans = []
        for span in row.get("spans", []):
            number = int(span["source"])
            doc = material[number] if 0 <= number < len(material) else {}
            spans.append({**span, **_kind_fields(doc)})
        rows.append({**row, "spans": spans})
    return rows


def _kind_fields(doc: Mapping[str, Any]) -> dict[str, str]:
    kind = source_kind(doc)
    return {"kind": kind, "outlet": source_outlet(doc)} if kind in OUTLET_KINDS else {"kind": kind}


@dataclass
class Credited:
    """The body with outlets credited; `credited` and `flagged` hold the sentences' texts."""

    body: str
    credited: list[str] = field(default_factory=list)
    flagged: list[str] = field(default_factory=list)


def credit_outlets(*, body: str, material: Sequence[Mapping[str, Any]]) -> Credited:
    """Prefixes "<outlet>에 따르면 " to every sentence that rests only on other outlets' articles
    and neither names them nor attributes its claim; a sentence that cannot take a prefix (it
    opens with a bracket, a dash…) is left as written and flagged for the reporter."""
    texts = [str(doc.get("text", "")) for doc in material]
    pool = segments(texts)
    outlets_of = {n: source_outlet(doc) for n, doc in enumerate(material) if source_outlet(doc)}
    own = [s for s in pool if s.source not in outlets_of]
    result = Credited(body=body)
    if not outlets_of:
        return result
    sentences = split_sentences(body)
    for number, sentence in enumerate(sentences):
        outlets = outlets_only(sentence.text, pool=pool, own=own, outlets_of=outlets_of)
        if not outlets or already_credited(sentence.text, outlets):
            continue
        if not _PREFIXABLE.match(sentence.text):
            result.flagged.append(sentence.text)
            continue
        sentences[number] = replace(sentence, text=f"{credit_phrase(outlets)} {sentence.text}")
        result.credited.append(sentences[number].text)
    if result.credited:
        result.body = join_sentences(sentences)
    return result


def outlets_only(
    sentence: str, *, pool: Sequence[Segment], own: Sequence[Segment], outlets_of: Mapping[int, str]
) -> list[str]:
    """The outlets a sentence rests on when it rests on nothing else; [] otherwise."""
    spans = spans_for(sentence, pool)
    if not spans or any(s.source not in outlets_of for s in spans):
        return []
    if _supported(sentence, own):
        return []
    return list(dict.fromkeys(outlets_of[s.source] for s in spans))


def _supported(sentence: str, own: Sequence[Segment]) -> bool:
    """Whether the reporter's own material alone carries the sentence: every figure of it somewhere
    in that material (a figure sentence may gather more segments than provenance lists), or for a
    sentence without figures, wording close enough for provenance to point there."""
    wanted = figures(sentence)
    if wanted:
        return wanted <= frozenset().union(*(figures(s.text) for s in own))
    return bool(spans_for(sentence, own))


def already_credited(sentence: str, outlets: Sequence[str]) -> bool:
    return bool(_ATTRIBUTED.search(sentence)) or any(outlet in sentence for outlet in outlets)


def credit_phrase(outlets: Sequence[str]) -> str:
    """ "연합뉴스에 따르면" for one outlet; "연합뉴스·한겨레 보도에 따르면" for several."""
    if len(outlets) == 1:
        return f"{outlets[0]}에 따르면"
    return f"{'·'.join(outlets)} 보도에 따르면"

"""Word-level diff of two article bodies, and the highlighted article of the verify-only check.

Deletions carry the 1-based sentence of the old text they come from (numbered as verification
numbers them), so the page can link each cut to the claims that caused it. All HTML is built with format_html:
the texts are model and reporter output and must stay inert.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from difflib import SequenceMatcher
from typing import Literal

from django.utils.html import escape, format_html, format_html_join
from django.utils.safestring import SafeString

from agents import selectors

Op = Literal["equal", "delete", "insert"]
PARAGRAPH = "\n\n"
_WORD_OR_BREAK = re.compile(r"\n\n|\S+")


@dataclass(frozen=True)
class Token:
    text: str  # a word, or PARAGRAPH
    sentence: int | None  # 1-based sentence of the text it was read from; None for a break


@dataclass
class Segment:
    op: Op
    text: str
    sentence: int | None = None  # for deletions: the old sentence it was cut from
    claims: tuple[int, ...] = ()  # claim numbers (rows of the claims table) behind a deletion


@dataclass(frozen=True)
class ClaimRef:
    number: int  # its row in the claims table, 1-based
    claim: str


@dataclass
class _Builder:
    segments: list[Segment] = field(default_factory=list)
    last: Token | None = None

    def add(self, op: Op, token: Token) -> None:
        sentence = token.sentence if op == "delete" else None
        if token.text == PARAGRAPH:
            # A paragraph break is layout: shown as a break whichever side it came from.
            self._append("equal", PARAGRAPH, None)
        elif self.last is None or self.last.text == PARAGRAPH:
            self._append(op, token.text, sentence)
        elif self._continues(op, sentence):
            self._append(op, " " + token.text, sentence)
        else:
            # The space between two differently marked words stays unmarked.
            self._append("equal", " ", None)
            self._append(op, token.text, sentence)
        self.last = token

    def _continues(self, op: Op, sentence: int | None) -> bool:
        tail = self.segments[-1] if self.segments else None
        return tail is not None and tail.op == op and tail.sentence == sentence

    def _append(self, op: Op, text: str, sentence: int | None) -> None:
        if self._continues(op, sentence):
            self.segments[-1].text += text
        else:
            self.segments.append(Segment(op, text, sentence))


def tokens(text: str) -> list[Token]:
    """Words of the normalised body with their sentence numbers, paragraph breaks as tokens."""
    body = selectors.body_normalized(body=text)
    starts: list[int] = []
    numbers: list[int] = []
    position = 0
    for sentence in selectors.body_sentences(body=body):
        # split → join round-trips exactly, so each sentence is found at or after the last one.
        start = body.find(sentence.text, position)
        starts.append(start)
        numbers.append(sentence.index)
        position = start + len(sentence.text)
    found: list[Token] = []
    for match in _WORD_OR_BREAK.finditer(body):
        if match.group() == PARAGRAPH:
            found.append(Token(PARAGRAPH, None))
            continue
        at = bisect.bisect_right(starts, match.start()) - 1
        found.append(Token(match.group(), numbers[at] if at >= 0 else None))
    return found


def word_diff(old: str, new: str) -> list[Segment]:
    """Segments that turn `old` into `new`, at word level; a deletion never spans two sentences."""
    before, after = tokens(old), tokens(new)
    # autojunk would treat common words of a long article as noise and produce odd matches.
    matcher = SequenceMatcher(None, [t.text for t in before], [t.text for t in after], autojunk=False)
    builder = _Builder()
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            for token in after[j1:j2]:
                builder.add("equal", token)
            continue
        for token in before[i1:i2]:
            if tag == "replace" and token.text == PARAGRAPH:
                continue  # the new side's breaks give the layout; both would double the gap
            builder.add("delete", token)
        for token in after[j1:j2]:
            builder.add("insert", token)
    return builder.segments


def link_claims(segments: Sequence[Segment], by_sentence: Mapping[int, Sequence[int]]) -> list[Segment]:
    """Attaches to each deletion the claim numbers recorded against its sentence."""
    for segment in segments:
        if segment.op == "delete" and segment.sentence is not None:
            segment.claims = tuple(by_sentence.get(segment.sentence, ()))
    return list(segments)


def has_changes(segments: Sequence[Segment]) -> bool:
    return any(segment.op != "equal" for segment in segments)


def render_diff(segments: Sequence[Segment], *, anchor_prefix: str = "") -> SafeString:
    """<del>/<ins> markup; the first cut of each sentence gets an id the claims table links to."""
    anchored: set[int] = set()
    parts: list[SafeString] = []
    for segment in segments:
        if segment.op == "equal":
            parts.append(escape(segment.text))
        elif segment.op == "insert":
            parts.append(format_html('<ins class="diff-ins">{}</ins>', segment.text))
        else:
            parts.append(_deletion(segment, anchored, anchor_prefix))
    return concat(parts)


def concat(parts: Sequence[SafeString | str]) -> SafeString:
    """Joins markup pieces; plain strings among them are escaped."""
    return format_html_join("", "{}", ((part,) for part in parts))


def _deletion(segment: Segment, anchored: set[int], prefix: str) -> SafeString:
    anchor = SafeString("")
    if prefix and segment.sentence is not None and segment.sentence not in anchored:
        anchored.add(segment.sentence)
        anchor = format_html(' id="{}-s{}"', prefix, segment.sentence)
    refs = claim_links(segment.claims, anchor_prefix=prefix)
    return format_html('<del class="diff-del"{}>{}</del>{}', anchor, segment.text, refs)


def claim_links(numbers: Sequence[int], *, anchor_prefix: str) -> SafeString:
    """Superscript links to rows of the claims table (ids "<prefix>-c<number>")."""
    if not numbers:
        return SafeString("")
    links = format_html_join(
        " ",
        '<a class="claim-ref" href="#{}-c{}">{}</a>',
        ((anchor_prefix, number, number) for number in numbers),
    )
    return format_html('<sup class="claim-refs">{}</sup>', links)


# --- the verify-only highlight ---------------------------------------------------------------
def render_highlight(
    text: str,
    flagged: Mapping[int, Sequence[ClaimRef]],
    *,
    anchor_prefix: str,
    marked: Mapping[int, Sequence[ClaimRef]] | None = None,
) -> SafeString:
    """The article sentence by sentence; flagged sentences marked, their claims emphasised and linked.
    Sentences kept with a claim to check ("확인 필요") are marked apart: they stay in the article."""
    parts: list[SafeString] = []
    paragraph = None
    for sentence in selectors.body_sentences(body=text):
        if paragraph is not None:
            parts.append(escape(PARAGRAPH if sentence.paragraph != paragraph else " "))
        paragraph = sentence.paragraph
        claims = flagged.get(sentence.index)
        css = "flagged"
        if not claims and marked:
            claims, css = marked.get(sentence.index), "suspect"
        if not claims:
            parts.append(escape(sentence.text))
            continue
        inner = concat(list(_emphasise(sentence.text, [c.claim for c in claims])))
        parts.append(
            format_html(
                '<mark class="{}" id="{}-s{}">{}</mark>{}',
                css,
                anchor_prefix,
                sentence.index,
                inner,
                claim_links([c.number for c in claims], anchor_prefix=anchor_prefix),
            )
        )
    return concat(parts)


def _emphasise(sentence: str, claims: Sequence[str]) -> Iterator[SafeString]:
    """The sentence with every occurrence of a claim's text in <strong>, overlaps merged."""
    spans: list[tuple[int, int]] = []
    for claim in {c.strip() for c in claims if c.strip()}:
        start = sentence.find(claim)
        while start != -1:
            spans.append((start, start + len(claim)))
            start = sentence.find(claim, start + len(claim))
    position = 0
    for start, end in _merged(spans):
        yield escape(sentence[position:start])
        yield format_html("<strong>{}</strong>", sentence[start:end])
        position = end
    yield escape(sentence[position:])


def _merged(spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    merged: list[tuple[int, int]] = []
    for start, end in sorted(spans):
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], end))
        else:
            merged.append((start, end))
    return merged

"""House-style lint: rules are data (regular expressions with a suggestion), checked in code.

A rule matches a span of the body; it can be muted inside direct quotations (a source's own
words are not the reporter's fault), muted when its sentence names a source (`unless`), and
limited to overuse (`min_count`: only reported when the body has at least that many matches,
and then every match after the first is listed). `replacement`, when set, is what "고쳐줘"
writes in place of the match (a `re` template, so groups may be reused); a rule without one
needs rewording, which is left to the edit model with the hit as its instruction.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass
from functools import lru_cache
from typing import Any

# Straight and curly double quotes; single quotes mark emphasis or titles in Korean news, so
# they do not mute a rule.
_QUOTED = re.compile(r"\"[^\"\n]*\"|“[^”\n]*”")
_SENTENCE_END = re.compile(r"(?<=[.?!])\s+|\n+")
_FIX_REQUEST = re.compile(
    r"^\s*(?:(?:표기|표현|문체|린트|스타일|지적(?:된|한)?\s*(?:것|부분|사항)?|전부|다|모두)\s*)*"
    r"고쳐\s*(?:줘|주세요|줄래|달라)[.!~\s]*$"
)


_PARTICLES = {"이": "가", "가": "이", "을": "를", "를": "을", "은": "는", "는": "은", "과": "와", "와": "과"}
_PARTICLE = re.compile(r"([이가을를은는과와])(?![가-힣])")


@dataclass(frozen=True)
class Rule:
    name: str
    pattern: str
    suggestion: str
    replacement: str | None = None
    unless: str = ""
    min_count: int = 1
    skip_in_quotes: bool = False


@dataclass(frozen=True)
class Hit:
    rule: str
    text: str
    start: int
    end: int
    suggestion: str
    replacement: str | None = None

    def as_json(self) -> dict[str, Any]:
        """The API shape (`lint: [{rule, text, start, end, suggestion}]`)."""
        data = asdict(self)
        data.pop("replacement")
        return data


@lru_cache(maxsize=512)
def compiled(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern)


def pattern_error(pattern: str) -> str | None:
    """Why an editor's pattern cannot be used, or None."""
    try:
        found = re.compile(pattern)
    except re.error as exc:
        return str(exc)
    return "빈 문자열과 일치하는 패턴은 쓸 수 없습니다" if found.search("") else None


def replacement_error(pattern: str, replacement: str) -> str | None:
    """Why a replacement template cannot be used with its pattern (e.g. a missing group), or None."""
    try:
        found = re.compile(pattern)
        if any(int(n) > found.groups for n in re.findall(r"\\(\d+)", replacement)):
            return "패턴에 없는 그룹을 씁니다"
        found.sub(replacement, "")
    except re.error as exc:
        return str(exc)
    return None


def forbidden_rules(expressions: Iterable[str], *, guide_label: str) -> list[Rule]:
    """Rules from a style guide's `forbidden[]`.

    Entries are written for people: "~것으로 알려졌다" (a tilde for "any stem") and
    "업계 최초(확인되지 않은 경우)" (a condition code cannot judge), so the tilde and the
    parenthesis are dropped and the condition is repeated in the suggestion.
    """
    rules = []
    for expression in expressions:
        condition = re.search(r"\(([^)]*)\)\s*$", expression)
        core = re.sub(r"\([^)]*\)\s*$", "", expression).strip().lstrip("~").strip()
        if len(core) < 2:
            continue  # a one-letter expression would flag half the article
        note = f" ({condition.group(1)})" if condition else ""
        rules.append(
            Rule(
                name=f"{guide_label} 금지 표현",
                pattern=re.escape(core),
                suggestion=f"'{core}'은(는) {guide_label} 금지 표현입니다{note}: 빼거나 사실로 바꾸세요",
                skip_in_quotes=True,  # a source's own words, quoted, are not the reporter's
            )
        )
    return rules


def lint_text(*, body: str, rules: Sequence[Rule]) -> list[Hit]:
    """Every hit of every rule in `body`, in reading order, overlapping hits dropped
    (the earlier rule in `rules` wins a tie)."""
    quoted = [m.span() for m in _QUOTED.finditer(body)]
    found: list[tuple[int, int, Hit]] = []
    for order, rule in enumerate(rules):
        matches = [m for m in compiled(rule.pattern).finditer(body) if m.end() > m.start()]
        if rule.skip_in_quotes:
            matches = [m for m in matches if not _inside(m.span(), quoted)]
        if rule.unless:
            matches = [m for m in matches if not compiled(rule.unless).search(_sentence_at(body, m.start()))]
        if len(matches) < rule.min_count:
            continue
        if rule.min_count > 1:
            matches = matches[1:]  # overuse: the first use is fine, the repeats are the fault
        for m in matches:
            replacement = m.expand(rule.replacement) if rule.replacement is not None else None
            found.append(
                (
                    m.start(),
                    order,
                    Hit(rule.name, m.group(0), m.start(), m.end(), rule.suggestion, replacement),
                )
            )
    kept: list[Hit] = []
    for _, _, hit in sorted(found, key=lambda item: (item[0], item[1])):
        if not kept or hit.start >= kept[-1].end:
            kept.append(hit)
    return kept


def apply_fixes(*, body: str, hits: Sequence[Hit]) -> str:
    """The body with every mechanical fix applied (hits without a replacement are left alone)."""
    out, cursor = [], 0
    for hit in sorted(hits, key=lambda h: h.start):
        if hit.replacement is None or hit.start < cursor:
            continue
        out += [body[cursor : hit.start], hit.replacement]
        cursor = hit.end
        particle = _PARTICLE.match(body, cursor)
        before, after = _has_final(hit.text), _has_final(hit.replacement)
        if particle and None not in (before, after) and before != after:
            # "리스크가" → "위험이": a noun swapped for one with(out) a final consonant takes
            # the other form of its particle.
            out.append(_PARTICLES[particle.group(1)])
            cursor = particle.end(1)
    out.append(body[cursor:])
    return "".join(out)


def is_fix_request(instruction: str) -> bool:
    """ "고쳐줘" alone (or "표기 고쳐줘", "다 고쳐 주세요"): apply the lint list, nothing else."""
    return bool(_FIX_REQUEST.match(instruction))


def position_label(body: str, offset: int) -> str:
    """Where a hit is, as a reporter counts: paragraph and character within it (1-based)."""
    before = body[:offset]
    paragraph = before.count("\n\n") + 1 if "\n\n" in body else before.count("\n") + 1
    line_start = max(before.rfind("\n"), -1) + 1
    return f"{paragraph}문단 {offset - line_start + 1}번째 글자"


def _has_final(text: str) -> bool | None:
    """Whether the last syllable has a final consonant; None when it is not Hangul."""
    if not text or not "가" <= text[-1] <= "힣":
        return None
    return (ord(text[-1]) - 0xAC00) % 28 != 0


def _inside(span: tuple[int, int], regions: Sequence[tuple[int, int]]) -> bool:
    return any(start <= span[0] and span[1] <= end for start, end in regions)


def _sentence_at(body: str, offset: int) -> str:
    start = 0
    for boundary in _SENTENCE_END.finditer(body):
        if boundary.start() >= offset:
            return body[start : boundary.start()]
        start = boundary.end()
    return body[start:]

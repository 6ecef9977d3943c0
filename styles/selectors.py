from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Q
from pydantic import ValidationError

from styles.defaults import DEPARTMENT_GUIDES, FALLBACK_GUIDE
from styles.guide import StyleGuide
from styles.lint import Hit, Rule, forbidden_rules, lint_text, pattern_error
from styles.models import LintRule, WritingStyle

EXAMPLE_PROMPT_CHARS = 1500  # per example in the prompt: enough to show the voice, cheap to send
BUILTIN = "builtin"
# Most specific first; a publisher's style for this department beats its all-departments one.
_RANK = {"reporter": 0, "publisher-department": 1, "publisher": 2, "department": 3}


@dataclass(frozen=True)
class ResolvedStyle:
    """The style a draft is written in, and where it came from (recorded on the article)."""

    guide: StyleGuide
    scope: str  # reporter | publisher | department | builtin
    label: str  # for people: "경제부 기본", "한겨레", "기자 맞춤", "경제부 기본(내장)"
    publisher: str = ""
    examples: tuple[str, ...] = ()

    def as_prompt(self) -> str:
        text = self.guide.as_prompt()
        for number, example in enumerate(self.examples, start=1):
            clipped = example[:EXAMPLE_PROMPT_CHARS] + ("…" if len(example) > EXAMPLE_PROMPT_CHARS else "")
            text += f'\n<예시_기사 번호="{number}">\n{clipped}\n</예시_기사>'
        return text

    def prompt_block(self, department: str) -> str:
        """The style section of a draft's first prompt (the admin previews exactly this)."""
        publisher = f' 언론사="{self.publisher}"' if self.publisher else ""
        return f'<스타일_가이드 부서="{department}"{publisher}>\n{self.as_prompt()}\n</스타일_가이드>'


def style_for(*, department: str, reporter_id: int | None = None, publisher: str = "") -> ResolvedStyle:
    """The most specific valid style: reporter → publisher → department default → built-in."""
    levels = Q(scope=WritingStyle.Scope.DEPARTMENT, department=department)
    if reporter_id is not None:
        levels |= Q(scope=WritingStyle.Scope.REPORTER, reporter_id=reporter_id, department=department)
    if publisher:
        levels |= Q(scope=WritingStyle.Scope.PUBLISHER, publisher=publisher, department__in=[department, ""])
    for row in sorted(WritingStyle.objects.filter(levels), key=_rank):
        try:
            return resolved(row)
        except ValidationError:
            continue  # a broken row must not break drafting; the next level still applies
    guide = StyleGuide.model_validate(DEPARTMENT_GUIDES.get(department, FALLBACK_GUIDE))
    return ResolvedStyle(guide=guide, scope=BUILTIN, label=f"{department} 기본(내장)")


def style_guide_for(*, department: str, reporter_id: int | None = None, publisher: str = "") -> StyleGuide:
    return style_for(department=department, reporter_id=reporter_id, publisher=publisher).guide


def resolved(row: WritingStyle) -> ResolvedStyle:
    """One stored style as a draft would use it; raises pydantic's ValidationError for a broken guide."""
    labels = {
        WritingStyle.Scope.REPORTER: "기자 맞춤",
        WritingStyle.Scope.PUBLISHER: row.publisher,
        WritingStyle.Scope.DEPARTMENT: f"{row.department} 기본",
    }
    return ResolvedStyle(
        guide=StyleGuide.model_validate(row.guide),
        scope=row.scope,
        label=labels[WritingStyle.Scope(row.scope)],
        publisher=row.publisher if row.scope == WritingStyle.Scope.PUBLISHER else "",
        examples=tuple(str(e) for e in (row.example_articles or []) if str(e).strip()),
    )


def publisher_names() -> list[str]:
    """The publishers editors curated a style for, for reporters to choose from."""
    rows = WritingStyle.objects.filter(scope=WritingStyle.Scope.PUBLISHER).exclude(publisher="")
    return sorted(set(rows.values_list("publisher", flat=True)))


def _rank(row: WritingStyle) -> int:
    if row.scope == WritingStyle.Scope.PUBLISHER:
        return _RANK["publisher-department" if row.department else "publisher"]
    return _RANK[row.scope]


def lint_rules_for(*, department: str, reporter_id: int | None = None, publisher: str = "") -> list[Rule]:
    """The active curated and editor-added rules for every department or for this one, then the
    style guide's forbidden expressions (on the same span the curated rule, with its precise
    advice, wins)."""
    guide = style_guide_for(department=department, reporter_id=reporter_id, publisher=publisher)
    rules: list[Rule] = []
    stored = LintRule.objects.filter(active=True).filter(Q(department="") | Q(department=department))
    for row in stored:
        if pattern_error(row.pattern) or (row.unless and pattern_error(row.unless)):
            continue  # a broken row saved around the admin's validation must not break drafting
        rules.append(
            Rule(
                name=row.name,
                pattern=row.pattern,
                suggestion=row.suggestion,
                replacement=row.replacement if row.replacement else None,
                unless=row.unless,
                min_count=max(1, row.min_count),
                skip_in_quotes=row.skip_in_quotes,
            )
        )
    return rules + forbidden_rules(guide.forbidden, guide_label=f"{department or '기본'} 스타일")


def lint_body(
    *, body: str, department: str, reporter_id: int | None = None, publisher: str = ""
) -> list[Hit]:
    """The lint list of an article body (offsets into `body`)."""
    rules = lint_rules_for(department=department, reporter_id=reporter_id, publisher=publisher)
    return lint_text(body=body, rules=rules)

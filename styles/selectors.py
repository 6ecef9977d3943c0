from __future__ import annotations

from django.db.models import Q
from pydantic import ValidationError

from styles.defaults import DEPARTMENT_GUIDES, FALLBACK_GUIDE
from styles.guide import StyleGuide
from styles.models import WritingStyle


def style_guide_for(*, department: str, reporter_id: int | None = None, publisher: str = "") -> StyleGuide:
    """The most specific valid guide: reporter → publisher → department default → built-in."""
    candidates = WritingStyle.objects.filter(department=department).filter(
        Q(scope=WritingStyle.Scope.DEPARTMENT)
        | Q(scope=WritingStyle.Scope.PUBLISHER, publisher=publisher or None)
        | Q(scope=WritingStyle.Scope.REPORTER, reporter_id=reporter_id)
    )
    rank = {WritingStyle.Scope.REPORTER: 0, WritingStyle.Scope.PUBLISHER: 1, WritingStyle.Scope.DEPARTMENT: 2}
    for style in sorted(candidates, key=lambda s: rank[WritingStyle.Scope(s.scope)]):
        try:
            return StyleGuide.model_validate(style.guide)
        except ValidationError:
            continue  # a broken row must not break drafting; the next level still applies
    return StyleGuide.model_validate(DEPARTMENT_GUIDES.get(department, FALLBACK_GUIDE))

"""A reporter's writing choices as every face shows them: which model and which house style the
next draft uses, and what they may pick instead. Reads only; changes go through
`newsdesk.services.reporter_update`."""

from __future__ import annotations

from dataclasses import dataclass

from agents.llm import catalog
from newsdesk.models import Reporter
from styles.selectors import publisher_names, style_for


@dataclass(frozen=True)
class Choices:
    model: str  # the model the next draft uses
    model_label: str
    model_is_default: bool  # no own choice (or it is no longer offered): the default applies
    models: list[catalog.ModelSpec]
    publisher_style: str  # the chosen publisher, "" for the department default
    style_label: str  # the style the next draft uses, e.g. "한겨레" or "경제부 기본"
    publisher_styles: list[str]


def reporter_choices(*, reporter: Reporter) -> Choices:
    model = catalog.model_for(chosen=reporter.llm_model, department=reporter.department)
    style = style_for(
        department=reporter.department, reporter_id=reporter.pk, publisher=reporter.publisher_style
    )
    return Choices(
        model=model,
        model_label=catalog.label_for(model),
        model_is_default=model != reporter.llm_model,
        models=catalog.model_choices(),
        publisher_style=reporter.publisher_style,
        style_label=style.label,
        publisher_styles=publisher_names(),
    )

"""Startup checks: a model the server would call must exist and not be retired.

Django runs system checks before `runserver`, `migrate` and the test runner (and `manage.py check`
runs them on demand; the Celery worker runs them in `newsdesk.celery`), so a typo in
NEWSDESK_LLM_MODEL stops the server with a clear message instead of failing every run later.
"""

from __future__ import annotations

from typing import Any

from django.core.checks import Error, register

from agents.llm import catalog


@register()
def model_settings_errors(app_configs: Any = None, **kwargs: Any) -> list[Error]:
    return [
        Error(problem, hint="See NEWSDESK_LLM_MODELS in newsdesk/settings.py.", id="agents.E001")
        for problem in catalog.problems()
    ]

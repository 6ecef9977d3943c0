from __future__ import annotations

from datetime import timedelta
from typing import Any

import factory
from django.contrib.auth import get_user_model
from django.utils import timezone

from agents.models import Article, LLMCall, MonitorItem, MonitorResult, Run, VerificationIssue
from newsdesk.models import Reporter

PASSWORD = "correct-horse-battery"


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = get_user_model()
        django_get_or_create = ("username",)
        skip_postgeneration_save = True

    username = factory.Sequence(lambda n: f"reporter{n}")
    password = factory.PostGenerationMethodCall("set_password", PASSWORD)

    @factory.post_generation
    def _save(obj: Any, create: bool, extracted: Any, **kwargs: Any) -> None:
        if create:
            obj.save()


class ReporterFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Reporter
        skip_postgeneration_save = True

    user = factory.SubFactory(UserFactory)
    department = "사회부"
    keywords = factory.LazyFunction(lambda: ["서울시", "경찰"])

    @factory.post_generation
    def anthropic_key(obj: Reporter, create: bool, extracted: str | None, **kwargs: Any) -> None:
        if extracted:
            obj.set_anthropic_key(extracted)
        if create:
            obj.save()


class RunFactory(factory.django.DjangoModelFactory):
    """A run row as a task leaves it; `input={}` unless the test needs what the run was asked."""

    class Meta:
        model = Run

    reporter = factory.SubFactory(ReporterFactory)
    kind = Run.Kind.DRAFT
    input = factory.LazyFunction(dict)


class ArticleFactory(factory.django.DjangoModelFactory):
    """A finished article with its done run, for the same reporter."""

    class Meta:
        model = Article

    reporter = factory.SubFactory(ReporterFactory)
    run = factory.SubFactory(
        RunFactory, reporter=factory.SelfAttribute("..reporter"), status=Run.Status.DONE, stage="done"
    )
    headline = "제목"
    draft_body = "본문."
    body = factory.SelfAttribute("draft_body")
    verdict = Article.Verdict.PASS
    length = factory.LazyAttribute(lambda article: len(article.body))


class VerificationIssueFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = VerificationIssue

    article = factory.SubFactory(ArticleFactory)
    claim = "2만 가구"
    status = VerificationIssue.Status.NOT_FOUND
    origin = VerificationIssue.Origin.CODE


class MonitorResultFactory(factory.django.DjangoModelFactory):
    """A finished /check (or /report, with `run__kind`) over the three hours before now."""

    class Meta:
        model = MonitorResult

    run = factory.SubFactory(RunFactory, kind=Run.Kind.CHECK, status=Run.Status.DONE, stage="done")
    window_end = factory.LazyFunction(timezone.now)
    window_start = factory.LazyAttribute(lambda result: result.window_end - timedelta(hours=3))


class MonitorItemFactory(factory.django.DjangoModelFactory):
    """One article a check or report run delivered; the reporter and kind are the run's."""

    class Meta:
        model = MonitorItem

    run = factory.SubFactory(RunFactory, kind=Run.Kind.CHECK, status=Run.Status.DONE, stage="done")
    reporter = factory.SelfAttribute("run.reporter")
    kind = factory.SelfAttribute("run.kind")
    category = MonitorItem.Category.IMPORTANT
    title = "기사"


class LLMCallFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = LLMCall

    reporter = factory.SubFactory(ReporterFactory)
    purpose = "writing"
    model = "m"

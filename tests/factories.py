from __future__ import annotations

from typing import Any

import factory
from django.contrib.auth import get_user_model

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

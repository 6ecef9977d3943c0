"""Desk fixtures: logged-in browsers (Django test clients) and drafts finished through the real task."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client

from agents import tasks
from agents.models import Run
from agents.services import draft_create
from tests.agents.draft_script import submit, verify_pass
from tests.factories import PASSWORD
from tests.fakes.anthropic import FakeAnthropic
from tests.fixtures.press import PRESS_RELEASE

HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings) -> None:
    """Every test here logs someone in; the production hasher's 1M rounds cost ~0.3 s per login."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def desk(reporter) -> Client:
    """The reporter's browser, logged in through the real login form."""
    client = Client()
    response = client.post("/accounts/login/", {"username": "kim", "password": PASSWORD})
    assert response.status_code == 302, "login failed"
    return client


@pytest.fixture
def other_desk(other_reporter) -> Client:
    client = Client()
    client.force_login(other_reporter.user)
    return client


@pytest.fixture
def finish_draft(reporter, fake_llm: FakeAnthropic) -> Callable[..., Run]:
    """Queues a draft and runs its task body; `script` scripts the fake model (default: clean pass)."""

    def finish(script: Callable[[FakeAnthropic], None] | None = None, **fields: Any) -> Run:
        if script is None:
            submit(fake_llm)
            verify_pass(fake_llm)
        else:
            script(fake_llm)
        run = draft_create(
            reporter=reporter, press_release=fields.pop("press_release", PRESS_RELEASE), **fields
        )
        tasks.draft_run.apply(args=[run.pk])
        run.refresh_from_db()
        return run

    return finish


@pytest.fixture
def done_run(finish_draft: Callable[..., Run]) -> Run:
    run = finish_draft()
    assert run.status == Run.Status.DONE, run.error
    return run

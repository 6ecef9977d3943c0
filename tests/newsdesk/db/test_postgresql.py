"""The PostgreSQL backend probes a reused connection only when it has not just answered."""

from __future__ import annotations

import pytest

from newsdesk.db.postgresql import base

SETTINGS = {
    "ENGINE": "newsdesk.db.postgresql",
    "NAME": "newsdesk",
    "USER": "",
    "PASSWORD": "",
    "HOST": "127.0.0.1",
    "PORT": "",
    "OPTIONS": {},
    "CONN_MAX_AGE": 60,
    "CONN_HEALTH_CHECKS": True,
    "AUTOCOMMIT": True,
    "ATOMIC_REQUESTS": False,
    "TIME_ZONE": None,
    "TEST": {},
}


class FakeConnection:
    def commit(self) -> None:
        pass

    def close(self) -> None:
        pass


@pytest.fixture
def wrapper(monkeypatch: pytest.MonkeyPatch) -> base.DatabaseWrapper:
    """A reused connection at the start of a request, with its probes counted."""
    one = base.DatabaseWrapper(dict(SETTINGS))
    one.connection = FakeConnection()
    one.health_check_enabled = True
    one.probes = 0  # type: ignore[attr-defined]

    def is_usable() -> bool:
        one.probes += 1  # type: ignore[attr-defined]
        return True

    monkeypatch.setattr(one, "is_usable", is_usable)
    return one


def test_a_connection_that_committed_a_moment_ago_is_not_probed(wrapper: base.DatabaseWrapper) -> None:
    wrapper.commit()
    wrapper.health_check_done = False  # the next request starts (close_if_unusable_or_obsolete)

    wrapper.close_if_health_check_failed()

    assert wrapper.probes == 0  # type: ignore[attr-defined]
    assert wrapper.health_check_done


def test_a_connection_that_ran_a_statement_a_moment_ago_is_not_probed(wrapper: base.DatabaseWrapper) -> None:
    with wrapper.wrap_database_errors:  # how Django runs every statement (CursorWrapper.execute)
        pass
    wrapper.health_check_done = False

    wrapper.close_if_health_check_failed()

    assert wrapper.probes == 0  # type: ignore[attr-defined]


def test_a_statement_that_failed_does_not_count_as_an_answer(wrapper: base.DatabaseWrapper) -> None:
    from django.db import OperationalError

    with pytest.raises(OperationalError), wrapper.wrap_database_errors:
        raise wrapper.Database.OperationalError("server closed the connection unexpectedly")
    wrapper.health_check_done = False

    wrapper.close_if_health_check_failed()

    assert wrapper.probes == 1  # type: ignore[attr-defined]
    assert wrapper.errors_occurred


def test_a_connection_idle_for_longer_is_probed_as_django_does(
    wrapper: base.DatabaseWrapper, monkeypatch: pytest.MonkeyPatch
) -> None:
    wrapper.commit()
    now = base.time.monotonic()
    monkeypatch.setattr(base.time, "monotonic", lambda: now + base.RECENT_SECONDS + 1)
    wrapper.health_check_done = False

    wrapper.close_if_health_check_failed()

    assert wrapper.probes == 1  # type: ignore[attr-defined]


def test_a_connection_that_never_answered_is_probed(wrapper: base.DatabaseWrapper) -> None:
    wrapper.close_if_health_check_failed()

    assert wrapper.probes == 1  # type: ignore[attr-defined]


def test_a_new_connection_does_not_inherit_the_commit_of_the_closed_one(
    wrapper: base.DatabaseWrapper,
) -> None:
    wrapper.commit()
    wrapper.close()
    wrapper.connection = FakeConnection()
    wrapper.health_check_done = False

    wrapper.close_if_health_check_failed()

    assert wrapper.probes == 1  # type: ignore[attr-defined]

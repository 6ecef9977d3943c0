"""Bad bearer tokens from one address are answered 429 after a limit, before any token lookup."""

from __future__ import annotations

from datetime import timedelta
from typing import Any
from unittest import mock

import pytest
import time_machine
from django.test import Client
from django.utils import timezone

from newsdesk import messages as msg
from newsdesk import services
from newsdesk.services import token_issue
from tests.factories import PASSWORD

pytestmark = pytest.mark.django_db
HOME, ELSEWHERE = "203.0.113.7", "198.51.100.20"


def me(token: str, address: str = HOME) -> Any:
    return Client().get("/api/me", HTTP_AUTHORIZATION=f"Bearer {token}", REMOTE_ADDR=address)


def test_the_tenth_bad_token_from_one_address_is_answered_429_with_the_wait() -> None:
    with time_machine.travel(timezone.now(), tick=False):  # the wait is read to the second
        answers = [me(f"nd_guess{n}") for n in range(10)]

    assert [a.status_code for a in answers] == [401] * 9 + [429]
    assert answers[-1]["Retry-After"] == "900"
    assert answers[-1].json() == {"detail": msg.API_TOKENS_LOCKED.format(wait="15분")}
    assert "15분 뒤에 다시 시도해 주세요" in answers[-1].json()["detail"]


def test_while_locked_no_token_is_looked_up_not_even_a_good_one(reporter: Any) -> None:
    token = token_issue(reporter=reporter)
    for n in range(10):
        me(f"nd_guess{n}")

    with mock.patch.object(services, "token_authenticate", wraps=services.token_authenticate) as lookup:
        answer = me(token)

    assert answer.status_code == 429 and lookup.call_count == 0


def test_good_tokens_from_another_address_and_desk_logins_from_this_one_still_work(reporter: Any) -> None:
    token = token_issue(reporter=reporter)
    for n in range(10):
        me(f"nd_guess{n}")

    assert me(token, address=ELSEWHERE).status_code == 200
    # Bad tokens have their own count: they do not add up to the address's login lock.
    login = Client().post("/accounts/login/", {"username": "kim", "password": PASSWORD}, REMOTE_ADDR=HOME)
    assert login.status_code == 302


def test_a_good_token_under_the_limit_is_served(reporter: Any) -> None:
    token = token_issue(reporter=reporter)
    for n in range(8):
        me(f"nd_guess{n}")

    assert me(token).status_code == 200


def test_the_token_lock_ends_after_the_cool_off(reporter: Any) -> None:
    token = token_issue(reporter=reporter)
    with time_machine.travel(timezone.now(), tick=False) as clock:
        for n in range(10):
            me(f"nd_guess{n}")
        clock.shift(timedelta(minutes=14))
        waiting = me(token)
        clock.shift(timedelta(minutes=1, seconds=1))
        after = me(token)

    assert waiting.status_code == 429 and waiting["Retry-After"] == "60"
    assert after.status_code == 200


def test_a_request_without_a_token_is_not_counted(settings: Any) -> None:
    settings.NEWSDESK_API_TOKEN_FAILURE_LIMIT = 2
    answers = [Client().get("/api/me", REMOTE_ADDR=HOME).status_code for _ in range(4)]

    assert answers == [401] * 4
    assert me("nd_guess").status_code == 401

"""Wrong passwords on the desk and the admin are counted per account and address, and locked out."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import timedelta
from typing import Any
from unittest import mock

import pytest
import time_machine
from axes.models import AccessAttempt
from django.contrib.auth.hashers import MD5PasswordHasher
from django.test import Client
from django.utils import timezone

from tests.factories import PASSWORD, ReporterFactory, UserFactory
from tests.newsdesk.desk.html import parse, text

pytestmark = pytest.mark.django_db
DESK, ADMIN = "/accounts/login/", "/admin/login/"
WRONG = "not-the-password"
HOME = "203.0.113.7"  # documentation addresses (RFC 5737): never anyone's
ELSEWHERE = "198.51.100.20"


@dataclass
class Hasher:
    """Counts the passwords hashed: a check hashes the typed password once, and so does the
    dummy hash Django runs for an unknown name (both go through the hasher's encode)."""

    encode: mock.MagicMock

    @property
    def calls(self) -> int:
        return self.encode.call_count


@pytest.fixture(autouse=True)
def hasher(settings: Any) -> Iterator[Hasher]:
    # A fast hasher: these tests log in dozens of times; the throttle does not depend on which one.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    original = MD5PasswordHasher.encode
    with mock.patch.object(MD5PasswordHasher, "encode", autospec=True, side_effect=original) as encode:
        yield Hasher(encode=encode)


@pytest.fixture
def staff(db: None) -> Any:
    return UserFactory(username="editor", is_staff=True, is_superuser=True)


def attempt(form: str, username: str, password: str = WRONG, address: str = HOME, **headers: str) -> Any:
    return Client().post(form, {"username": username, "password": password}, REMOTE_ADDR=address, **headers)


def lock_out(username: str, form: str = DESK) -> None:
    """Five wrong passwords in a row: the default limit for one account from one address."""
    for _ in range(5):
        attempt(form, username)


def logged_in(response: Any) -> bool:
    return response.status_code == 302


@pytest.mark.parametrize("form", [DESK, ADMIN])
def test_the_tenth_wrong_password_in_a_row_is_refused_without_checking_it(
    form: str, reporter: Any, staff: Any, hasher: Hasher
) -> None:
    username = "kim" if form == DESK else "editor"
    start = hasher.calls
    with time_machine.travel(timezone.now(), tick=False):  # the wait is read to the second
        answers = [attempt(form, username).status_code for _ in range(9)]
        checked = hasher.calls - start

        tenth = attempt(form, username)

    assert answers == [200, 200, 200, 200, 429, 429, 429, 429, 429]  # the 5th failure locks the pair
    assert checked == 5  # only the five before the lock were checked
    assert tenth.status_code == 429 and hasher.calls - start == checked
    assert "15분 뒤에 다시 시도해 주세요" in text(tenth, ".form-error")
    assert tenth["Retry-After"] == "900"


@pytest.mark.parametrize("form", [DESK, ADMIN])
def test_the_right_password_is_refused_too_while_locked(form: str, reporter: Any, staff: Any) -> None:
    username = "kim" if form == DESK else "editor"
    lock_out(username, form)

    assert attempt(form, username, PASSWORD).status_code == 429  # no oracle: the password is not read


def test_another_reporter_still_logs_in_from_the_same_address(reporter: Any, other_reporter: Any) -> None:
    for _ in range(10):
        attempt(DESK, "kim")

    assert logged_in(attempt(DESK, "lee", PASSWORD))


def test_the_locked_reporter_still_logs_in_from_another_address(reporter: Any) -> None:
    for _ in range(10):
        attempt(DESK, "kim")

    # Locks hold an (account, address) pair: an attacker elsewhere cannot lock a reporter out.
    assert logged_in(attempt(DESK, "kim", PASSWORD, address=ELSEWHERE))


def test_an_address_failing_on_many_accounts_is_locked_for_every_account(
    reporter: Any, hasher: Hasher
) -> None:
    for n in range(5):
        for _ in range(4):  # under the pair limit on each account
            attempt(DESK, f"guess{n}")
    checked = hasher.calls

    refused = attempt(DESK, "kim", PASSWORD)

    assert refused.status_code == 429 and hasher.calls == checked
    assert "다시 시도해 주세요" in text(refused, ".form-error")
    assert logged_in(attempt(DESK, "kim", PASSWORD, address=ELSEWHERE))


def test_an_unknown_username_is_answered_exactly_like_a_known_one(reporter: Any, hasher: Hasher) -> None:
    def answers(username: str, address: str) -> list[tuple[int, str | None, int, str]]:
        seen = []
        for _ in range(7):
            before = hasher.calls
            response = attempt(DESK, username, address=address)
            words = text(response, ".form-error")
            seen.append((response.status_code, response.get("Retry-After"), hasher.calls - before, words))
        return seen

    with time_machine.travel(timezone.now(), tick=False):  # the wait is read to the second
        known, unknown = answers("kim", HOME), answers("nobody", ELSEWHERE)

    # Same statuses, same wait, same words, and the password hashed on the same attempts (timing).
    assert known == unknown
    assert [hashed for _, _, hashed, _ in known] == [1, 1, 1, 1, 1, 0, 0]


def test_the_lock_ends_after_the_cool_off(reporter: Any) -> None:
    start = timezone.now()
    with time_machine.travel(start, tick=False) as clock:
        lock_out("kim")
        clock.shift(timedelta(minutes=10))
        waiting = attempt(DESK, "kim", PASSWORD)
        clock.shift(timedelta(minutes=5, seconds=1))
        after = attempt(DESK, "kim", PASSWORD)

    assert waiting.status_code == 429 and "5분 뒤에" in text(waiting, ".form-error")
    assert waiting["Retry-After"] == "300"
    assert logged_in(after)


def test_limits_and_cool_off_follow_the_settings(reporter: Any, settings: Any) -> None:
    settings.NEWSDESK_LOGIN_FAILURE_LIMIT = 2
    settings.NEWSDESK_LOGIN_COOLOFF_MINUTES = 90

    with time_machine.travel(timezone.now(), tick=False):
        answers = [attempt(DESK, "kim") for _ in range(3)]

    assert [a.status_code for a in answers] == [200, 429, 429]
    assert answers[-1]["Retry-After"] == "5400" and "1시간 30분 뒤에" in text(answers[-1], ".form-error")


def test_refused_attempts_do_not_lengthen_the_wait(reporter: Any) -> None:
    start = timezone.now()
    with time_machine.travel(start, tick=False) as clock:
        lock_out("kim")
        for _ in range(14):
            clock.shift(timedelta(minutes=1))
            attempt(DESK, "kim")
        clock.shift(timedelta(minutes=1, seconds=1))

        assert logged_in(attempt(DESK, "kim", PASSWORD))


def test_failures_spread_wider_than_the_cool_off_never_lock(reporter: Any) -> None:
    start = timezone.now()
    with time_machine.travel(start, tick=False) as clock:
        for _ in range(8):
            attempt(DESK, "kim")
            clock.shift(timedelta(minutes=16))

        assert logged_in(attempt(DESK, "kim", PASSWORD))


def test_a_successful_login_forgives_the_accounts_earlier_failures(reporter: Any) -> None:
    for _ in range(4):
        attempt(DESK, "kim")
    assert logged_in(attempt(DESK, "kim", PASSWORD))

    assert [attempt(DESK, "kim").status_code for _ in range(4)] == [200] * 4


def test_a_login_to_ones_own_account_does_not_wipe_failures_on_others(reporter: Any) -> None:
    ReporterFactory(user__username="mallory")
    for n in range(4):
        for _ in range(4):
            attempt(DESK, f"victim{n}")
        assert logged_in(attempt(DESK, "mallory", PASSWORD))
    for _ in range(4):
        attempt(DESK, "victim9")

    assert attempt(DESK, "kim", PASSWORD).status_code == 429  # 20 failures from this address


def test_a_forged_forwarding_header_does_not_dodge_the_lock_without_a_trusted_proxy(reporter: Any) -> None:
    answers = [attempt(DESK, "kim", HTTP_X_FORWARDED_FOR=f"192.0.2.{n}").status_code for n in range(7)]

    assert answers[4:] == [429, 429, 429]
    assert set(AccessAttempt.objects.values_list("ip_address", flat=True)) == {HOME}


def test_behind_a_trusted_proxy_the_lock_follows_the_real_client(reporter: Any, settings: Any) -> None:
    settings.NEWSDESK_TRUSTED_PROXIES = ["127.0.0.1"]

    def via_proxy(client: str, forged: str, password: str = WRONG) -> Any:
        # The proxy appends the address it saw; whatever the client wrote stays on the left.
        return attempt(DESK, "kim", password, address="127.0.0.1", HTTP_X_FORWARDED_FOR=f"{forged}, {client}")

    answers = [via_proxy(HOME, forged=f"192.0.2.{n}").status_code for n in range(6)]
    # The attacker at HOME names ELSEWHERE (the reporter's address) in the header: no effect on it.
    framed = [via_proxy(HOME, forged=ELSEWHERE).status_code for _ in range(3)]

    assert answers[4:] == [429, 429] and framed == [429] * 3
    assert logged_in(via_proxy(ELSEWHERE, forged=HOME, password=PASSWORD))


def test_the_lock_page_is_the_same_on_both_forms_and_escapes_nothing_typed(reporter: Any) -> None:
    name = "<script>alert(1)</script>"
    lock_out(name, ADMIN)

    locked = attempt(ADMIN, name)

    body = locked.content.decode()
    assert locked.status_code == 429 and "<script>alert" not in body
    assert "로그인 화면으로" in body and 'href="/admin/login/"' in body


def test_one_log_line_per_lock_not_per_attempt(reporter: Any, caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level("INFO"):
        for _ in range(12):
            attempt(DESK, "kim")

    lines = [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
    assert lines == [f"login locked for 15 min after repeated failures from {HOME}"]
    assert "kim" not in caplog.text


def test_an_ipv6_client_is_counted_by_its_64_network(reporter: Any) -> None:
    for n in range(5):
        attempt(DESK, "kim", address=f"2001:db8:1:2::{n + 1}")  # one subscriber's many addresses

    assert attempt(DESK, "kim", PASSWORD, address="2001:db8:1:2:ffff::9").status_code == 429
    assert logged_in(attempt(DESK, "kim", PASSWORD, address="2001:db8:1:3::1"))


# --- the admin ---------------------------------------------------------------------------------
CHANGELIST = "/admin/newsdesk/loginlockout/"


def test_the_admin_lists_each_lock_and_how_long_it_lasts(admin_client: Client, reporter: Any) -> None:
    lock_out("kim")
    attempt(DESK, "lee", address=ELSEWHERE)

    page = admin_client.get(CHANGELIST)

    rows = {cells[0]: cells for cells in table_rows(page)}
    assert rows["kim"][1:4] == [HOME, "5", rows["kim"][3]] and rows["kim"][4] == "잠김 · 15분 남음"
    assert rows["lee"][1] == ELSEWHERE and rows["lee"][4] == "-"


def test_an_address_lock_says_it_holds_every_account(admin_client: Client, reporter: Any) -> None:
    for n in range(5):
        for _ in range(4):
            attempt(DESK, f"guess{n}")

    statuses = {cells[4] for cells in table_rows(admin_client.get(CHANGELIST))}

    assert statuses == {"잠김 · 15분 남음 (이 주소의 모든 아이디)"}


def test_clearing_a_lock_lets_the_reporter_in_at_once(admin_client: Client, reporter: Any) -> None:
    lock_out("kim")
    record = AccessAttempt.objects.get(username="kim")

    done = admin_client.post(CHANGELIST, {"action": "clear", "_selected_action": [record.pk]}, follow=True)

    assert "기록 1건을 지웠습니다" in done.content.decode()
    assert logged_in(attempt(DESK, "kim", PASSWORD))


def test_clearing_one_record_of_a_locked_address_unlocks_it(admin_client: Client, reporter: Any) -> None:
    for n in range(5):
        for _ in range(4):
            attempt(DESK, f"guess{n}")
    Client().get("/api/me", HTTP_AUTHORIZATION="Bearer nd_guess", REMOTE_ADDR=HOME)  # counted apart
    one = AccessAttempt.objects.filter(username="guess0").get()

    admin_client.post(CHANGELIST, {"action": "clear", "_selected_action": [one.pk]})

    assert logged_in(attempt(DESK, "kim", PASSWORD))
    assert list(AccessAttempt.objects.values_list("username", flat=True)) == [None]


def test_bad_api_tokens_show_as_such(admin_client: Client) -> None:
    for n in range(2):
        Client().get("/api/me", HTTP_AUTHORIZATION=f"Bearer nd_guess{n}", REMOTE_ADDR=HOME)

    (row,) = table_rows(admin_client.get(CHANGELIST))

    assert row[:3] == ["(API 토큰)", HOME, "2"]


def table_rows(page: Any) -> list[list[str]]:
    document = parse(page)
    return [
        [cell.get_text(" ", strip=True) for cell in row.select("th, td")[1:]]
        for row in document.select("#result_list tbody tr")
    ]

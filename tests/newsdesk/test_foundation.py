"""Settings helpers, key encryption, log redaction, health check and the management commands."""

from __future__ import annotations

import io
import logging

import pytest
from cryptography.fernet import Fernet
from django.core.exceptions import ImproperlyConfigured
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import Client

from conftest import TEST_FERNET_KEY
from newsdesk import crypto
from newsdesk.env import env_bool, env_int, env_list, env_secret
from newsdesk.logs import RedactSecretsFilter, redact
from newsdesk.models import ApiToken, Reporter
from tests.factories import ReporterFactory


# --- settings helpers -------------------------------------------------------------------------
def test_env_bool_refuses_a_typo_instead_of_guessing(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("X_FLAG", "ture")
    with pytest.raises(ImproperlyConfigured):
        env_bool("X_FLAG")


@pytest.mark.parametrize(("raw", "value"), [("1", True), ("true", True), ("off", False), ("", False)])
def test_env_bool_reads_the_usual_spellings(monkeypatch: pytest.MonkeyPatch, raw: str, value: bool) -> None:
    monkeypatch.setenv("X_FLAG", raw)
    assert env_bool("X_FLAG") is value


def test_env_int_refuses_a_non_number(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("X_NUM", "ten")
    with pytest.raises(ImproperlyConfigured):
        env_int("X_NUM", 1)


def test_env_secret_reads_a_file_when_asked(monkeypatch: pytest.MonkeyPatch, tmp_path) -> None:
    secret = tmp_path / "token"
    secret.write_text("s3cret\n")
    monkeypatch.setenv("X_TOKEN_FILE", str(secret))
    assert env_secret("X_TOKEN") == "s3cret"


def test_env_list_splits_on_commas(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("X_LIST", " a, b ,,c ")
    assert env_list("X_LIST") == ["a", "b", "c"]


# --- key encryption ---------------------------------------------------------------------------
@pytest.fixture
def two_keys(settings):
    new_key = Fernet.generate_key().decode()
    yield new_key
    settings.NEWSDESK_ENCRYPTION_KEYS = [TEST_FERNET_KEY]
    crypto.reset_cache()


@pytest.mark.django_db
def test_a_stored_key_is_encrypted_and_only_its_last_four_characters_are_kept(reporter) -> None:
    stored = Reporter.objects.values("anthropic_key_encrypted", "anthropic_key_last4").get(pk=reporter.pk)
    assert "sk-ant" not in stored["anthropic_key_encrypted"]
    assert stored["anthropic_key_last4"] == "0001"
    assert reporter.anthropic_key() == "sk-ant-test-kim-0001"


@pytest.mark.django_db
def test_rotation_reencrypts_every_key_under_the_new_primary(settings, two_keys: str) -> None:
    reporters = [ReporterFactory(anthropic_key=f"sk-ant-rotate-{n:04d}") for n in range(5)]
    settings.NEWSDESK_ENCRYPTION_KEYS = [two_keys, TEST_FERNET_KEY]
    crypto.reset_cache()

    out = io.StringIO()
    call_command("rotate_keys", stdout=out)

    assert "rotated 5, unreadable 0" in out.getvalue()
    settings.NEWSDESK_ENCRYPTION_KEYS = [two_keys]  # the old key is gone
    crypto.reset_cache()
    for n, reporter in enumerate(reporters):
        reporter.refresh_from_db()
        assert reporter.anthropic_key() == f"sk-ant-rotate-{n:04d}"


@pytest.mark.django_db
def test_a_tampered_key_reads_as_no_key_instead_of_crashing(reporter) -> None:
    Reporter.objects.filter(pk=reporter.pk).update(anthropic_key_encrypted="gAAAAAtampered")
    reporter.refresh_from_db()
    assert reporter.anthropic_key() == ""


# --- logs -----------------------------------------------------------------------------------------
def test_secrets_are_redacted_from_log_lines() -> None:
    line = (
        "POST https://api.telegram.org/bot123456789:AAHk2ZtK9xS2mXq4yZ8rT6uV3wQ1pL0oN7c/sendMessage "
        "key=sk-ant-api03-abcdefghijklmnop token=nd_abcdefghijklmnopqrstuvwxyz0123"
    )
    cleaned = redact(line)
    assert "AAHk2Zt" not in cleaned and "sk-ant-api03" not in cleaned and "nd_abcdef" not in cleaned


def test_the_redaction_filter_rewrites_formatted_records() -> None:
    record = logging.LogRecord(
        "httpx", logging.WARNING, __file__, 1, "HTTP Request: %s", ("sk-ant-x1y2z3",), None
    )
    RedactSecretsFilter().filter(record)
    assert "sk-ant" not in record.getMessage()


# --- health ---------------------------------------------------------------------------------------
@pytest.mark.django_db
def test_healthz_reports_database_broker_and_a_live_worker_per_queue(client: Client) -> None:
    from newsdesk import workers

    workers.beat(node="w1@host", queues=["llm", "io"])
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json() == {"db": "ok", "broker": "ok", "workers": {"llm": "ok", "io": "ok"}}


@pytest.mark.django_db
def test_healthz_answers_503_naming_the_broken_part(client: Client, monkeypatch: pytest.MonkeyPatch) -> None:
    from newsdesk import views

    monkeypatch.setattr(views, "_check_broker", lambda: "error: ConnectionRefusedError")
    response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json()["broker"].startswith("error")


# --- commands -------------------------------------------------------------------------------------
@pytest.mark.django_db
def test_createreporter_makes_a_login_with_profile_and_encrypted_key() -> None:
    call_command(
        "createreporter",
        "park",
        "--password",
        "pw-123456",
        "--department",
        "경제",
        "--keywords",
        "금리, 환율",
        "--anthropic-key",
        "sk-ant-cli-4321",
        "--telegram-id",
        "777",
        stdout=io.StringIO(),
    )
    reporter = Reporter.objects.get(user__username="park")
    assert (reporter.department, reporter.keywords, reporter.telegram_id) == ("경제부", ["금리", "환율"], 777)
    assert reporter.anthropic_key() == "sk-ant-cli-4321" and reporter.user.check_password("pw-123456")


@pytest.mark.django_db
def test_createreporter_refuses_an_unknown_department() -> None:
    with pytest.raises(CommandError, match="부서"):
        call_command("createreporter", "park", "--password", "x", "--department", "연예부")


@pytest.mark.django_db
def test_issuetoken_prints_a_token_and_stores_only_its_hash(reporter) -> None:
    out = io.StringIO()
    call_command("issuetoken", "kim", stdout=out)
    token = out.getvalue().strip()
    stored = ApiToken.objects.get(reporter=reporter)
    assert token.startswith("nd_") and stored.token_hash == ApiToken.hash(token)
    assert token not in stored.hint or len(stored.hint) < len(token)
    assert Client(HTTP_AUTHORIZATION=f"Bearer {token}").get("/api/me").status_code == 200

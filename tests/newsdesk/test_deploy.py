"""Production settings pass Django's deployment checklist with no warning."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_production_settings_pass_check_deploy_without_warnings(tmp_path: Path) -> None:
    env = {
        **os.environ,
        "NEWSDESK_VAR_DIR": str(tmp_path),
        "DJANGO_SECRET_KEY": "x" * 20 + "production-secret-of-decent-length-and-variety-0123456789",
        "NEWSDESK_HTTPS": "1",
        "DJANGO_DEBUG": "0",
        "DJANGO_ALLOWED_HOSTS": "newsdesk.example.com",
        "NEWSDESK_ENCRYPTION_KEYS": "gQ5Nql6Z1XwV6Yk0uQkqg6bqG6B5m3b1yC3hQ1Zb0nE=",
    }
    env.pop("DATABASE_URL", None)
    env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)  # the browser tests set it for this process only
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


DEPLOY = ROOT / "deploy"
# Stand-ins for the <placeholders> of the documented environment.
PLACEHOLDERS = {
    "DJANGO_SECRET_KEY": "k" * 10 + "a-production-secret-of-decent-length-and-variety-0123456789",
    "DJANGO_ALLOWED_HOSTS": "newsdesk.example.com",
    "DJANGO_CSRF_TRUSTED_ORIGINS": "https://newsdesk.example.com",
    "NEWSDESK_PUBLIC_URL": "https://newsdesk.example.com",
    "DATABASE_URL": "postgres://newsdesk:secret@127.0.0.1:5432/newsdesk_deploy_check",
    "CELERY_BROKER_URL": "redis://127.0.0.1:6379/0",
    "NEWSDESK_ENCRYPTION_KEYS": "gQ5Nql6Z1XwV6Yk0uQkqg6bqG6B5m3b1yC3hQ1Zb0nE=",
    "TELEGRAM_BOT_TOKEN": "123456:production-token",
    "TELEGRAM_WEBHOOK_SECRET": "production-secret_0123",
    "NAVER_CLIENT_ID": "naver-id",
    "NAVER_CLIENT_SECRET": "naver-secret",
}


def documented_environment() -> dict[str, str]:
    values = {}
    for line in (DEPLOY / "newsdesk.env.example").read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            name, _, value = line.partition("=")
            values[name] = PLACEHOLDERS.get(name, value) if "<" in value else value
    return values


def test_the_documented_production_environment_passes_check_deploy(tmp_path: Path) -> None:
    documented = documented_environment()
    assert not [name for name, value in documented.items() if "<" in value]
    env = {**os.environ, **documented, "NEWSDESK_VAR_DIR": str(tmp_path)}
    env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)

    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )

    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_every_setting_read_from_the_environment_is_documented_for_production() -> None:
    read = set(re.findall(r'env_\w+\("([A-Z0-9_]+)"', (ROOT / "newsdesk" / "settings.py").read_text()))
    documented = (DEPLOY / "newsdesk.env.example").read_text(encoding="utf-8")

    assert read - {"NEWSDESK_VAR_DIR"} <= set(re.findall(r"\b([A-Z][A-Z0-9_]+)=", documented))


def exec_start(unit: str) -> str:
    text = (DEPLOY / "systemd" / unit).read_text(encoding="utf-8")
    return next(line for line in text.splitlines() if line.startswith("ExecStart="))


def test_the_units_run_llm_workers_on_threads_io_on_prefork_each_under_its_own_node_name() -> None:
    llm, io = exec_start("newsdesk-llm@.service"), exec_start("newsdesk-io@.service")

    assert "-Q llm -P threads -c 32 -n llm-%i@%H" in llm
    assert "-Q io -P prefork" in io and "-n io-%i@%H" in io
    assert "gunicorn -c deploy/gunicorn.conf.py newsdesk.wsgi:application" in exec_start(
        "newsdesk-web.service"
    )
    assert "beat -S django" in exec_start("newsdesk-beat.service")
    compose = (DEPLOY / "compose.yaml").read_text(encoding="utf-8")
    assert '"-Q", "llm", "-P", "threads", "-c", "32", "-n", "llm@%h"' in compose
    assert '"-Q", "io", "-P", "prefork"' in compose
    assert "--maxmemory-policy" in compose and "noeviction" in compose

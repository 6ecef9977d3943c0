"""Production settings pass Django's deployment checklist with no warning."""

from __future__ import annotations

import os
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

"""Shared set-up for benches: Django on a throwaway SQLite database under a temp directory."""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def setup() -> Path:
    var = Path(tempfile.mkdtemp(prefix="newsdesk-bench-"))
    os.environ["NEWSDESK_VAR_DIR"] = str(var)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "newsdesk.settings")
    os.environ.setdefault("NEWSDESK_SCRAPE_ALLOW_PRIVATE", "1")
    os.environ.pop("DATABASE_URL", None)
    sys.path.insert(0, str(ROOT))
    import django
    from django.core.management import call_command

    django.setup()
    call_command("migrate", verbosity=0)
    from newsdesk.celery import app

    app.conf.broker_url = "memory://"  # the bench runs task bodies itself; nothing is published
    app.conf.broker_transport_options = {}
    return var

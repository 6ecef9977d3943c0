"""The web process loads what the faces need and nothing only the workers use."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
WORKER_ONLY = ["anthropic", "pymupdf", "trafilatura", "docx", "bs4"]
PROBE = f"""
import json, sys
import newsdesk.wsgi
print(json.dumps(sorted(name for name in {WORKER_ONLY!r} if name in sys.modules)))
"""


def test_the_wsgi_application_loads_every_view_but_no_worker_library(tmp_path: Path) -> None:
    env = {**os.environ, "NEWSDESK_VAR_DIR": str(tmp_path)}
    env.pop("DATABASE_URL", None)
    result = subprocess.run(
        [sys.executable, "-c", PROBE], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
    )

    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout.strip().splitlines()[-1]) == []
    assert (
        "newsdesk.api"
        in subprocess.run(  # the URLconf (views, API) is loaded before any fork
            [sys.executable, "-c", "import sys, newsdesk.wsgi; print(sorted(sys.modules))"],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
        ).stdout
    )


LAZY_ON_FIRST_PUBLISH = ["celery.app.amqp", "celery.result", "kombu.transport.redis", "redis"]
SOCKETS = """
import json, os, sys
import newsdesk.wsgi
def kind(fd):
    try:
        return os.readlink(f"/proc/self/fd/{fd}")
    except FileNotFoundError:  # the descriptor listdir itself used
        return ""
sockets = [fd for fd in os.listdir("/proc/self/fd") if kind(fd).startswith("socket:")]
print(json.dumps({"loaded": [name in sys.modules for name in NAMES], "sockets": len(sockets)}))
"""
PUBLISHER = """
import json, threading
import newsdesk.wsgi
from agents.work import after_response
print(json.dumps({"after_response": after_response.publisher.enabled, "threads": threading.active_count()}))
"""


def test_the_wsgi_application_preloads_the_brokers_messaging_without_connecting(tmp_path: Path) -> None:
    # What the first publish would import in each worker after the fork (~24 MB with Redis) is
    # loaded in the parent instead; nothing is connected there, so no worker inherits a socket.
    env = {**os.environ, "NEWSDESK_VAR_DIR": str(tmp_path), "CELERY_BROKER_URL": "redis://127.0.0.1:1/0"}
    env.pop("DATABASE_URL", None)
    probe = f"NAMES = {LAZY_ON_FIRST_PUBLISH!r}\n{SOCKETS}"
    result = subprocess.run(
        [sys.executable, "-c", probe], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
    )

    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout.strip().splitlines()[-1]) == {"loaded": [True] * 4, "sockets": 0}


def test_the_web_process_publishes_after_the_response_from_a_thread_each_worker_starts_after_the_fork(
    tmp_path: Path,
) -> None:
    # A thread started before the fork would not exist in the workers: the parent only enables it.
    env = {**os.environ, "NEWSDESK_VAR_DIR": str(tmp_path)}
    env.pop("DATABASE_URL", None)
    result = subprocess.run(
        [sys.executable, "-c", PUBLISHER], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
    )

    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout.strip().splitlines()[-1]) == {"after_response": True, "threads": 1}


def test_on_postgresql_the_web_process_leaves_publishing_to_the_workers_relay(tmp_path: Path) -> None:
    # The insert notifies the workers (agents.work.relay); the web process never talks to the broker.
    env = {
        **os.environ,
        "NEWSDESK_VAR_DIR": str(tmp_path),
        "DATABASE_URL": "postgres://nobody@127.0.0.1:1/none",
    }
    result = subprocess.run(
        [sys.executable, "-c", PUBLISHER], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
    )

    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout.strip().splitlines()[-1]) == {"after_response": False, "threads": 1}

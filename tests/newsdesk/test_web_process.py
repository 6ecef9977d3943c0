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

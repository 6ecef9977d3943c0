"""Login throttling: where failures must be counted, and what counting them costs.

1. Across gunicorn's workers: 30 wrong passwords in a row for one account, each on a new
   connection to a 4-worker gunicorn (the production settings), with the failures counted in the
   database (the product), in Django's per-process memory cache, in a Redis cache, in a Redis cache
   that is down, and not at all. Printed: how many were answered as an ordinary wrong password
   (the password checked) before the answers turned to 429, and any 5xx.
2. Per attempt, in one process: the queries and the median time of a wrong password, a refused
   one and a good login (Django's default PBKDF2 hasher), with the throttle on and off.

    uv run python bench/login_throttle.py                                   # SQLite
    uv run python bench/login_throttle.py --database-url postgres://postgres@127.0.0.1:5432/nd_bench

The database is created afresh (SQLite under a temp directory; PostgreSQL: dropped and created).
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.integration.harness import RedisServer, free_port  # noqa: E402

PASSWORD = "bench-correct-horse-7"  # noqa: S105 (a throwaway password for the bench)
PBKDF2 = "django.contrib.auth.hashers.PBKDF2PasswordHasher"
MD5 = "django.contrib.auth.hashers.MD5PasswordHasher"
ATTEMPTS = 30
WORKERS = 4
VARIANTS = ("database", "locmem", "redis", "redis down", "off")


def fresh_database(url: str | None, var: Path) -> str:
    if not url:
        return f"sqlite:///{var / 'bench.sqlite3'}"
    import psycopg

    base, name = url.rsplit("/", 1)
    with psycopg.connect(f"{base}/postgres", autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
        conn.execute(f"CREATE DATABASE {name}")
    return url


def environment(var: Path, database: str, counts: str, cache_url: str) -> dict[str, str]:
    return {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "bench._throttle_settings",
        "NEWSDESK_BENCH_COUNTS": counts,
        "NEWSDESK_BENCH_CACHE_URL": cache_url,
        "DATABASE_URL": database,
        "NEWSDESK_VAR_DIR": str(var),
        "NEWSDESK_LOG_LEVEL": "ERROR",
        "GUNICORN_WORKERS": str(WORKERS),
    }


def manage(env: dict[str, str], *args: str) -> None:
    subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=env, check=True, capture_output=True)


def guess_through_gunicorn(env: dict[str, str], port: int) -> dict[str, int]:
    command = [sys.executable, "-m", "gunicorn", "-c", "deploy/gunicorn.conf.py", "-b", f"127.0.0.1:{port}"]
    command += ["--log-level", "error", "--access-logfile", "/dev/null", "newsdesk.wsgi:application"]
    web = subprocess.Popen(command, cwd=ROOT, env=env, stderr=subprocess.DEVNULL)  # (tracebacks when down)
    url = f"http://127.0.0.1:{port}/accounts/login/"
    try:
        page = wait_for(url)
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page.text)
        assert token is not None
        cookies = {"csrftoken": page.cookies["csrftoken"]}
        tally = {"checked": 0, "refused": 0, "errors": 0}
        for n in range(ATTEMPTS):
            # A new connection each time, so the attempts spread over the workers.
            with httpx.Client(cookies=cookies, timeout=30) as client:
                data = {"csrfmiddlewaretoken": token[1], "username": "kim", "password": f"guess-{n}"}
                status = client.post(url, data=data).status_code
            key = "checked" if status == 200 else "refused" if status == 429 else "errors"
            tally[key] += 1
        return tally
    finally:
        web.terminate()
        web.wait(timeout=30)


def wait_for(url: str) -> httpx.Response:
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        try:
            return httpx.get(url, timeout=2)
        except httpx.HTTPError:
            time.sleep(0.3)
    raise SystemExit("gunicorn did not start")


def across_workers(database_url: str | None, port: int) -> dict[str, dict[str, int]]:
    redis = RedisServer(Path(tempfile.mkdtemp(prefix="throttle-redis-")))
    redis.start()
    down = RedisServer(Path(tempfile.mkdtemp(prefix="throttle-redis-down-")))  # a port nobody serves
    results = {}
    try:
        for counts in VARIANTS:
            var = Path(tempfile.mkdtemp(prefix="newsdesk-throttle-"))
            cache_url = down.url(3) if counts == "redis down" else redis.url(3)
            env = environment(var, fresh_database(database_url, var), counts.split()[0], cache_url)
            manage(env, "migrate", "--noinput", "-v", "0")
            manage(env, "createreporter", "kim", "--password", PASSWORD, "--department", "사회부")
            results[counts] = guess_through_gunicorn(env, port)
    finally:
        redis.kill()
    return results


def per_attempt(database_url: str | None) -> dict[str, dict[str, tuple[int, float]]]:
    """Queries and median milliseconds of each kind of attempt, throttle on and off."""
    var = Path(tempfile.mkdtemp(prefix="newsdesk-throttle-"))
    os.environ.update(environment(var, fresh_database(database_url, var), "database", ""))
    import django

    django.setup()
    from django.core.management import call_command
    from django.test import Client, override_settings
    from django.test.utils import setup_test_environment

    setup_test_environment()
    call_command("migrate", verbosity=0)
    call_command("createreporter", "kim", password=PASSWORD, department="사회부")
    figures = {}
    # PBKDF2 (Django's default) is what a login costs; MD5 leaves the throttle's own cost visible.
    for label, enabled, hasher in (
        ("throttle on", True, PBKDF2),
        ("throttle off", False, PBKDF2),
        ("on, MD5 hash", True, MD5),
        ("off, MD5 hash", False, MD5),
    ):
        set_password(hasher)
        never = {"NEWSDESK_LOGIN_FAILURE_LIMIT": 10_000, "NEWSDESK_LOGIN_ADDRESS_LIMIT": 10_000}
        with override_settings(AXES_ENABLED=enabled, PASSWORD_HASHERS=[hasher], **never):
            figures[label] = {
                "wrong password": measure(lambda n: login(Client(), f"guess-{n}"), runs=15),
                "good login": measure(lambda n: login(Client(), PASSWORD), runs=15),
            }
        if enabled:
            with override_settings(NEWSDESK_LOGIN_FAILURE_LIMIT=1, PASSWORD_HASHERS=[hasher]):
                figures[label]["refused (locked)"] = measure(lambda n: login(Client(), f"again-{n}"), runs=15)
    return figures


def set_password(hasher: str) -> None:
    from django.contrib.auth.models import User
    from django.test import override_settings

    with override_settings(PASSWORD_HASHERS=[hasher]):
        user = User.objects.get(username="kim")
        user.set_password(PASSWORD)
        user.save()


def login(client: Any, password: str) -> int:
    return int(client.post("/accounts/login/", {"username": "kim", "password": password}).status_code)


def measure(attempt: Any, runs: int) -> tuple[int, float]:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    attempt(-1)  # warm: the first request loads templates and the URLconf
    times, queries = [], []
    for n in range(runs):
        with CaptureQueriesContext(connection) as captured:
            start = time.perf_counter()
            attempt(n)
            times.append((time.perf_counter() - start) * 1000)
        queries.append(len(captured.captured_queries))
    return int(statistics.median(queries)), statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--database-url", help="a PostgreSQL database to create afresh (default: SQLite)")
    parser.add_argument("--port", type=int, default=0, help="gunicorn's port (default: a free one)")
    args = parser.parse_args()
    database = "PostgreSQL" if args.database_url else "SQLite"

    print(f"== {ATTEMPTS} wrong passwords for one account through gunicorn ({WORKERS} workers, {database})")
    print(f"{'failures counted in':<22} {'checked (200)':>14} {'refused (429)':>14} {'5xx':>5}")
    for counts, tally in across_workers(args.database_url, args.port or free_port()).items():
        name = {"database": "database (product)", "off": "nowhere (no throttle)"}.get(
            counts, f"cache: {counts}"
        )
        print(f"{name:<22} {tally['checked']:>14} {tally['refused']:>14} {tally['errors']:>5}")

    print(f"\n== one login attempt in one process ({database}): queries, median ms")
    for label, rows in per_attempt(args.database_url).items():
        for kind, (queries, ms) in rows.items():
            print(f"{label:<14} {kind:<17} {queries:>3} queries {ms:>8.1f} ms")


if __name__ == "__main__":
    main()

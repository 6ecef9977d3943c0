"""Webhook acknowledgement under load: gunicorn on loopback, open-loop at a fixed rate.

Profiles:
  postgres  gunicorn + PostgreSQL + Redis broker, 200 updates/s for 30 s (target p99 <= 100 ms)
  sqlite    gunicorn + SQLite (WAL) + filesystem broker, 50 updates/s for 30 s (target 0 errors)

Every update carries the secret header; 5% are redeliveries of an earlier update_id. Afterwards
the database must hold every distinct update exactly once.

    uv run python bench/webhook_load.py [--profile postgres|sqlite] [--rate N] [--seconds S]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parent.parent
SECRET = "bench-secret_0123456789"  # noqa: S105 (a throwaway secret for the bench)
PG_ADMIN = "postgres://postgres@127.0.0.1:5432/postgres"
PG_BENCH = "postgres://postgres@127.0.0.1:5432/newsdesk_bench"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def environment(profile: str, var: Path) -> dict[str, str]:
    env = {
        **os.environ,
        "NEWSDESK_VAR_DIR": str(var),
        "TELEGRAM_WEBHOOK_SECRET": SECRET,
        "DJANGO_SETTINGS_MODULE": "newsdesk.settings",
        "NEWSDESK_LOG_LEVEL": "WARNING",
    }
    if profile == "postgres":
        env["DATABASE_URL"] = PG_BENCH
        env["CELERY_BROKER_URL"] = "redis://127.0.0.1:6379/9"
    else:
        env.pop("DATABASE_URL", None)
        env.pop("CELERY_BROKER_URL", None)
    return env


def prepare(profile: str, env: dict[str, str]) -> None:
    if profile == "postgres":
        import psycopg

        with psycopg.connect(PG_ADMIN, autocommit=True) as conn:
            conn.execute("DROP DATABASE IF EXISTS newsdesk_bench")
            conn.execute("CREATE DATABASE newsdesk_bench")
        subprocess.run(["redis-cli", "-n", "9", "flushdb"], check=True, capture_output=True)
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"], cwd=ROOT, env=env, check=True
    )


def start_gunicorn(env: dict[str, str], port: int, workers: int, threads: int) -> subprocess.Popen[bytes]:
    # --preload imports the app once before forking: no worker pays the imports on a live request.
    worker = ["-k", "gthread", "--threads", str(threads)] if threads > 1 else ["-k", "sync"]
    bind = ["-b", f"127.0.0.1:{port}", "-w", str(workers)]
    command = [
        sys.executable,
        "-m",
        "gunicorn",
        "newsdesk.wsgi",
        *bind,
        *worker,
        "--log-level",
        "warning",
        "--preload",
    ]
    proc = subprocess.Popen(command, cwd=ROOT, env=env)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=1)
            return proc
        except httpx.HTTPError:
            time.sleep(0.2)
    proc.kill()
    raise SystemExit("gunicorn did not start")


def update(update_id: int) -> bytes:
    return json.dumps(
        {
            "update_id": update_id,
            "message": {
                "message_id": update_id,
                "date": int(time.time()),
                "text": "/help",
                "chat": {"id": 10_000 + update_id % 500, "type": "private"},
                "from": {"id": 10_000 + update_id % 500, "is_bot": False, "first_name": "기자"},
                "entities": [{"type": "bot_command", "offset": 0, "length": 5}],
            },
        }
    ).encode()


async def load(
    url: str, rate: int, seconds: int, first_id: int = 1_000_000
) -> tuple[list[float], list[int], set[int]]:
    total = rate * seconds
    latencies: list[float] = []
    statuses: list[int] = []
    distinct: set[int] = set()
    headers = {"Content-Type": "application/json", "X-Telegram-Bot-Api-Secret-Token": SECRET}
    limits = httpx.Limits(max_connections=200, max_keepalive_connections=200)
    async with httpx.AsyncClient(limits=limits, timeout=10) as client:

        async def one(update_id: int) -> None:
            started = time.perf_counter()
            try:
                response = await client.post(url, content=update(update_id), headers=headers)
                statuses.append(response.status_code)
            except httpx.HTTPError:
                statuses.append(0)
            latencies.append((time.perf_counter() - started) * 1000)

        tasks = []
        start = time.perf_counter()
        next_id = first_id
        for n in range(total):
            delay = start + n / rate - time.perf_counter()
            if delay > 0:
                await asyncio.sleep(delay)
            if distinct and random.random() < 0.05:
                update_id = random.choice(tuple(distinct))  # a redelivery
            else:
                next_id += 1
                update_id = next_id
                distinct.add(update_id)
            tasks.append(asyncio.create_task(one(update_id)))
        await asyncio.gather(*tasks)
    return latencies, statuses, distinct


def stored_ids(env: dict[str, str]) -> list[int]:
    script = (
        "from newsdesk.models import TelegramUpdate as T; import json; "
        "print(json.dumps(list(T.objects.values_list('update_id', flat=True))))"
    )
    out = subprocess.run(
        [sys.executable, "manage.py", "shell", "-c", script],
        cwd=ROOT,
        env=env,
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    return json.loads(out.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--profile", choices=["postgres", "sqlite"], default="postgres")
    parser.add_argument("--rate", type=int)
    parser.add_argument("--seconds", type=int, default=30)
    parser.add_argument("--workers", type=int, default=4)
    parser.add_argument("--threads", type=int, default=8)
    args = parser.parse_args()
    rate = args.rate or (200 if args.profile == "postgres" else 50)
    var = Path(tempfile.mkdtemp(prefix="newsdesk-webhook-"))
    env = environment(args.profile, var)
    prepare(args.profile, env)
    port = free_port()
    server = start_gunicorn(env, port, args.workers, args.threads)
    url = f"http://127.0.0.1:{port}/telegram/webhook/"
    try:
        # Warm every worker's connections (database, broker) first, as a running service would be.
        asyncio.run(load(url, rate=50, seconds=2, first_id=1))
        latencies, statuses, distinct = asyncio.run(load(url, rate, args.seconds))
    finally:
        server.terminate()
        server.wait(timeout=30)
    ids = [i for i in stored_ids(env) if i >= 1_000_000]  # the warm-up's updates are not counted
    latencies.sort()
    p = lambda q: latencies[min(len(latencies) - 1, int(len(latencies) * q))]  # noqa: E731
    errors = sum(1 for s in statuses if not 200 <= s < 300)
    lost = len(distinct - set(ids))
    doubled = len(ids) - len(set(ids))
    print(
        f"webhook {args.profile}: {len(statuses)} requests at {rate}/s for {args.seconds} s "
        f"({len(distinct)} distinct updates, {len(statuses) - len(distinct)} redeliveries)"
    )
    print(
        f"  latency p50 {statistics.median(latencies):.1f} ms, p95 {p(0.95):.1f} ms, p99 {p(0.99):.1f} ms, "
        f"max {latencies[-1]:.1f} ms"
    )
    print(f"  non-2xx {errors}, stored {len(ids)}, lost {lost}, stored twice {doubled}")


if __name__ == "__main__":
    main()

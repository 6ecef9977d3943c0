"""Webhook acknowledgement under load: gunicorn on loopback, open-loop at a fixed rate.

Profiles:
  postgres  gunicorn + PostgreSQL + Redis broker, 200 updates/s for 30 s (target p99 <= 100 ms)
  sqlite    gunicorn + SQLite (WAL) + filesystem broker, 50 updates/s for 30 s (target 0 errors)

Every update carries the secret header; 5% are redeliveries of an earlier update_id. Afterwards
the database must hold every distinct update exactly once. The same load then goes to a bare
Django view under the same gunicorn command (the baseline), and both report their latency, the
memory (PSS) of each gunicorn worker and the workers' CPU per request (which, unlike latency,
barely moves with a shared machine's load). With --rounds N the two alternate N times (newsdesk,
bare, newsdesk, ...) so a shared machine's changing load hits both alike, and the medians over
the rounds are printed with the machine's load average before and after.

The postgres profile creates its own database (--database, default newsdesk_bench_<pid>, dropped
at the end) and starts its own Redis (--redis-port, default a free port), stopped by its pid: it
never touches a shared database or Redis.

    uv run python bench/webhook_load.py [--profile postgres|sqlite] [--rate N] [--seconds S]
        [--rounds N] [--redis-port P] [--database NAME]
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
from dataclasses import dataclass
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parent.parent
SECRET = "bench-secret_0123456789"  # noqa: S105 (a throwaway secret for the bench)
PG_ADMIN = "postgres://postgres@127.0.0.1:5432/postgres"
PG_SERVER = "postgres://postgres@127.0.0.1:5432"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def start_redis(port: int) -> tuple[subprocess.Popen[bytes], int]:
    """A private Redis for the broker, stopped by its pid at the end."""
    port = port or free_port()
    command = ["redis-server", "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"]
    proc = subprocess.Popen(command, stdout=subprocess.DEVNULL)
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        with socket.socket() as sock:
            if sock.connect_ex(("127.0.0.1", port)) == 0:
                return proc, port
        time.sleep(0.1)
    proc.kill()
    raise SystemExit("redis-server did not start")


def environment(profile: str, var: Path, database: str, redis_port: int = 0) -> dict[str, str]:
    env = {
        **os.environ,
        "NEWSDESK_VAR_DIR": str(var),
        "TELEGRAM_WEBHOOK_SECRET": SECRET,
        "DJANGO_SETTINGS_MODULE": "newsdesk.settings",
        "NEWSDESK_LOG_LEVEL": "WARNING",
    }
    if profile == "postgres":
        env["DATABASE_URL"] = f"{PG_SERVER}/{database}"
        env["CELERY_BROKER_URL"] = f"redis://127.0.0.1:{redis_port}/0"
    else:
        env.pop("DATABASE_URL", None)
        env.pop("CELERY_BROKER_URL", None)
    return env


def prepare(profile: str, env: dict[str, str], database: str) -> None:
    if profile == "postgres":
        import psycopg

        with psycopg.connect(PG_ADMIN, autocommit=True) as conn:
            conn.execute(f"CREATE DATABASE {database}")
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"], cwd=ROOT, env=env, check=True
    )


def drop_database(database: str) -> None:
    import psycopg

    with psycopg.connect(PG_ADMIN, autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {database} WITH (FORCE)")


def start_gunicorn(
    env: dict[str, str], port: int, workers: int, threads: int, app: str = "newsdesk.wsgi"
) -> subprocess.Popen[bytes]:
    # --preload imports the app once before forking: no worker pays the imports on a live request.
    worker = ["-k", "gthread", "--threads", str(threads)] if threads > 1 else ["-k", "sync"]
    bind = ["-b", f"127.0.0.1:{port}", "-w", str(workers), "--pythonpath", str(ROOT / "bench")]
    command = [
        sys.executable,
        "-m",
        "gunicorn",
        app,
        *bind,
        *worker,
        "--log-level",
        "warning",
        "--preload",
    ]
    proc = subprocess.Popen(command, cwd=ROOT, env=env)
    deadline = time.monotonic() + 120  # a busy shared machine can take long to import
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


def worker_pss_mb(master: int) -> tuple[list[float], float]:
    """PSS of each gunicorn worker (the master's children), and the CPU seconds they used."""
    sizes = []
    cpu_ticks = 0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
            if int(fields[1]) != master:
                continue
            rollup = (stat.parent / "smaps_rollup").read_text()
        except (OSError, IndexError, ValueError):
            continue
        cpu_ticks += int(fields[11]) + int(fields[12])  # utime + stime
        kb = next(int(line.split()[1]) for line in rollup.splitlines() if line.startswith("Pss:"))
        sizes.append(kb / 1024)
    return sizes, cpu_ticks / os.sysconf("SC_CLK_TCK")


def serve_and_load(
    env: dict[str, str], args: argparse.Namespace, rate: int, app: str, first_id: int = 1_000_000
) -> tuple[list[float], list[int], set[int], list[float], float]:
    """Latencies, statuses, distinct update ids, PSS per worker, and the workers' CPU milliseconds
    per request (warm-up included): unlike latency, CPU barely moves with the machine's load."""
    port = free_port()
    server = start_gunicorn(env, port, args.workers, args.threads, app)
    url = f"http://127.0.0.1:{port}/telegram/webhook/"
    try:
        # Warm every worker's connections (database, broker) first, as a running service would be.
        warm = asyncio.run(load(url, rate=50, seconds=2, first_id=1))[0]
        latencies, statuses, distinct = asyncio.run(load(url, rate, args.seconds, first_id))
        pss, cpu_seconds = worker_pss_mb(server.pid)
    finally:
        server.terminate()
        server.wait(timeout=30)
    latencies.sort()
    return latencies, statuses, distinct, pss, cpu_seconds * 1000 / (len(warm) + len(latencies))


@dataclass
class Round:
    latencies: list[float]
    statuses: list[int]
    pss: list[float]
    cpu_ms: float  # the workers' CPU per request

    @property
    def p50(self) -> float:
        return statistics.median(self.latencies)

    @property
    def p99(self) -> float:
        return self.latencies[min(len(self.latencies) - 1, int(len(self.latencies) * 0.99))]

    @property
    def errors(self) -> int:
        return sum(1 for s in self.statuses if not 200 <= s < 300)

    @property
    def worker_pss(self) -> float:
        return statistics.median(self.pss)


def describe(label: str, rounds: list[Round]) -> None:
    for n, one in enumerate(rounds, 1):
        print(
            f"  {label:<9} round {n}: p50 {one.p50:5.1f} ms, p99 {one.p99:6.1f} ms, max "
            f"{one.latencies[-1]:6.1f} ms, non-2xx {one.errors}; PSS per worker {one.worker_pss:5.1f} MB "
            f"(median of {len(one.pss)}); worker CPU {one.cpu_ms:4.2f} ms per request"
        )


def median_of(rounds: list[Round], figure: str) -> float:
    return statistics.median(getattr(one, figure) for one in rounds)


def load_average() -> str:
    return " ".join(f"{value:.1f}" for value in os.getloadavg())


def compare(ours: list[Round], bare: list[Round]) -> None:
    """Medians over the rounds, side by side, and their ratios."""
    print(f"  medians over {len(ours)} round(s):     newsdesk   bare view   ratio")
    for figure, unit in (("p50", "ms"), ("p99", "ms"), ("worker_pss", "MB"), ("cpu_ms", "ms")):
        a, b = median_of(ours, figure), median_of(bare, figure)
        print(f"    {figure:<10} {a:10.1f} {unit} {b:8.1f} {unit} {a / b:7.1f}x")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--profile", choices=["postgres", "sqlite"], default="postgres")
    parser.add_argument("--rate", type=int)
    parser.add_argument("--seconds", type=int, default=30)
    parser.add_argument("--workers", type=int, default=4)
    parser.add_argument("--threads", type=int, default=8)
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--redis-port", type=int, default=0, help="default: a free port")
    parser.add_argument("--database", default=f"newsdesk_bench_{os.getpid()}")
    args = parser.parse_args()
    rate = args.rate or (200 if args.profile == "postgres" else 50)
    var = Path(tempfile.mkdtemp(prefix="newsdesk-webhook-"))
    redis, redis_port = start_redis(args.redis_port) if args.profile == "postgres" else (None, 0)
    env = environment(args.profile, var, args.database, redis_port)
    bare_env = {**env, "DJANGO_SETTINGS_MODULE": "_bare_django"}
    loads = [load_average()]
    ours: list[Round] = []
    bare: list[Round] = []
    sent: set[int] = set()
    try:
        prepare(args.profile, env, args.database)
        for n in range(args.rounds):
            latencies, statuses, distinct, pss, cpu_ms = serve_and_load(
                env, args, rate, "newsdesk.wsgi", first_id=1_000_000 * (n + 1)
            )
            ours.append(Round(latencies, statuses, pss, cpu_ms))
            sent |= distinct
            bare.append(Round(*_without_ids(serve_and_load(bare_env, args, rate, "_bare_django"))))
        ids = [i for i in stored_ids(env) if i >= 1_000_000]  # the warm-ups' updates are not counted
    finally:
        if args.profile == "postgres":
            drop_database(args.database)
        if redis is not None:
            redis.terminate()
            redis.wait(timeout=10)
    loads.append(load_average())
    report(args, rate, ours, bare, loads)
    lost = len(sent - set(ids))
    print(f"  stored {len(ids)}, lost {lost}, stored twice {len(ids) - len(set(ids))}")


def _without_ids(
    result: tuple[list[float], list[int], set[int], list[float], float],
) -> tuple[list[float], list[int], list[float], float]:
    return result[0], result[1], result[3], result[4]


def report(
    args: argparse.Namespace, rate: int, ours: list[Round], bare: list[Round], loads: list[str]
) -> None:
    print(
        f"webhook {args.profile}: {rate} updates/s for {args.seconds} s per round, {args.rounds} round(s), "
        f"gunicorn --preload -w {args.workers} --threads {args.threads}; "
        f"load average (1/5/15 min) {loads[0]} before, {loads[1]} after on {os.cpu_count()} cores"
    )
    describe("newsdesk", ours)
    describe("bare view", bare)
    compare(ours, bare)


if __name__ == "__main__":
    main()

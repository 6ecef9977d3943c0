"""Webhook acknowledgement under load: gunicorn on loopback, open-loop at a fixed rate.

Profiles:
  postgres  gunicorn + PostgreSQL + Redis broker, 200 updates/s for 30 s (target p99 <= 100 ms)
  sqlite    gunicorn + SQLite (WAL) + filesystem broker, 50 updates/s for 30 s (target 0 errors)

Every update carries the secret header; 5% are redeliveries of an earlier update_id. Afterwards
the database must hold every distinct update exactly once. The same load then goes to a bare
Django view under the same gunicorn command (the baseline), and both report their latency, the
memory (PSS) of each gunicorn worker and the workers' CPU per request (which, unlike latency,
barely moves with a shared machine's load). With --before DIR the checkout in DIR (a worktree of
an earlier commit, say) is served and measured the same way, on the same database and Redis. With
--rounds N they alternate N times (before, newsdesk, bare, before, ...) so a shared machine's
changing load hits all alike, and the medians over the rounds are printed with the machine's load
average before and after. The load client (bench/_http_load.py) runs in this process, on the same
cores, and its CPU per request is printed too.

The postgres profile creates its own database (--database, default newsdesk_bench_<pid>, dropped
at the end) and starts its own Redis (--redis-port, default a free port), stopped by its pid: it
never touches a shared database or Redis.

    uv run python bench/webhook_load.py [--profile postgres|sqlite] [--rate N] [--seconds S]
        [--rounds N] [--redis-port P] [--database NAME] [--before DIR]
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
from _http_load import open_loop, post_request

ROOT = Path(__file__).resolve().parent.parent
SECRET = "bench-secret_0123456789"  # noqa: S105 (a throwaway secret for the bench)
PG_ADMIN = "postgres://postgres@127.0.0.1:5432/postgres"
PG_SERVER = "postgres://postgres@127.0.0.1:5432"
WEBHOOK = "/telegram/webhook/"


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
    env: dict[str, str], port: int, workers: int, threads: int, app: str = "newsdesk.wsgi", root: Path = ROOT
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
    proc = subprocess.Popen(command, cwd=root, env=env)
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


def load(
    port: int, rate: int, seconds: int, first_id: int = 1_000_000
) -> tuple[list[float], list[int], set[int]]:
    """Posts updates at `rate` per second (5% of them redeliveries of an earlier update_id)."""
    headers = {"Content-Type": "application/json", "X-Telegram-Bot-Api-Secret-Token": SECRET}
    sent: list[int] = []

    def request(n: int) -> bytes:
        if sent and random.random() < 0.05:
            update_id = random.choice(sent)  # a redelivery
        else:
            update_id = first_id + n + 1
            sent.append(update_id)
        return post_request(WEBHOOK, update(update_id), headers)

    latencies, statuses = asyncio.run(open_loop(port, request, rate, seconds))
    return latencies, statuses, set(sent)


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


@dataclass
class Contestant:
    label: str
    app: str  # the WSGI module
    env: dict[str, str]
    root: Path = ROOT  # the checkout it is served from
    first_id: int = 0  # its update ids start here (0: it stores nothing)
    relay: bool = False  # run a worker whose relay publishes what the web stores (PostgreSQL)


@dataclass
class Round:
    latencies: list[float]
    statuses: list[int]
    pss: list[float]
    cpu_ms: float  # the workers' CPU per request
    client_cpu_ms: float  # the load client's (this process), for the record
    relay_cpu_ms: float = 0.0  # the relay worker's CPU per update it published
    unsent: int = 0  # outbox messages left unpublished once the load and the relay were done

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


def serve_and_load(
    one: Contestant, args: argparse.Namespace, rate: int, first_id: int
) -> tuple[Round, set[int]]:
    """One round: latencies, PSS per worker, and the workers' CPU milliseconds per request (warm-up
    included), which unlike latency barely moves with the machine's load; and the ids sent."""
    port = free_port()
    relay = RelayWorker(one.env, one.root) if one.relay else None
    server = start_gunicorn(one.env, port, args.workers, args.threads, one.app, one.root)
    try:
        # Warm every worker's connections (database, broker) first, as a running service would be.
        warm = load(port, rate=50, seconds=2, first_id=first_id - 1000)[0]
        client_started = time.process_time()
        relay_started = relay.cpu_seconds() if relay else 0.0
        latencies, statuses, distinct = load(port, rate, args.seconds, first_id)
        client_cpu = time.process_time() - client_started
        pss, cpu_seconds = worker_pss_mb(server.pid)
    finally:
        server.terminate()
        server.wait(timeout=30)
    unsent, relay_cpu = 0, 0.0
    if relay:
        unsent = relay.drain(one.env)
        relay_cpu = (relay.cpu_seconds() - relay_started) * 1000 / len(distinct)
        relay.stop()
    latencies.sort()
    cpu_ms = cpu_seconds * 1000 / (len(warm) + len(latencies))
    client_cpu_ms = client_cpu * 1000 / len(latencies)
    return Round(latencies, statuses, pss, cpu_ms, client_cpu_ms, relay_cpu, unsent), distinct


class RelayWorker:
    """A Celery worker that consumes nothing (a queue nobody uses): what it does is its outbox
    relay, which on PostgreSQL publishes whatever the web process stores, on notification."""

    def __init__(self, env: dict[str, str], root: Path) -> None:
        command = [sys.executable, "-m", "celery", "-A", "newsdesk", "worker", "-P", "solo"]
        command += ["-Q", "bench-relay-only", "-n", f"relay-{os.getpid()}@bench", "--loglevel", "WARNING"]
        self.proc = subprocess.Popen(command, cwd=root, env=env)
        deadline = time.monotonic() + 120
        while not self._leads(env):  # the relay that leads LISTENs: ready
            if time.monotonic() > deadline or self.proc.poll() is not None:
                self.proc.kill()
                raise SystemExit("the relay worker did not start")
            time.sleep(0.2)

    @staticmethod
    def _leads(env: dict[str, str]) -> bool:
        sql = (
            "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND granted AND database = "
            "(SELECT oid FROM pg_database WHERE datname = current_database())"
        )
        return bool(_query(env, sql))

    def cpu_seconds(self) -> float:
        fields = Path(f"/proc/{self.proc.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def drain(self, env: dict[str, str], timeout: float = 30) -> int:
        """Waits for the outbox to empty; returns how many messages are left."""
        deadline = time.monotonic() + timeout
        while (
            left := _query(env, "SELECT count(*) FROM agents_outboxmessage")
        ) and time.monotonic() < deadline:
            time.sleep(0.2)
        return left

    def stop(self) -> None:
        self.proc.terminate()
        self.proc.wait(timeout=30)


def _query(env: dict[str, str], sql: str) -> int:
    import psycopg

    with psycopg.connect(env["DATABASE_URL"], autocommit=True) as conn:
        row = conn.execute(sql).fetchone()
    return int(row[0]) if row else 0


def describe(label: str, rounds: list[Round]) -> None:
    for n, one in enumerate(rounds, 1):
        print(
            f"  {label:<9} round {n}: p50 {one.p50:5.1f} ms, p99 {one.p99:6.1f} ms, max "
            f"{one.latencies[-1]:6.1f} ms, non-2xx {one.errors}; PSS per worker {one.worker_pss:5.1f} MB "
            f"(median of {len(one.pss)}); worker CPU {one.cpu_ms:4.2f} ms per request "
            f"(load client {one.client_cpu_ms:4.2f} ms"
            + (
                f", relay worker {one.relay_cpu_ms:4.2f} ms per update, unsent {one.unsent}"
                if one.relay_cpu_ms
                else ""
            )
            + ")"
        )


def median_of(rounds: list[Round], figure: str) -> float:
    return statistics.median(getattr(one, figure) for one in rounds)


def load_average() -> str:
    return " ".join(f"{value:.1f}" for value in os.getloadavg())


def compare(results: dict[str, list[Round]]) -> None:
    """Medians over the rounds, side by side, and each one's ratio to the bare view."""
    labels = list(results)
    print(f"  medians over the rounds: {'  '.join(f'{label:>12}' for label in labels)}   ratio to bare")
    for figure, unit in (("p50", "ms"), ("p99", "ms"), ("worker_pss", "MB"), ("cpu_ms", "ms")):
        values = [median_of(results[label], figure) for label in labels]
        ratios = " / ".join(f"{value / values[-1]:.1f}x" for value in values[:-1])
        print(f"    {figure:<10}             {'  '.join(f'{v:9.1f} {unit}' for v in values)}   {ratios}")


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
    parser.add_argument(
        "--before",
        type=Path,
        help="also serve the checkout in this folder (say, a worktree of an earlier commit)",
    )
    args = parser.parse_args()
    rate = args.rate or (200 if args.profile == "postgres" else 50)
    var = Path(tempfile.mkdtemp(prefix="newsdesk-webhook-"))
    redis, redis_port = start_redis(args.redis_port) if args.profile == "postgres" else (None, 0)
    env = environment(args.profile, var, args.database, redis_port)
    relay = args.profile == "postgres"  # where the web only stores and the workers' relay publishes
    contestants = [Contestant("newsdesk", "newsdesk.wsgi", env, first_id=1_000_000, relay=relay)]
    if args.before:
        before = Contestant("before", "newsdesk.wsgi", env, args.before.resolve(), 500_000_000, relay=relay)
        contestants.insert(0, before)
    contestants.append(
        Contestant("bare view", "_bare_django", {**env, "DJANGO_SETTINGS_MODULE": "_bare_django"})
    )
    loads = [load_average()]
    results: dict[str, list[Round]] = {one.label: [] for one in contestants}
    sent: set[int] = set()
    try:
        prepare(args.profile, env, args.database)
        for n in range(args.rounds):  # alternated, so a shared machine's changing load hits all alike
            for one in contestants:
                result, distinct = serve_and_load(
                    one, args, rate, first_id=one.first_id + 1_000_000 * n + 10_000
                )
                results[one.label].append(result)
                sent |= distinct if one.first_id else set()
        ids = [i for i in stored_ids(env) if i % 1_000_000 >= 10_000]  # the warm-ups' are not counted
    finally:
        if args.profile == "postgres":
            drop_database(args.database)
        if redis is not None:
            redis.terminate()
            redis.wait(timeout=10)
    loads.append(load_average())
    report(args, rate, results, loads)
    lost = len(sent - set(ids))
    print(f"  stored {len(ids)}, lost {lost}, stored twice {len(ids) - len(set(ids))}")


def report(args: argparse.Namespace, rate: int, results: dict[str, list[Round]], loads: list[str]) -> None:
    print(
        f"webhook {args.profile}: {rate} updates/s for {args.seconds} s per round, {args.rounds} round(s), "
        f"gunicorn --preload -w {args.workers} --threads {args.threads}; "
        f"load average (1/5/15 min) {loads[0]} before, {loads[1]} after on {os.cpu_count()} cores"
    )
    for label, rounds in results.items():
        describe(label, rounds)
    compare(results)


if __name__ == "__main__":
    main()

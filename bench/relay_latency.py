"""From a Telegram update's webhook request to its task message in the broker, one at a time.

On PostgreSQL the web process only stores an update; the insert notifies the workers and the
relay that leads publishes it (agents.work.relay). That adds a hop between "accepted" and "a worker can
take it", which is what a reporter waits on. This bench measures it against the web process
publishing the message itself after the response (NEWSDESK_RELAY_ON_NOTIFY=0, the SQLite path),
in the same run: gunicorn on our own database and Redis, a relay-only worker beside it, and the
broker's queue read directly (BLPOP on the `llm` list) as a worker's consumer would.

Updates go one at a time, the next once the previous message arrived: the figure is the latency
of a quiet moment, not of a queue.

    uv run python bench/relay_latency.py [--updates 200] [--rounds 3]
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time
from pathlib import Path

import httpx
import redis
from webhook_load import (
    SECRET,
    WEBHOOK,
    RelayWorker,
    drop_database,
    environment,
    free_port,
    prepare,
    start_gunicorn,
    start_redis,
    update,
)

QUEUE = "llm"  # where handle_update is routed


def measure(env: dict[str, str], broker: redis.Redis, count: int, first_id: int) -> list[float]:
    """Milliseconds from each request's start to its message's arrival in the queue."""
    port = free_port()
    server = start_gunicorn(env, port, workers=2, threads=4)
    headers = {"Content-Type": "application/json", "X-Telegram-Bot-Api-Secret-Token": SECRET}
    latencies = []
    try:
        with httpx.Client(base_url=f"http://127.0.0.1:{port}") as client:
            for n in range(-20, count):  # the first 20 warm the connections
                started = time.perf_counter()
                answer = client.post(WEBHOOK, content=update(first_id + n), headers=headers)
                answer.raise_for_status()
                if broker.blpop([QUEUE], timeout=10) is None:
                    raise SystemExit(f"update {first_id + n}: no message within 10 s")
                if n >= 0:
                    latencies.append((time.perf_counter() - started) * 1000)
    finally:
        server.terminate()
        server.wait(timeout=30)
    return sorted(latencies)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--updates", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--database", default=f"newsdesk_relay_bench_{os.getpid()}")
    args = parser.parse_args()
    redis_server, redis_port = start_redis(0)
    env = environment("postgres", Path(tempfile.mkdtemp(prefix="newsdesk-relay-")), args.database, redis_port)
    contestants = {
        "relay on notify": {**env, "NEWSDESK_RELAY_ON_NOTIFY": "1"},
        "web publishes": {**env, "NEWSDESK_RELAY_ON_NOTIFY": "0"},
    }
    results: dict[str, list[list[float]]] = {label: [] for label in contestants}
    relay = None
    try:
        prepare("postgres", env, args.database)
        relay = RelayWorker(env, Path(__file__).resolve().parent.parent)
        broker = redis.Redis(port=redis_port)
        for n in range(args.rounds):  # alternated, so a shared machine's load hits both alike
            for k, (label, one) in enumerate(contestants.items()):
                first_id = 1_000_000 * (2 * n + k + 1)
                results[label].append(measure(one, broker, args.updates, first_id))
    finally:
        if relay is not None:
            relay.stop()
        drop_database(args.database)
        redis_server.terminate()
        redis_server.wait(timeout=10)
    report(args, results)


def report(args: argparse.Namespace, results: dict[str, list[list[float]]]) -> None:
    print(f"request start -> message in the broker, {args.updates} updates singly, {args.rounds} rounds")
    for label, rounds in results.items():
        for n, ms in enumerate(rounds, 1):
            p50, p99 = statistics.median(ms), ms[int(len(ms) * 0.99) - 1]
            print(f"  {label:<16} round {n}: p50 {p50:5.1f} ms, p99 {p99:5.1f} ms, max {ms[-1]:5.1f} ms")
        p50s = [statistics.median(ms) for ms in rounds]
        print(f"  {label:<16} median p50 over the rounds: {statistics.median(p50s):5.1f} ms")


if __name__ == "__main__":
    main()

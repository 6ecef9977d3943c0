"""Drafts in flight per GB and drafts per minute: the `llm` worker as prefork vs a thread pool.

Starts the real `llm` worker the way `make run` does (SQLite + filesystem broker in a throwaway
directory, nothing shared), queues N drafts at once against the fake Anthropic answering every
call after a fixed delay (a slow model), and measures the time until all are done and the
worker tree's memory (PSS summed over the parent and its pool children, sampled while it runs).

    uv run python bench/llm_pool.py [--drafts 40] [--latency 2] [--threads 32] [--prefork 2]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from _django import ROOT, setup

VAR = setup()

from django.conf import settings  # noqa: E402

from agents.models import Run  # noqa: E402
from agents.services import draft_create  # noqa: E402
from newsdesk.celery import app, use_broker  # noqa: E402
from tests.factories import ReporterFactory  # noqa: E402
from tests.fakes.anthropic import FakeAnthropic, Recorded, tool_use  # noqa: E402
from tests.fixtures.press import BODY, HEADLINE, PRESS_RELEASE  # noqa: E402

# Back to make run's broker: files under the throwaway directory, shared with the worker.
use_broker(settings.CELERY_BROKER_URL)
app.conf.broker_transport_options = settings.CELERY_BROKER_TRANSPORT_OPTIONS


def answer(request: Recorded) -> list[dict[str, Any]]:
    if request.forced_tool == "verify_article":
        return [
            tool_use("verify_article", {"thinking": "확인", "verdict": "pass", "issues": [], "revisions": []})
        ]
    return [tool_use("submit_article", {"headline": HEADLINE, "body": BODY, "source_indices": []})]


def pss_kb(pid: int) -> int:
    try:
        for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
            if line.startswith("Pss:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


def tree(pid: int) -> list[int]:
    found = [pid]
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if int(fields[1]) == pid:
            found.append(int(stat.parent.name))
    return found


def start_worker(pool: list[str], fake: FakeAnthropic, log: Path) -> subprocess.Popen[bytes]:
    env = {
        **os.environ,
        "NEWSDESK_VAR_DIR": str(VAR),
        "ANTHROPIC_BASE_URL": fake.base_url,
        "ANTHROPIC_API_KEY": "sk-ant-bench",
    }
    command = [sys.executable, "-m", "celery", "-A", "newsdesk", "worker", "-Q", "llm", *pool]
    command += [
        "-n",
        f"bench-{os.getpid()}-{time.monotonic_ns()}@%h",
        "--without-gossip",
        "--without-mingle",
        "-l",
        "INFO",
    ]
    with log.open("wb") as out:
        proc = subprocess.Popen(command, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 60
    while b"ready." not in log.read_bytes():
        if time.monotonic() > deadline or proc.poll() is not None:
            proc.kill()
            raise SystemExit(f"worker did not start:\n{log.read_text()[-2000:]}")
        time.sleep(0.2)
    return proc


def measure(label: str, pool: list[str], slots: int, drafts: int, latency: float) -> dict[str, float]:
    fake = FakeAnthropic(latency=latency)
    fake.otherwise(answer)
    proc = start_worker(pool, fake, VAR / f"worker-{label}.log")
    try:
        time.sleep(1)
        idle_mb = sum(pss_kb(pid) for pid in tree(proc.pid)) / 1024
        reporter = ReporterFactory(anthropic_key="sk-ant-bench")
        started = time.monotonic()
        runs = [draft_create(reporter=reporter, press_release=PRESS_RELEASE) for _ in range(drafts)]
        peak_mb = idle_mb
        pending = Run.objects.filter(pk__in=[r.pk for r in runs]).exclude(status__in=["done", "failed"])
        while pending.exists():
            peak_mb = max(peak_mb, sum(pss_kb(pid) for pid in tree(proc.pid)) / 1024)
            time.sleep(0.25)
        elapsed = time.monotonic() - started
        done = Run.objects.filter(pk__in=[r.pk for r in runs], status="done").count()
    finally:
        proc.terminate()
        proc.wait(timeout=30)
        fake.close()
    return {
        "slots": slots,
        "idle_mb": idle_mb,
        "peak_mb": peak_mb,
        "per_gb": slots / (peak_mb / 1024),
        "seconds": elapsed,
        "per_minute": done / elapsed * 60,
        "done": done,
        "peak_in_flight": fake.peak_in_flight,
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--drafts", type=int, default=40)
    parser.add_argument("--latency", type=float, default=2.0)
    parser.add_argument("--threads", type=int, default=32)
    parser.add_argument("--prefork", type=int, default=2)
    parser.add_argument("--only", choices=["prefork", "threads"])
    args = parser.parse_args()
    configs = [
        ("prefork", ["-c", str(args.prefork)], args.prefork),
        ("threads", ["-P", "threads", "-c", str(args.threads)], args.threads),
    ]
    print(
        f"{args.drafts} drafts, 2 model calls each, {args.latency:g} s per call; SQLite + filesystem broker"
    )
    head = f"{'pool':<22} {'PSS idle':>9} {'PSS peak':>9} {'jobs/GB':>8} {'wall s':>7}"
    print(f"{head} {'drafts/min':>10} {'done':>5}")
    for label, pool, slots in configs:
        if args.only and label != args.only:
            continue
        r = measure(label, pool, slots, args.drafts, args.latency)
        name = f"{label} -c {slots}"
        print(
            f"{name:<22} {r['idle_mb']:>7.0f}MB {r['peak_mb']:>7.0f}MB {r['per_gb']:>8.1f} "
            f"{r['seconds']:>7.1f} {r['per_minute']:>10.1f} {r['done']:>5.0f}"
        )


if __name__ == "__main__":
    main()

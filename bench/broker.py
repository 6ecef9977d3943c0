"""The embedded broker: kombu's filesystem transport against ours (newsdesk/broker.py), with Redis
as the service-backed reference, all on one bare Celery app and one solo worker.

For each: does a worker survive an empty message in its queue (what kombu's own transport leaves
when a reader lists the folder between creating a message file and writing it, kombu #1551); the
latency from publishing a task to its start (median of --tasks, sent one after another); the
worker's CPU while idle (seconds of CPU per minute).

    uv run python bench/broker.py [--tasks 20] [--idle 20]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.integration.harness import RedisServer, wait_until  # noqa: E402


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class Case:
    def __init__(self, kind: str, folder: Path, url: str = "filesystem://", polling: float = 1.0) -> None:
        self.kind, self.folder = kind, folder
        (folder / "queue").mkdir(parents=True)
        self.env = {
            **os.environ,
            "BENCH_BROKER": kind,
            "BENCH_BROKER_URL": url,
            "BENCH_BROKER_FOLDER": str(folder),
            "BENCH_POLLING_INTERVAL": str(polling),
            "PYTHONPATH": str(ROOT),
        }
        self.log = folder / "worker.log"
        self.proc: subprocess.Popen[bytes] | None = None

    def start_worker(self) -> None:
        command = [sys.executable, "-m", "celery", "-A", "bench._broker_app", "worker", "-P", "solo"]
        command += ["-Q", "io", "--without-gossip", "--without-mingle", "--without-heartbeat", "-l", "INFO"]
        with self.log.open("ab") as out:
            self.proc = subprocess.Popen(
                command, cwd=ROOT, env=self.env, stdout=out, stderr=subprocess.STDOUT
            )
        wait_until(lambda: b"ready." in self.log.read_bytes(), timeout=120, what=f"{self.kind} worker")

    def send(self, count: int) -> None:
        code = "import time, bench._broker_app as b\n"
        code += f"for _ in range({count}):\n    b.ping.delay(time.time())\n    time.sleep(1.5)\n"
        subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=self.env, check=True)

    def latencies(self) -> list[float]:
        path = self.folder / "latencies"
        return [float(line) for line in path.read_text().split()] if path.exists() else []

    def plant_empty_message(self) -> None:
        (self.folder / "queue" / f"0_{self.kind}.io.msg").write_bytes(b"")

    def alive_after(self, seconds: float) -> bool:
        assert self.proc is not None
        time.sleep(seconds)
        return self.proc.poll() is None

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(timeout=30)


def measure(case: Case, *, tasks: int, idle: float, plant: bool) -> dict[str, str]:
    case.start_worker()
    assert case.proc is not None
    try:
        before = cpu_seconds(case.proc.pid)
        time.sleep(idle)
        idle_cpu = (cpu_seconds(case.proc.pid) - before) * 60 / idle
        case.send(tasks)
        wait_until(lambda: len(case.latencies()) >= tasks, timeout=120, what="tasks")
        latency = statistics.median(case.latencies()) * 1000
        survived = "-"
        if plant:
            case.plant_empty_message()
            survived = "yes" if case.alive_after(8) else "no (worker exited)"
        return {"latency": f"{latency:.0f} ms", "idle": f"{idle_cpu:.2f} s/min", "survived": survived}
    finally:
        case.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tasks", type=int, default=20)
    parser.add_argument("--idle", type=float, default=20.0)
    args = parser.parse_args()
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp)
        redis = RedisServer(base / "redis")
        redis.start()
        try:
            cases = [
                ("kombu filesystem (before)", Case("kombu-filesystem", base / "kombu"), True),
                (
                    "newsdesk filesystem (make run)",
                    Case("newsdesk-filesystem", base / "ours", polling=0.1),
                    True,
                ),
                ("newsdesk filesystem, polling 1 s", Case("newsdesk-filesystem", base / "slow"), False),
                ("Redis (production)", Case("redis", base / "redis-case", url=redis.url(1)), False),
            ]
            for label, case, plant in cases:
                rows.append((label, measure(case, tasks=args.tasks, idle=args.idle, plant=plant)))
        finally:
            redis.stop()
    header = f"| transport ({args.tasks} tasks, solo worker) | survives an empty message |"
    print(header, "publish→start | idle CPU |")
    print("| --- | --- | --- | --- |")
    for label, row in rows:
        print(f"| {label} | {row['survived']} | {row['latency']} | {row['idle']} |")


if __name__ == "__main__":
    main()

"""Faults on a real stack: gunicorn, Celery workers and beat on PostgreSQL and our own Redis.

Prints the figures of the reliability table in docs/operations.md:
  A. Redis down 20 s while 20 Telegram updates and 10 API drafts arrive.
  B. 24 drafts (from chats, so each has one reply) on a prefork worker: 8 pool-child SIGKILLs,
     then the worker itself SIGKILLed and restarted.
  C. Three llm workers (thread pools, distinct node names), one SIGKILLed mid-run.
  D. 10 Telegram updates (/status) whose worker is SIGKILLed after Telegram showed each reply but
     before any was marked processed, then restarted; baseline in the same run: the same with the
     reply records erased before the restart (what the code did before they existed).
  E. The sweeper's race: --rate updates/s (a fifth of them redelivered) for 30 s with the requeue
     rule at 3 s; every chat must be answered exactly once (bench/_fault_load.py).
  F. The database restarted (cut at a loopback proxy for --outage s) under 30 updates/s with the
     production recovery settings: the time from its return to the last reply, none lost or twice.
     E and F each run on a stack of their own: give them alone (--only E, --only F).

Recovery settings are the production defaults (deploy/newsdesk.env.example) unless --fast.
Uses its own redis-server on a free port and its own database (--db, newsdesk_faults); the fake
model answers every call after --llm-delay seconds, so kills land mid-draft.

    uv run python bench/faults.py [--fast] [--llm-delay 1.0] [--only A,B,C,D] [--db NAME]
    uv run python bench/faults.py --only E [--rate 80]
    uv run python bench/faults.py --only F [--outage 10]
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import _fault_load  # noqa: E402

from tests.integration.harness import (  # noqa: E402
    FAST_RECOVERY,
    RedisServer,
    SteadyAnthropic,
    TcpProxy,
    Worker,
    free_port,
)

PG_ADMIN = "postgres://postgres@127.0.0.1:5432/postgres"
DB_NAME = "newsdesk_faults"  # --db
SECRET = "faults-bench-secret_0123"  # noqa: S105 (a throwaway secret for the bench)
FERNET = "gQ5Nql6Z1XwV6Yk0uQkqg6bqG6B5m3b1yC3hQ1Zb0nE="


class Stack:
    def __init__(self, var: Path, fast: bool, llm_delay: float, db: str = DB_NAME) -> None:
        from tests.fakes.telegram import FakeTelegram

        self.var, self.db = var, db
        self.redis = RedisServer(var / "redis")
        self.redis.start()
        self.llm = SteadyAnthropic(delay=llm_delay)
        self.telegram = FakeTelegram()
        self.env = {
            **os.environ,
            **(FAST_RECOVERY if fast else {}),
            "DJANGO_SETTINGS_MODULE": "newsdesk.settings",
            "DATABASE_URL": f"postgres://postgres@127.0.0.1:5432/{db}",
            "CELERY_BROKER_URL": self.redis.url(),
            "NEWSDESK_VAR_DIR": str(var / "var"),
            "NEWSDESK_ENCRYPTION_KEYS": FERNET,
            "NEWSDESK_LOG_LEVEL": "WARNING",
            "ANTHROPIC_BASE_URL": self.llm.base_url,
            "ANTHROPIC_API_KEY": "",
            "TELEGRAM_BOT_TOKEN": self.telegram.token,
            "TELEGRAM_API_BASE_URL": self.telegram.base_url,
            "TELEGRAM_FILE_BASE_URL": self.telegram.file_base_url,
            "TELEGRAM_WEBHOOK_SECRET": SECRET,
        }
        self.procs: list[subprocess.Popen[bytes]] = []
        self.workers: list[Worker] = []

    def prepare(self) -> None:
        import psycopg

        with psycopg.connect(PG_ADMIN, autocommit=True) as conn:
            conn.execute(f"DROP DATABASE IF EXISTS {self.db} WITH (FORCE)")
            conn.execute(f"CREATE DATABASE {self.db}")
        subprocess.run(
            [sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"],
            cwd=ROOT,
            env=self.env,
            check=True,
        )
        os.environ.update({k: v for k, v in self.env.items() if k != "DJANGO_SETTINGS_MODULE"})
        os.environ.setdefault("DJANGO_SETTINGS_MODULE", "newsdesk.settings")
        import django

        django.setup()

    def start_web(self) -> str:
        port = free_port()
        command = [
            sys.executable,
            "-m",
            "gunicorn",
            "-c",
            "deploy/gunicorn.conf.py",
            "-b",
            f"127.0.0.1:{port}",
        ]
        command += ["--log-level", "warning", "--access-logfile", "/dev/null", "newsdesk.wsgi:application"]
        self.procs.append(subprocess.Popen(command, cwd=ROOT, env=self.env))
        url = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            try:
                httpx.get(f"{url}/healthz", timeout=2)
                return url
            except httpx.HTTPError:
                time.sleep(0.3)
        raise SystemExit("gunicorn did not start")

    def start_beat(self) -> None:
        command = [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "newsdesk",
            "beat",
            "-S",
            "django",
            "--loglevel",
            "WARNING",
        ]
        command += ["--schedule", str(self.var / "beat-schedule")]
        log = (self.var / "beat.log").open("ab")
        self.procs.append(
            subprocess.Popen(command, cwd=ROOT, env=self.env, stdout=log, stderr=subprocess.STDOUT)
        )

    def worker(self, name: str, **kwargs: object) -> Worker:
        worker = Worker(self.env, self.var / f"{name}.log", **kwargs)  # type: ignore[arg-type]
        worker.start()
        self.workers.append(worker)
        return worker

    def close(self) -> None:
        for worker in self.workers:
            worker.stop()
        for proc in self.procs:
            proc.terminate()
        for proc in self.procs:
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                proc.kill()
        self.redis.stop()
        self.llm.close()
        self.telegram.close()


def wait(check: Callable[[], bool], timeout: float) -> float | None:
    start = time.monotonic()
    while not check():
        if time.monotonic() - start > timeout:
            return None
        time.sleep(0.5)
    return time.monotonic() - start


def within(seconds: float | None, since: str) -> str:
    return f"within {seconds:.0f} s {since}" if seconds is not None else "TIMEOUT"


def reporters(count: int, first_chat: int) -> list:
    from newsdesk.models import Reporter

    made = []
    for i in range(count):
        reporter = Reporter(telegram_id=first_chat + i, display_name=f"bench {i}", department="사회부")
        reporter.set_anthropic_key(f"sk-ant-bench-{first_chat + i:06d}")
        reporter.save()
        made.append(reporter)
    return made


def chat_drafts(reps: list) -> list[int]:
    from agents.models import Run
    from agents.services import draft_create
    from tests.fixtures.press import PRESS_RELEASE

    return [
        draft_create(reporter=r, press_release=PRESS_RELEASE, channel=Run.Channel.TELEGRAM).pk for r in reps
    ]


def tally(stack: Stack, run_ids: list[int]) -> dict[str, int]:
    from agents.models import Article, Run
    from newsdesk.telegram.delivery import result_messages

    runs = list(Run.objects.filter(pk__in=run_ids).select_related("reporter"))
    articles = {r.pk: Article.objects.filter(run=r).count() for r in runs}
    extra_replies = 0
    for run in runs:
        if run.channel == Run.Channel.TELEGRAM:
            extra_replies += max(
                0, len(stack.telegram.sent_texts(run.reporter.telegram_id)) - len(result_messages(run))
            )
    return {
        "done": sum(r.status == Run.Status.DONE for r in runs),
        "terminal": sum(r.is_finished for r in runs),
        "duplicate_articles": sum(max(0, n - 1) for n in articles.values()),
        "duplicate_replies": extra_replies,
        "max_attempts": max((r.attempts for r in runs), default=0),
    }


def finished(run_ids: list[int]) -> Callable[[], bool]:
    from agents.models import Run

    return lambda: Run.objects.filter(pk__in=run_ids, status__in=["done", "failed"]).count() == len(run_ids)


def delivered(stack: Stack, run_ids: list[int]) -> Callable[[], bool]:
    from agents.models import Run
    from newsdesk.telegram.delivery import result_messages

    def check() -> bool:
        runs = Run.objects.filter(pk__in=run_ids).select_related("reporter")
        return all(
            len(stack.telegram.sent_texts(r.reporter.telegram_id)) >= len(result_messages(r)) for r in runs
        )

    return check


def scenario_a(stack: Stack, url: str) -> None:
    from agents.models import Article, Run
    from newsdesk.models import TelegramUpdate
    from newsdesk.services import token_issue
    from tests.fakes.telegram import text_update
    from tests.fixtures.press import PRESS_RELEASE

    chats = reporters(20, 810_000)
    drafter = reporters(1, 820_000)[0]
    token = token_issue(reporter=drafter)
    stack.redis.kill()
    down_at = time.monotonic()
    statuses: list[int] = []
    accepted: list[int] = []
    schedule = ["update", "update", "draft"] * 10  # 20 updates and 10 drafts over the 20 s outage
    updates = iter(chats)
    with httpx.Client(timeout=30) as http:
        for step, kind in enumerate(schedule):
            if kind == "draft":
                auth = {"Authorization": f"Bearer {token}"}
                response = http.post(f"{url}/api/drafts", json={"press_release": PRESS_RELEASE}, headers=auth)
                if response.status_code == 202:
                    accepted.append(response.json()["id"])
            else:
                update = text_update(chat_id=next(updates).telegram_id, text="/help")
                headers = {"X-Telegram-Bot-Api-Secret-Token": SECRET, "Content-Type": "application/json"}
                response = http.post(f"{url}/telegram/webhook/", content=json.dumps(update), headers=headers)
            statuses.append(response.status_code)
            time.sleep(max(0.0, down_at + (step + 1) * 20 / len(schedule) - time.monotonic()))
    stack.redis.start()
    back = time.monotonic()
    answered = lambda: all(len(stack.telegram.sent_texts(c.telegram_id)) >= 1 for c in chats)  # noqa: E731
    t_updates = wait(answered, 300)
    t_drafts = wait(finished(accepted), 300)
    replies = [len(stack.telegram.sent_texts(c.telegram_id)) for c in chats]
    failure_runs = Run.objects.filter(reporter=drafter).exclude(pk__in=accepted).count()
    print(
        "A. Redis down 20 s while 20 updates + 10 drafts arrive (restarted on the same port, no persistence)"
    )
    print(
        f"   answers during the outage: {statuses.count(200)}×200 (webhook), "
        f"{statuses.count(202)}×202 (API), {len(statuses) - statuses.count(200) - statuses.count(202)} other"
    )
    print(
        f"   updates answered exactly once: {sum(n == 1 for n in replies)}/20 "
        f"(all within {t_updates:.1f} s of Redis's return)"
        if t_updates is not None
        else "   updates: TIMEOUT"
    )
    print(
        f"   drafts done once: {Run.objects.filter(pk__in=accepted, status='done').count()}/{len(accepted)}, "
        f"{sum(max(0, Article.objects.filter(run_id=r).count() - 1) for r in accepted)} duplicate articles "
        f"(all within {t_drafts:.1f} s)"
        if t_drafts is not None
        else "   drafts: TIMEOUT"
    )
    print(
        f"   runs started after a failure answer: {failure_runs}; stored updates: "
        f"{TelegramUpdate.objects.count()}/20; back after {time.monotonic() - back:.0f} s total"
    )


def scenario_b(stack: Stack) -> None:
    worker = stack.worker("b-worker", queues="llm", pool="prefork", concurrency=4)
    run_ids = chat_drafts(reporters(24, 830_000))
    kills = 0
    while kills < 8:
        seen = len(stack.llm.requests)
        if wait(lambda seen=seen: len(stack.llm.requests) > seen and bool(worker.children()), 60) is None:
            break
        kills += worker.kill_children() > 0
        time.sleep(0.5)
    worker.kill()
    stack.workers.remove(worker)
    stack.worker("b-worker2", queues="llm", pool="prefork", concurrency=4)
    restarted = time.monotonic()
    t = wait(finished(run_ids), 300)
    wait(delivered(stack, run_ids), 120)
    figures = tally(stack, run_ids)
    print("B. 24 drafts from chats; 8 pool-child SIGKILLs, then the worker SIGKILLed and restarted")
    print(
        f"   pool-child kill rounds: {kills}; terminal {figures['terminal']}/24 "
        f"({figures['done']} done) {within(t, 'of the restart')}"
    )
    print(
        f"   duplicate articles: {figures['duplicate_articles']}, duplicate replies: "
        f"{figures['duplicate_replies']}, most deliveries of one run: {figures['max_attempts']}"
    )
    del restarted


def scenario_c(stack: Stack) -> None:
    workers = [stack.worker(f"c-llm{i}", queues="llm", pool="threads", concurrency=8) for i in range(3)]
    run_ids = chat_drafts(reporters(18, 840_000))
    wait(lambda: len(stack.llm.requests) >= 6, 60)
    workers[0].kill()
    stack.workers.remove(workers[0])
    killed = time.monotonic()
    t = wait(finished(run_ids), 300)
    wait(delivered(stack, run_ids), 120)
    figures = tally(stack, run_ids)
    names = ", ".join(w.name.replace("%h", socket.gethostname()) for w in workers)
    print(f"C. Three llm workers ({names}), one SIGKILLed mid-run; 18 drafts from chats")
    print(
        f"   done {figures['done']}/18 {within(t, 'of the kill')}; "
        f"duplicate articles {figures['duplicate_articles']}, "
        f"duplicate replies {figures['duplicate_replies']}"
    )
    del killed


def scenario_d(stack: Stack) -> None:
    print(
        "D. 10 updates (/status); the worker SIGKILLed after Telegram showed every reply, before any "
        "update was marked processed; restarted"
    )
    for first_chat, erase in ((850_000, False), (860_000, True)):
        replies, t = _killed_after_replying(stack, reporters(10, first_chat), erase=erase)
        label = "baseline, reply records erased (before)" if erase else "with the reply records"
        print(
            f"   {label}: answered exactly once {sum(n == 1 for n in replies)}/10, "
            f"duplicate replies {sum(max(0, n - 1) for n in replies)}; "
            f"all handled again {within(t, 'of the restart')}"
        )


def _killed_after_replying(stack: Stack, chats: list, *, erase: bool) -> tuple[list[int], float | None]:
    from newsdesk.models import TelegramUpdate
    from newsdesk.telegram.webhook import receive_update
    from tests.fakes.telegram import text_update

    stack.telegram.stall("sendMessage", 60, times=len(chats))  # shown at once, answered too late
    threads = {"queues": "llm", "pool": "threads", "concurrency": 16}
    worker = stack.worker(f"d-llm-{erase:d}", **threads)
    updates = [text_update(chat_id=c.telegram_id, text="/status") for c in chats]
    for update in updates:
        receive_update(update)
    wait(lambda: all(stack.telegram.sent_texts(c.telegram_id) for c in chats), 180)
    worker.kill()
    stack.workers.remove(worker)
    rows = TelegramUpdate.objects.filter(update_id__in=[u["update_id"] for u in updates])
    if erase:
        rows.update(replies=[])
    stack.worker(f"d-llm-{erase:d}-again", **threads)
    t = wait(lambda: rows.filter(processed_at__isnull=False).count() == len(updates), 600)
    stop_llm_workers(stack)
    return [len(stack.telegram.sent_texts(c.telegram_id)) for c in chats], t


def stop_llm_workers(stack: Stack) -> None:
    for worker in [w for w in stack.workers if w.command[w.command.index("-Q") + 1] == "llm"]:
        worker.stop()
        stack.workers.remove(worker)


def load_scenario(name: str, args: argparse.Namespace) -> None:
    """E or F on a stack of its own: its settings (E) or its database proxy (F) differ."""
    stack = Stack(Path(tempfile.mkdtemp(prefix=f"newsdesk-faults-{name}-")), False, args.llm_delay, args.db)
    if name == "E":
        stack.env.update(_fault_load.RACE_SETTINGS)
    proxy = None
    try:
        stack.prepare()
        if name == "F":  # the processes under test reach the database only through the proxy
            proxy = TcpProxy("127.0.0.1", 5432)
            stack.env["DATABASE_URL"] = f"postgres://postgres@127.0.0.1:{proxy.port}/{stack.db}"
        stack.start_beat()
        url = stack.start_web()
        stack.worker(f"{name.lower()}-llm", queues="llm", pool="threads", concurrency=16)
        stack.worker(f"{name.lower()}-io", queues="io", pool="prefork", concurrency=2)
        print(f"settings: {'requeue rule 3 s (E)' if name == 'E' else 'production defaults'}")
        if name == "E":
            _fault_load.scenario_e(stack, url, SECRET, rate=args.rate, seconds=30)
        else:
            _fault_load.scenario_f(stack, url, SECRET, proxy=proxy, outage=args.outage)
    finally:
        stack.close()
        if proxy is not None:
            proxy.close()


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--fast", action="store_true", help="short heartbeats and sweeps (as the tests)")
    parser.add_argument("--llm-delay", type=float, default=1.0)
    parser.add_argument("--only", default="A,B,C,D")
    parser.add_argument("--db", default=DB_NAME, help="the database to drop and create for the run")
    parser.add_argument("--rate", type=int, default=80, help="E: webhook requests per second")
    parser.add_argument("--outage", type=float, default=10, help="F: seconds the database is away")
    args = parser.parse_args()
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))  # a timeout's TERM still stops the stack
    if args.only in ("E", "F"):
        load_scenario(args.only, args)
        return
    stack = Stack(Path(tempfile.mkdtemp(prefix="newsdesk-faults-")), args.fast, args.llm_delay, args.db)
    try:
        stack.prepare()
        print(
            f"settings: {'fast (tests)' if args.fast else 'production defaults'}; "
            f"model latency {args.llm_delay} s/call"
        )
        stack.start_beat()
        if "A" in args.only:
            url = stack.start_web()
            stack.worker("a-llm", queues="llm", pool="threads", concurrency=32)
            stack.worker("a-io", queues="io", pool="prefork", concurrency=2)
            scenario_a(stack, url)
        else:
            stack.worker("io", queues="io", pool="prefork", concurrency=2)
        stop_llm_workers(stack)
        if "B" in args.only:
            scenario_b(stack)
            stop_llm_workers(stack)
        if "C" in args.only:
            scenario_c(stack)
            stop_llm_workers(stack)
        if "D" in args.only:
            scenario_d(stack)
    finally:
        stack.close()


if __name__ == "__main__":
    main()

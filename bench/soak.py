"""`make run`'s stack under a steady trickle, on the embedded default (SQLite + the filesystem
broker): web, the llm and io workers and beat under supervisord (deploy/supervisord.conf), as
`make run` starts them, with the model and Telegram faked at their HTTP boundary.

Before the trickle, and again halfway, an empty message is put into the `io` and the `llm` queue
(what kombu's own filesystem transport leaves when a worker reads a message file before it is
written, kombu #1551). Then for --minutes: a draft from pasted text and one from an uploaded PDF
through the API, and a Telegram update, in turn every --every seconds; beat runs its sweeps. At
the end: every draft done, every update answered once, no worker exit, nothing left queued, and
/healthz names a live worker for each queue. Exits 1 if any of that fails.

    uv run python bench/soak.py [--minutes 5] [--every 2]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.integration.harness import SteadyAnthropic, free_port, wait_until  # noqa: E402

SECRET = "soak-bench-secret_0123"  # noqa: S105 (a throwaway secret for the bench)
FERNET = "gQ5Nql6Z1XwV6Yk0uQkqg6bqG6B5m3b1yC3hQ1Zb0nE="


class Desk:
    """The supervised stack of `make run`, on its own var folder and port."""

    def __init__(self, base: Path) -> None:
        from tests.fakes.telegram import FakeTelegram

        self.llm, self.telegram = SteadyAnthropic(delay=0.5), FakeTelegram()
        self.var, self.port = base / "var", free_port()
        (base / "run").mkdir()
        self.output = base / "supervisord.out"
        self.env = {
            **os.environ,
            "NEWSDESK_VAR_DIR": str(self.var),
            "NEWSDESK_RUN_DIR": str(base / "run"),
            "NEWSDESK_PORT": str(self.port),
            "LLM_CONCURRENCY": "8",
            "WORKER_CONCURRENCY": "2",
            "NEWSDESK_ENCRYPTION_KEYS": FERNET,
            "ANTHROPIC_BASE_URL": self.llm.base_url,
            "TELEGRAM_BOT_TOKEN": self.telegram.token,
            "TELEGRAM_API_BASE_URL": self.telegram.base_url,
            "TELEGRAM_FILE_BASE_URL": self.telegram.file_base_url,
            "TELEGRAM_WEBHOOK_SECRET": SECRET,
        }
        for name in ("DATABASE_URL", "CELERY_BROKER_URL"):
            self.env.pop(name, None)  # the embedded default
        self.url = f"http://127.0.0.1:{self.port}"
        self.proc: subprocess.Popen[bytes] | None = None

    def prepare(self) -> None:
        manage = [sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"]
        subprocess.run(manage, cwd=ROOT, env=self.env, check=True)
        os.environ.update({k: v for k, v in self.env.items()})
        os.environ.setdefault("DJANGO_SETTINGS_MODULE", "newsdesk.settings")
        import django

        django.setup()

    def start(self) -> None:
        command = [
            str(ROOT / ".venv" / "bin" / "supervisord"),
            "-c",
            str(ROOT / "deploy" / "supervisord.conf"),
        ]
        with self.output.open("ab") as out:
            self.proc = subprocess.Popen(command, cwd=ROOT, env=self.env, stdout=out, stderr=out)
        wait_until(self.healthy, timeout=240, every=1, what="/healthz with live workers")

    def health(self) -> dict:
        try:
            return httpx.get(f"{self.url}/healthz", timeout=5).json()
        except (httpx.HTTPError, ValueError):
            return {}

    def healthy(self) -> bool:
        return self.health().get("workers") == {"llm": "ok", "io": "ok"}

    def plant_empty_messages(self) -> None:
        queue = self.var / "broker" / "queue"
        for name in ("io", "llm"):
            (queue / f"0_planted-{time.monotonic_ns()}.{name}.msg").write_bytes(b"")

    def queued(self) -> int:
        return len(list((self.var / "broker" / "queue").glob("*.msg")))

    def exits(self) -> list[str]:
        return [line for line in self.output.read_text(errors="replace").splitlines() if " exited: " in line]

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(timeout=120)


def trickle(desk: Desk, *, minutes: float, every: float) -> dict[str, list[int]]:
    from newsdesk.models import Reporter
    from newsdesk.services import token_issue
    from tests.fakes.telegram import text_update
    from tests.fixtures.documents import make_pdf
    from tests.fixtures.press import PRESS_RELEASE

    drafter = Reporter(display_name="soak", department="사회부", telegram_id=930_000)
    drafter.set_anthropic_key("sk-ant-soak-000001")
    drafter.save()
    auth = {"Authorization": f"Bearer {token_issue(reporter=drafter)}"}
    hook = {"X-Telegram-Bot-Api-Secret-Token": SECRET, "Content-Type": "application/json"}
    pdf = make_pdf([PRESS_RELEASE])
    sent: dict[str, list[int]] = {"paste": [], "pdf": [], "update": []}
    started, step, planted_again = time.monotonic(), 0, False
    with httpx.Client(base_url=desk.url, timeout=60) as http:
        while time.monotonic() - started < minutes * 60:
            if not planted_again and time.monotonic() - started > minutes * 30:
                desk.plant_empty_messages()
                planted_again = True
            kind = ("paste", "pdf", "update")[step % 3]
            if kind == "paste":
                response = http.post("/api/drafts", json={"press_release": PRESS_RELEASE}, headers=auth)
                sent[kind].append(response.json()["id"])
            elif kind == "pdf":
                files = {"file": ("보도자료.pdf", pdf, "application/pdf")}
                sent[kind].append(http.post("/api/drafts", files=files, headers=auth).json()["id"])
            else:
                chat = 940_000 + step
                update = text_update(chat_id=chat, text="/help")
                http.post("/telegram/webhook/", content=json.dumps(update), headers=hook).raise_for_status()
                sent[kind].append(chat)
            step += 1
            time.sleep(max(0.0, started + step * every - time.monotonic()))
    return sent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--minutes", type=float, default=5.0)
    parser.add_argument("--every", type=float, default=2.0)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        desk = Desk(Path(tmp))
        desk.prepare()
        desk.plant_empty_messages()
        desk.start()
        try:
            sent = trickle(desk, minutes=args.minutes, every=args.every)
            ok = report(desk, sent)
        finally:
            desk.stop()
    raise SystemExit(0 if ok else 1)


def report(desk: Desk, sent: dict[str, list[int]]) -> bool:
    from agents.models import Run

    drafts = sent["paste"] + sent["pdf"]
    finished = lambda: Run.objects.filter(pk__in=drafts, status__in=["done", "failed"]).count() == len(drafts)  # noqa: E731
    answered = lambda: all(len(desk.telegram.sent_texts(chat)) >= 1 for chat in sent["update"])  # noqa: E731
    wait_until(lambda: finished() and answered() and desk.queued() == 0, timeout=300, every=1, what="drain")
    done = {kind: Run.objects.filter(pk__in=sent[kind], status="done").count() for kind in ("paste", "pdf")}
    once = sum(len(desk.telegram.sent_texts(chat)) == 1 for chat in sent["update"])
    health, exits = desk.health(), desk.exits()
    print("| measure | figure |")
    print("| --- | --- |")
    print(f"| drafts from pasted text done | {done['paste']}/{len(sent['paste'])} |")
    print(f"| drafts from an uploaded PDF done | {done['pdf']}/{len(sent['pdf'])} |")
    print(f"| Telegram updates answered exactly once | {once}/{len(sent['update'])} |")
    rejected = len(list((desk.var / "broker" / "rejected").glob("*")))
    print(f"| empty messages set aside (4 planted) | {rejected} |")
    print(f"| worker or beat exits | {len(exits)} |")
    print(f"| messages left queued | {desk.queued()} |")
    print(f"| /healthz at the end | {json.dumps(health)} |")
    return (
        done["paste"] == len(sent["paste"])
        and done["pdf"] == len(sent["pdf"])
        and once == len(sent["update"])
        and not exits
        and health.get("workers") == {"llm": "ok", "io": "ok"}
    )


if __name__ == "__main__":
    main()

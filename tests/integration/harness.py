"""Processes the fault tests and `bench/faults.py` start, signal and kill: their own Redis, a TCP
proxy in front of PostgreSQL (cut it to "restart" the database without touching the shared
server), real Celery workers, and a fake model that drafts forever with a delay.

Nothing here touches a shared service: Redis runs on a free port of its own and is killed by its
pid; the database is only ever cut at the proxy.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tests.fakes.anthropic import FakeAnthropic, Recorded, tool_use
from tests.fixtures.press import BODY, HEADLINE

ROOT = Path(__file__).resolve().parents[2]

# Short recovery settings for the processes under test (production defaults: 10/60/120/30/2 s).
FAST_RECOVERY = {
    "NEWSDESK_HEARTBEAT_SECONDS": "1",
    "NEWSDESK_HEARTBEAT_STALE_SECONDS": "4",
    "NEWSDESK_REQUEUE_AFTER_SECONDS": "6",
    "NEWSDESK_SWEEP_SECONDS": "2",
    "NEWSDESK_OUTBOX_RELAY_SECONDS": "1",
}


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def wait_until(check: Callable[[], bool], *, timeout: float, every: float = 0.2, what: str = "") -> float:
    """Polls until `check()`; returns the seconds it took, raises AssertionError on timeout."""
    start = time.monotonic()
    while not check():
        if time.monotonic() - start > timeout:
            raise AssertionError(f"timed out after {timeout:.0f} s waiting for {what or check}")
        time.sleep(every)
    return time.monotonic() - start


class RedisServer:
    """Our own redis-server on a free loopback port, without persistence (a kill loses its data)."""

    def __init__(self, workdir: Path) -> None:
        if shutil.which("redis-server") is None:
            raise RuntimeError("redis-server is not installed")
        self.port = free_port()
        self.workdir = workdir
        self.proc: subprocess.Popen[bytes] | None = None

    def url(self, db: int = 0) -> str:
        return f"redis://127.0.0.1:{self.port}/{db}"

    def start(self) -> None:
        self.workdir.mkdir(parents=True, exist_ok=True)
        command = ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--save", ""]
        command += ["--appendonly", "no", "--dir", str(self.workdir)]
        self.proc = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        wait_until(self._answers, timeout=10, every=0.05, what="redis to start")

    def _answers(self) -> bool:
        with (
            contextlib.suppress(OSError),
            socket.create_connection(("127.0.0.1", self.port), timeout=1) as sock,
        ):
            sock.sendall(b"PING\r\n")
            return sock.recv(16).startswith(b"+PONG")
        return False

    def kill(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()

    def stop(self) -> None:
        self.kill()


class TcpProxy:
    """A loopback TCP proxy; `cut()` drops every connection and refuses new ones until `restore()`."""

    def __init__(self, target_host: str, target_port: int) -> None:
        self.target = (target_host, target_port)
        self.port = free_port()
        self._conns: set[socket.socket] = set()
        self._lock = threading.Lock()
        self._listener: socket.socket | None = None
        self.restore()

    def restore(self) -> None:
        listener = socket.socket()
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind(("127.0.0.1", self.port))
        listener.listen(128)
        self._listener = listener
        threading.Thread(target=self._accept, args=(listener,), daemon=True).start()

    def cut(self) -> None:
        listener, self._listener = self._listener, None
        if listener is not None:
            with contextlib.suppress(OSError):
                listener.shutdown(socket.SHUT_RDWR)
            listener.close()
        with self._lock:
            conns, self._conns = self._conns, set()
        for conn in conns:
            with contextlib.suppress(OSError):
                conn.shutdown(socket.SHUT_RDWR)
            conn.close()

    close = cut

    def _accept(self, listener: socket.socket) -> None:
        while True:
            try:
                client, _ = listener.accept()
            except OSError:
                return
            try:
                upstream = socket.create_connection(self.target, timeout=5)
            except OSError:
                client.close()
                continue
            # The 5 s was for connecting only: left on, every connection idle for 5 s was dropped,
            # which PostgreSQL never does (a persistent connection between two tasks broke, and the
            # workers retried "outages" that were not there). Nagle off on both legs, as libpq and
            # the server have it: a reply forwarded in pieces would wait for delayed ACKs.
            upstream.settimeout(None)
            for sock in (client, upstream):
                sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            with self._lock:
                self._conns.update((client, upstream))
            for a, b in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pump, args=(a, b), daemon=True).start()

    def _pump(self, source: socket.socket, sink: socket.socket) -> None:
        try:
            while data := source.recv(65536):
                sink.sendall(data)
        except OSError:
            pass
        finally:
            for sock in (source, sink):
                with contextlib.suppress(OSError):
                    sock.shutdown(socket.SHUT_RDWR)


class Worker:
    """A real `celery worker` process; pool children and the worker itself can be SIGKILLed."""

    def __init__(
        self,
        env: dict[str, str],
        log: Path,
        *,
        queues: str = "llm,io",
        pool: str = "prefork",
        concurrency: int = 2,
    ) -> None:
        self.env, self.log = env, log
        self.name = f"fault-{uuid.uuid4().hex[:6]}@%h"
        self.command = [sys.executable, "-m", "celery", "-A", "newsdesk", "worker", "-Q", queues, "-P", pool]
        self.command += ["-c", str(concurrency), "-n", self.name, "--without-gossip", "--without-mingle"]
        self.command += ["--without-heartbeat", "--loglevel", "INFO"]
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self, timeout: float = 120) -> None:
        offset = self.log.stat().st_size if self.log.exists() else 0
        with self.log.open("ab") as out:
            self.proc = subprocess.Popen(
                self.command, cwd=ROOT, env=self.env, stdout=out, stderr=subprocess.STDOUT
            )
        try:
            wait_until(
                lambda: b"ready." in self.log.read_bytes()[offset:], timeout=timeout, what="worker ready"
            )
        except AssertionError:
            self.kill()
            raise

    def children(self) -> list[int]:
        assert self.proc is not None
        found = []
        for stat in Path("/proc").glob("[0-9]*/stat"):
            with contextlib.suppress(OSError, IndexError, ValueError):
                fields = stat.read_text().rsplit(")", 1)[1].split()
                if int(fields[1]) == self.proc.pid:
                    found.append(int(stat.parent.name))
        return found

    def kill_children(self) -> int:
        killed = 0
        for pid in self.children():
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
                killed += 1
        return killed

    def kill(self) -> None:
        """SIGKILL the worker itself (its prefork children die with it, see `stop`)."""
        if self.proc is not None and self.proc.poll() is None:
            children = self.children()
            self.proc.kill()
            self.proc.wait()
            for pid in children:  # orphans would finish their task; a dead machine would not
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.kill()


class SteadyAnthropic(FakeAnthropic):
    """A fake model that answers every draft the same way, for as many drafts as arrive: the
    writing loop gets `submit_article`, verification a pass. `delay` keeps each call in flight long
    enough for a kill to land mid-draft."""

    def __init__(self, delay: float = 0.0) -> None:
        super().__init__()
        self.delay = delay

    def _handle(self, path: str, body: dict[str, Any], headers: dict[str, str]) -> tuple[int, dict, dict]:
        request = Recorded(body=body, headers={k.lower(): v for k, v in headers.items()})
        with self._lock:
            self.requests.append(request)
        if self.delay:
            time.sleep(self.delay)
        if request.forced_tool == "verify_article":
            verdict = {"thinking": "모두 확인", "verdict": "pass", "issues": [], "revisions": []}
            block = tool_use("verify_article", verdict)
        elif request.forced_tool is None and "submit_article" in request.tool_names:
            article = {"headline": HEADLINE, "body": BODY, "word_count": len(BODY), "source_indices": []}
            block = tool_use("submit_article", article)
        else:
            return self._refuse(f"unexpected call (forced tool: {request.forced_tool})")
        return 200, self._message(request, [block], "tool_use", None), {}

"""The loopback HTTP plumbing every fake shares: a quiet HTTP/1.1 handler and a threaded server.

Each fake subclasses `QuietHandler` with its own do_GET/do_POST and starts it with `serve()`.
"""

from __future__ import annotations

import ssl
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


class QuietHandler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    # Headers and body go out in two writes; without TCP_NODELAY, Nagle plus the client's delayed
    # ACK adds ~40 ms to every response on loopback.
    disable_nagle_algorithm = True

    def send_body(
        self, status: int, data: bytes, content_type: str, headers: dict[str, str] | None = None
    ) -> None:
        try:
            self.send_response(status)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(data)))
            for key, value in (headers or {}).items():
                self.send_header(key, value)
            self.end_headers()
            self.wfile.write(data)
        except OSError:
            pass  # the client timed out and left

    def log_message(self, *args: Any) -> None:
        pass


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = 128  # the default backlog of 5 drops bursts of concurrent connects

    def handle_error(self, request: Any, client_address: Any) -> None:
        pass  # clients that hang up early (size caps, timeouts) are expected in these tests


class Loopback:
    """A running server on 127.0.0.1 (a free port), in a daemon thread, until `close()`."""

    def __init__(self, handler: type[BaseHTTPRequestHandler], *, tls: ssl.SSLContext | None = None) -> None:
        self.server = _Server(("127.0.0.1", 0), handler)
        self.scheme = "http"
        if tls is not None:
            self.server.socket = tls.wrap_socket(self.server.socket, server_side=True)
            self.scheme = "https"
        self.thread = threading.Thread(
            target=self.server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        )
        self.thread.start()

    @property
    def port(self) -> int:
        return int(self.server.server_address[1])

    @property
    def origin(self) -> str:
        return f"{self.scheme}://127.0.0.1:{self.port}"

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()

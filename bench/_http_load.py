"""A lean open-loop HTTP/1.1 load client for the web benches (asyncio streams, keep-alive).

The benches run the client on the same cores as the server. httpx's AsyncClient spent ~2.9 ms of
CPU per request here, more than twice what a bare Django view costs to answer, so at 200
requests/s the client itself took over half a core from the server it measured. This one writes
prepared request bytes and reads the status line, the headers and a Content-Length body
(~0.2 ms per request), so the figures are the server's.

Requests start at fixed times (`rate` per second) whatever the server does (open loop), and
latency is counted from a request's scheduled start, so time spent waiting for a free connection
counts too (no coordinated omission).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable

Streams = tuple[asyncio.StreamReader, asyncio.StreamWriter]


def post_request(path: str, body: bytes, headers: dict[str, str]) -> bytes:
    """The bytes of an HTTP/1.1 keep-alive POST."""
    lines = [f"POST {path} HTTP/1.1", "Host: 127.0.0.1", f"Content-Length: {len(body)}"]
    lines += [f"{name}: {value}" for name, value in headers.items()]
    return ("\r\n".join(lines) + "\r\n\r\n").encode() + body


class _Connections:
    def __init__(self, host: str, port: int, limit: int) -> None:
        self.host, self.port = host, port
        self.idle: list[Streams] = []
        self.slots = asyncio.Semaphore(limit)

    async def exchange(self, raw: bytes) -> int:
        """Sends one request and returns its status; reconnects once if the server had closed an
        idle keep-alive connection before this request reached it."""
        async with self.slots:
            for attempt in range(2):
                fresh = attempt > 0 or not self.idle
                reader, writer = (
                    await asyncio.open_connection(self.host, self.port) if fresh else self.idle.pop()
                )
                writer.write(raw)
                status_line = await reader.readline()
                if status_line or fresh:
                    break
                writer.close()  # closed by the server while idle: nothing was read, send again
            if not status_line:
                writer.close()
                raise ConnectionError("connection closed before a response")
            status, keep, chunked = int(status_line.split()[1]), True, False
            length = 0
            while (line := await reader.readline()) not in (b"\r\n", b""):
                name, _, value = line.partition(b":")
                name, value = name.strip().lower(), value.strip().lower()
                if name == b"content-length":
                    length = int(value)
                elif name == b"transfer-encoding":
                    chunked = value == b"chunked"
                elif name == b"connection" and value == b"close":
                    keep = False
            if chunked:  # a response without Content-Length (a bare view sets none)
                while size := int((await reader.readline()).split(b";")[0], 16):
                    await reader.readexactly(size + 2)
                await reader.readline()
            elif length:
                await reader.readexactly(length)
            if keep:
                self.idle.append((reader, writer))
            else:
                writer.close()
            return status


async def open_loop(
    port: int,
    request: Callable[[int], bytes],
    rate: int,
    seconds: float,
    limit: int = 200,
    timeout: float = 10,
) -> tuple[list[float], list[int]]:
    """Sends `request(n)` for n = 0, 1, … at `rate` per second for `seconds`; returns each one's
    latency in ms (from its scheduled start) and its status (0: failed or timed out)."""
    connections = _Connections("127.0.0.1", port, limit)
    latencies: list[float] = []
    statuses: list[int] = []

    async def one(n: int, scheduled: float) -> None:
        try:
            status = await asyncio.wait_for(connections.exchange(request(n)), timeout)
        except (TimeoutError, OSError, ValueError, IndexError):
            status = 0
        statuses.append(status)
        latencies.append((time.perf_counter() - scheduled) * 1000)

    tasks = []
    start = time.perf_counter()
    for n in range(int(rate * seconds)):
        scheduled = start + n / rate
        if (delay := scheduled - time.perf_counter()) > 0:
            await asyncio.sleep(delay)
        tasks.append(asyncio.create_task(one(n, scheduled)))
    await asyncio.gather(*tasks)
    for reader_writer in connections.idle:
        reader_writer[1].close()
    return latencies, statuses

"""A bare Celery app for bench/broker.py: one task that records how long its message took."""

from __future__ import annotations

import os
import time
from pathlib import Path

from celery import Celery

TRANSPORTS = {
    "kombu-filesystem": "kombu.transport.filesystem:Transport",
    "newsdesk-filesystem": "newsdesk.broker:Transport",
}
FOLDER = Path(os.environ.get("BENCH_BROKER_FOLDER", "var/bench-broker"))
KIND = os.environ.get("BENCH_BROKER", "newsdesk-filesystem")
URL = os.environ.get("BENCH_BROKER_URL", "filesystem://")

app = Celery("bench_broker", broker=URL)
if KIND in TRANSPORTS:
    app.conf.broker_transport = TRANSPORTS[KIND]
    app.conf.broker_transport_options = {
        "data_folder_in": str(FOLDER / "queue"),
        "data_folder_out": str(FOLDER / "queue"),
        "control_folder": str(FOLDER / "control"),
        "polling_interval": float(os.environ.get("BENCH_POLLING_INTERVAL", "1.0")),
    }
app.conf.task_default_queue = "io"
app.conf.worker_hijack_root_logger = False


@app.task(name="bench.ping")
def ping(sent_at: float) -> None:
    with (FOLDER / "latencies").open("a") as out:
        out.write(f"{time.time() - sent_at}\n")

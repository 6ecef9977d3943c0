"""Publishing a recorded message builds the message Celery's send_task would, for less."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from kombu import Connection

from agents.work import handoff
from newsdesk.celery import app

TASKS = ["newsdesk.telegram.tasks.handle_update", "agents.tasks.extract_upload", "agents.tasks.draft_run"]
PER_MESSAGE = {"id", "root_id", "eta"}  # headers that differ between any two messages


@pytest.fixture
def memory() -> Iterator[Connection]:
    with Connection("memory://") as connection:  # whatever broker the suite runs on
        yield connection


def received(connection: Connection, queue: str) -> list[Any]:
    messages = []
    with connection.SimpleQueue(queue) as simple:
        while simple.qsize():
            message = simple.get(timeout=1)
            message.ack()
            messages.append(message)
    return messages


def comparable(message: Any) -> dict[str, Any]:
    properties = {k: v for k, v in message.properties.items() if k not in ("correlation_id", "delivery_tag")}
    properties.pop("delivery_info", None)
    return {
        "headers": {k: v for k, v in message.headers.items() if k not in PER_MESSAGE},
        "properties": properties,
        "body": message.decode(),
        "content_type": message.content_type,
    }


@pytest.mark.parametrize("task", TASKS)
@pytest.mark.parametrize("countdown", [None, 30.0])
@pytest.mark.parametrize("registered", [False, True], ids=["web process", "worker"])
def test_a_message_is_the_one_send_task_would_publish(
    memory: Connection, task: str, countdown: float | None, registered: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    import newsdesk.telegram.tasks  # noqa: F401 (registers their tasks, as in a worker)

    assert task in app.tasks  # finalizes the app: shared tasks bind to it

    if not registered:
        monkeypatch.delitem(app._tasks, task)  # the web process imports no task module
    queue = handoff._spec(task, registered).options["queue"].name
    received(memory, queue)  # what earlier tests of this process left
    producer = memory.Producer()

    app.send_task(task, args=[7], countdown=countdown, retry=False, producer=producer)
    handoff.publish_one(producer, task=task, args=[7], countdown=countdown)

    ours, celerys = received(memory, queue)[::-1]
    assert comparable(ours) == comparable(celerys)
    assert (ours.headers["eta"] is None) == (countdown is None)
    assert ours.headers["id"] != celerys.headers["id"]
    assert (ours.headers["timelimit"] == [300, 240]) == registered  # the worker's own limits


def test_updates_are_routed_to_the_llm_queue_and_uploads_to_io() -> None:
    assert handoff._spec("newsdesk.telegram.tasks.handle_update", False).options["queue"].name == "llm"
    assert handoff._spec("agents.tasks.extract_upload", False).options["queue"].name == "io"

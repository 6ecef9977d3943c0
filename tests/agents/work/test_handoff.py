"""Publishing a recorded message: Celery's send_task through the producer it is given, to the queue
the task routes name."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from kombu import Connection

from agents.work import handoff


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


@pytest.mark.parametrize(
    ("task", "queue"),
    [
        ("newsdesk.telegram.tasks.handle_update", "llm"),
        ("agents.tasks.draft_run", "llm"),
        ("agents.tasks.extract_upload", "io"),
    ],
)
@pytest.mark.parametrize("countdown", [None, 30.0])
def test_a_message_reaches_its_tasks_queue_with_its_arguments(
    memory: Connection, task: str, queue: str, countdown: float | None
) -> None:
    received(memory, queue)  # what earlier tests of this process left

    handoff.publish_one(memory.Producer(), task=task, args=[7], countdown=countdown)

    [message] = received(memory, queue)
    assert message.headers["task"] == task
    assert message.decode()[0] == [7]
    assert (message.headers["eta"] is None) == (countdown is None)

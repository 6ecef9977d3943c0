"""The outbox: work is recorded with its task message, published after commit or by the relay."""

from __future__ import annotations

import logging
import time
from typing import Any

import pytest
from kombu.exceptions import OperationalError

from agents import outbox
from agents.models import OutboxMessage, Run
from agents.services import draft_create
from newsdesk.celery import app
from tests.fixtures.press import PRESS_RELEASE

pytestmark = pytest.mark.django_db
DATA = "보도자료 본문".encode()


class Sent(list[tuple[str, list[Any]]]):
    """What reached the broker; `down["down"] = True` makes every publish fail as Redis would."""

    down: dict[str, bool]


@pytest.fixture
def broker(monkeypatch: pytest.MonkeyPatch) -> Sent:
    sent = Sent()
    sent.down = {"down": False}

    def send_task(name: str, args: list[Any], **_: Any) -> None:
        if sent.down["down"]:
            raise OperationalError("Error 111 connecting to 127.0.0.1:6399. Connection refused.")
        sent.append((name, args))

    monkeypatch.setattr(app, "send_task", send_task)
    monkeypatch.setattr(outbox, "broker", outbox._BrokerState())
    return sent


def test_a_run_is_published_once_its_row_is_committed_and_leaves_the_outbox(
    reporter, broker, django_capture_on_commit_callbacks
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        run = draft_create(reporter=reporter, press_release=PRESS_RELEASE)

    assert broker == [("agents.tasks.draft_run", [run.pk])]
    assert not OutboxMessage.objects.exists()


def test_with_the_broker_down_the_run_stays_queued_in_the_outbox_and_the_relay_sends_it_later(
    reporter, broker, django_capture_on_commit_callbacks
) -> None:
    broker.down["down"] = True
    with django_capture_on_commit_callbacks(execute=True):
        run = draft_create(reporter=reporter, press_release=PRESS_RELEASE)

    assert Run.objects.get(pk=run.pk).status == Run.Status.QUEUED
    assert OutboxMessage.objects.get().key == f"run:{run.pk}"
    assert outbox.relay() == 0  # still down

    broker.down["down"] = False
    assert outbox.relay() == 1
    assert broker == [("agents.tasks.draft_run", [run.pk])]
    assert not OutboxMessage.objects.exists()


def test_a_broker_outage_is_logged_once_when_it_starts_and_once_when_it_ends(
    reporter, broker, django_capture_on_commit_callbacks, caplog: pytest.LogCaptureFixture
) -> None:
    broker.down["down"] = True
    with caplog.at_level(logging.INFO, logger="agents.outbox"):
        for _ in range(5):
            with django_capture_on_commit_callbacks(execute=True):
                draft_create(reporter=reporter, press_release=PRESS_RELEASE)
            outbox.relay()
        broker.down["down"] = False
        assert outbox.relay() == 5

    lines = [r.getMessage() for r in caplog.records]
    assert len(lines) == 2, lines
    assert "unreachable" in lines[0] and "back after" in lines[1]
    assert all(r.exc_info is None for r in caplog.records)


def test_a_message_leased_by_one_publisher_is_not_sent_by_another(reporter, broker) -> None:
    message = OutboxMessage.objects.create(task="agents.tasks.draft_run", args=[1], key="run:1")
    assert outbox._publish(message.pk)

    assert not outbox._publish(message.pk)  # gone once sent
    assert broker == [("agents.tasks.draft_run", [1])]


def test_services_record_work_and_never_import_the_task_modules() -> None:
    import ast
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    faces = [*root.glob("agents/services/*.py"), root / "agents/monitoring/services.py"]
    faces += [p for p in root.glob("newsdesk/telegram/*.py") if p.name != "tasks.py"]
    for path in faces:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom):
                names = [f"{node.module}.{a.name}" for a in node.names]
                assert not any(n.endswith(".tasks") or ".tasks." in n for n in names), (path, names)


def test_an_upload_does_not_wait_for_extraction_while_the_broker_is_away(
    reporter, broker, django_capture_on_commit_callbacks
) -> None:
    from agents.services import upload_await, upload_receive

    broker.down["down"] = True
    with django_capture_on_commit_callbacks(execute=True):
        upload = upload_receive(
            reporter=reporter, file_name="a.txt", mime_type="text/plain", data="보도자료".encode()
        )

    started = time.monotonic()
    assert upload_await(upload=upload, timeout=20).status == "pending"
    assert time.monotonic() - started < 2
    assert OutboxMessage.objects.get().task == "agents.tasks.extract_upload"

"""The desk tells a reporter at once when the worker a request needs is gone."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from agents.models import Run
from agents.services import draft_create
from newsdesk import messages as msg
from newsdesk import workers
from newsdesk.models import WorkerBeat
from tests.fixtures.press import PRESS_RELEASE

pytestmark = pytest.mark.django_db


@pytest.fixture
def both_workers_ran() -> None:
    workers.beat(node="w@h", queues=["llm", "io"])


def stop(queue: str, settings) -> None:
    gone = timezone.now() - timedelta(seconds=settings.NEWSDESK_HEARTBEAT_STALE_SECONDS + 1)
    WorkerBeat.objects.filter(queue=queue).update(beat_at=gone)


def test_the_new_draft_page_is_quiet_while_the_workers_are_live(desk: Client, both_workers_ran) -> None:
    page = desk.get("/desk/").content.decode()

    assert all(notice not in page for notice in msg.DESK_WORKER_STOPPED.values())


def test_the_new_draft_and_verify_pages_say_files_cannot_be_read_while_the_file_worker_is_gone(
    desk: Client, both_workers_ran, settings
) -> None:
    stop("io", settings)

    for url in ("/desk/", "/desk/verify/"):
        page = desk.get(url).content.decode()
        assert msg.DESK_WORKER_STOPPED["io"] in page
        assert msg.DESK_WORKER_STOPPED["llm"] not in page


def test_a_waiting_draft_says_the_writing_worker_is_gone(
    desk: Client, reporter, both_workers_ran, settings
) -> None:
    run = draft_create(reporter=reporter, press_release=PRESS_RELEASE)
    assert run.status == Run.Status.QUEUED
    stop("llm", settings)

    page = desk.get(f"/desk/drafts/{run.pk}/").content.decode()

    assert msg.DESK_WORKER_STOPPED["llm"] in page


def test_a_source_file_sent_while_the_file_worker_is_gone_is_answered_at_once_and_kept(
    desk: Client, both_workers_ran, settings
) -> None:
    from django.core.files.uploadedfile import SimpleUploadedFile

    from agents.models import Upload

    settings.NEWSDESK_UPLOAD_WAIT_SECONDS = 3600  # a wait would hang the test: none may happen
    stop("io", settings)
    file = SimpleUploadedFile("자료.txt", PRESS_RELEASE.encode(), "text/plain")

    response = desk.post("/desk/verify/", {"article": "기사 본문입니다.", "sources": "", "file": file})

    assert msg.DESK_WORKER_STOPPED["io"] in response.content.decode()
    assert Upload.objects.filter(file_name="자료.txt").count() == 1

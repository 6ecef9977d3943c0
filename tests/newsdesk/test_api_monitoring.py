"""POST /api/checks, POST /api/reports and GET /api/runs/{id}."""

from __future__ import annotations

from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from django.test import Client

from agents.models import Run
from newsdesk.services import token_issue
from tests.factories import MonitorItemFactory, RunFactory

pytestmark = pytest.mark.django_db
KST = ZoneInfo("Asia/Seoul")
ITEM_KEYS = {
    "id",
    "category",
    "action",
    "title",
    "publisher",
    "url",
    "pub_time",
    "summary",
    "reason",
    "also_reported_by",
}


@pytest.fixture
def api(reporter: Any) -> Client:
    return Client(HTTP_AUTHORIZATION=f"Bearer {token_issue(reporter=reporter)}")


@pytest.mark.parametrize(("path", "kind"), [("/api/checks", "check"), ("/api/reports", "report")])
def test_a_check_or_report_is_queued_with_202(
    api: Client, path: str, kind: str, django_capture_on_commit_callbacks: Any
) -> None:
    with django_capture_on_commit_callbacks() as sent:
        response = api.post(path)

    assert response.status_code == 202
    body = response.json()
    assert body["status"] == "queued"
    run = Run.objects.get(pk=body["id"])
    assert (run.kind, run.channel) == (kind, "api")
    assert len(sent) == 1


def test_a_second_job_while_one_runs_gets_409_with_a_korean_message(api: Client) -> None:
    assert api.post("/api/checks").status_code == 202

    response = api.post("/api/reports")

    assert response.status_code == 409
    assert "이미 실행 중" in response.json()["detail"]
    assert Run.objects.count() == 1


def test_a_check_without_keywords_gets_422_telling_how_to_set_them(api: Client, reporter: Any) -> None:
    reporter.keywords = []
    reporter.save()

    response = api.post("/api/checks")

    assert response.status_code == 422 and "/set_keyword" in response.json()["detail"]


def test_a_run_reads_back_with_its_items(api: Client, reporter: Any) -> None:
    run = RunFactory(reporter=reporter, kind="report", status="done", stage="done")
    MonitorItemFactory(
        run=run,
        position=0,
        category="exclusive",
        action="modified",
        title="[단독] 경찰, 구청장 소환",
        publisher="연합뉴스",
        url="https://n.news.naver.com/mnews/article/001/1",
        pub_time=datetime(2026, 3, 2, 9, 15, tzinfo=KST),
        summary="경찰이 2일 구청장을 소환했다.",
        reason="수사 국면 변화",
    )
    also = [
        {
            "publisher": "뉴시스",
            "title": "b2",
            "url": "https://n.news.naver.com/2",
            "pub_time": "2026-03-02T09:20:00+09:00",
        }
    ]
    MonitorItemFactory(
        run=run,
        position=1,
        category="important",
        action="",
        title="b",
        also_reported=also,
    )

    body = api.get(f"/api/runs/{run.pk}").json()

    assert {k: body[k] for k in ("id", "kind", "status", "stage", "error")} == {
        "id": run.pk,
        "kind": "report",
        "status": "done",
        "stage": "done",
        "error": "",
    }
    assert "started_at" in body and body["finished_at"] is None
    first, second = body["items"]
    assert set(first) == ITEM_KEYS
    assert first["pub_time"] == "2026-03-02T09:15:00+09:00" and first["action"] == "modified"
    assert second["action"] is None and second["pub_time"] is None
    assert first["also_reported_by"] == [] and second["also_reported_by"] == also


def test_a_draft_run_has_no_items(api: Client, reporter: Any) -> None:
    run = RunFactory(reporter=reporter, kind="draft")

    assert api.get(f"/api/runs/{run.pk}").json()["items"] == []


def test_another_reporters_run_is_not_found(api: Client, other_reporter: Any) -> None:
    run = RunFactory(reporter=other_reporter, kind="check")

    assert api.get(f"/api/runs/{run.pk}").status_code == 404
    assert api.get("/api/runs/999999").status_code == 404


def test_the_monitoring_api_needs_authentication(reporter: Any) -> None:
    anonymous = Client()

    assert anonymous.post("/api/checks").status_code == 401
    assert not Run.objects.exists()

"""Edits from the result page: each makes a new revision with its own diff; the history is navigable."""

from __future__ import annotations

import pytest
from django.test import Client

from agents import tasks
from agents.models import Run
from tests.fakes.anthropic import FakeAnthropic
from tests.fixtures.press import BODY
from tests.newsdesk.desk.conftest import HTMX
from tests.newsdesk.desk.html import field_error, one, parse, text

pytestmark = pytest.mark.django_db
SHORTER = BODY.rsplit("\n\n", 1)[0]  # the last paragraph (the quote) removed


def edit(client: Client, run: Run, instruction: str, **extra) -> object:
    return client.post(f"/desk/drafts/{run.pk}/edits/", {"instruction": instruction}, **extra)


def test_the_result_has_an_edit_box_posting_by_htmx_with_a_plain_fallback(
    desk: Client, done_run: Run
) -> None:
    form = one(desk.get(f"/desk/drafts/{done_run.pk}/"), "form.edit")

    assert form["hx-post"] == form["action"] == f"/desk/drafts/{done_run.pk}/edits/"
    assert form.find("input", attrs={"name": "csrfmiddlewaretoken"})
    assert [b.get_text() for b in form.select(".chip")] == [
        "제목 바꿔줘",
        "300자로 줄여줘",
        "두 번째 문단 삭제해",
    ]


def test_an_htmx_edit_swaps_in_the_new_revisions_live_page_and_pushes_its_url(
    desk: Client, done_run: Run
) -> None:
    response = edit(desk, done_run, "두 번째 문단 삭제해", **HTMX)

    revision = Run.objects.get(kind="edit")
    assert revision.parent_article == done_run.article and revision.input == {
        "instruction": "두 번째 문단 삭제해"
    }
    assert response.status_code == 200
    assert response["HX-Retarget"] == "#main" and response["HX-Reswap"] == "innerHTML"
    assert response["HX-Push-Url"] == f"/desk/drafts/{revision.pk}/"
    assert one(response, "#run-status")["hx-trigger"] == "load delay:100ms, every 12s"
    assert [li.get_text() for li in parse(response).select(".stages li")] == ["수정 작성", "완료"]
    assert "두 번째 문단 삭제해" in text(response, ".instruction")


def test_a_plain_edit_post_redirects_to_the_new_revision(desk: Client, done_run: Run) -> None:
    response = edit(desk, done_run, "제목 바꿔줘")

    revision = Run.objects.get(kind="edit")
    assert response.status_code == 303 and response["Location"] == f"/desk/drafts/{revision.pk}/"


def test_an_empty_instruction_is_refused_in_korean_in_the_swapped_form(desk: Client, done_run: Run) -> None:
    response = edit(desk, done_run, "   ", **HTMX)

    assert not Run.objects.filter(kind="edit").exists()
    form = one(response, "form.edit")
    assert "어떻게 고칠지 적어 주세요" in field_error(response, f"id_instruction-{done_run.pk}")
    assert form["hx-target"] == "this"


def test_a_long_instruction_is_refused_and_kept_without_htmx(desk: Client, done_run: Run) -> None:
    response = edit(desk, done_run, "가" * 501)

    assert response.status_code == 200 and "<html" in response.content.decode()
    assert "500자" in field_error(response, f"id_instruction-{done_run.pk}")
    assert one(response, f"#id_instruction-{done_run.pk}").get_text().strip() == "가" * 501


def test_an_unfinished_draft_cannot_be_edited(desk: Client, reporter) -> None:
    from agents.services import draft_create

    run = draft_create(reporter=reporter, press_release=BODY)

    response = edit(desk, run, "제목 바꿔줘", **HTMX)

    assert "완성된 기사만" in text(response, ".form-error")


def test_a_finished_revision_shows_its_diff_against_the_previous_one_and_the_history(
    desk: Client, done_run: Run, fake_llm: FakeAnthropic
) -> None:
    fake_llm.tool(
        "edit_article", {"headline": "청년 월세 2만 가구", "body": SHORTER, "changes_made": "문단 삭제"}
    )
    edit(desk, done_run, "마지막 문단 삭제해")
    revision = Run.objects.get(kind="edit")
    tasks.edit_run.apply(args=[revision.pk])

    soup = parse(desk.get(f"/desk/drafts/{revision.pk}/"))

    assert one(soup, ".result .badge.rev").get_text() == "2판"
    assert "1판 대비" in soup.get_text()
    removed = one(soup, ".diff-revision del.diff-del").get_text()
    assert removed.startswith("오세훈 서울시장은")
    assert one(soup, ".diff-headline ins.diff-ins")
    history = soup.select(".revisions li a")
    assert [a.get_text() for a in history] == ["1판", "2판"]
    assert history[0]["href"] == history[0]["hx-get"] == f"/desk/drafts/{done_run.pk}/"
    assert history[1]["aria-current"] == "page"
    # and the first revision now links forward to the second
    first = parse(desk.get(f"/desk/drafts/{done_run.pk}/"))
    assert [a["href"] for a in first.select(".revisions li a")][1] == f"/desk/drafts/{revision.pk}/"


def test_an_edit_under_way_shows_in_the_parents_history(desk: Client, done_run: Run) -> None:
    edit(desk, done_run, "제목 바꿔줘")

    history = parse(desk.get(f"/desk/drafts/{done_run.pk}/")).select(".revisions li a")

    assert [a.get_text() for a in history] == ["1판", "2판 (수정 중)"]

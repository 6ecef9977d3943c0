"""/desk/drafts/<id>/: live progress polled every second, then the result; failed runs and retries."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.test import Client

from agents.models import Run
from agents.services import draft_create
from agents.work import runs
from tests.agents.draft_script import submit, verify_flags
from tests.fakes.anthropic import FakeAnthropic
from tests.fixtures.press import BODY_WITH_HALLUCINATION, HALLUCINATED_SENTENCE, PRESS_RELEASE
from tests.newsdesk.desk.conftest import HTMX
from tests.newsdesk.desk.html import one, parse, text

pytestmark = pytest.mark.django_db


@pytest.fixture
def queued(reporter) -> Run:
    return draft_create(reporter=reporter, press_release=PRESS_RELEASE)


def status(client: Client, run: Run):
    return client.get(f"/desk/drafts/{run.pk}/status/", **HTMX)


def test_a_queued_draft_page_long_polls_its_status_past_its_last_event(desk: Client, queued: Run) -> None:
    response = desk.get(f"/desk/drafts/{queued.pk}/")

    region = one(response, "#run-status")
    assert response.status_code == 200
    assert region["hx-get"] == f"/desk/drafts/{queued.pk}/status/?after=1"
    assert region["hx-trigger"] == "load delay:100ms, every 12s" and region["hx-swap"] == "outerHTML"
    assert "대기 중" in text(response, ".elapsed")
    assert [li.get_text() for li in parse(response).select(".stages li")] == [
        "자료 분석",
        "관련 기사 검색",
        "초안 작성",
        "사실 확인",
        "완료",
    ]


def test_the_status_partial_is_a_fragment_that_keeps_polling_while_the_run_goes(
    desk: Client, queued: Run
) -> None:
    runs.stage_set(run=queued, stage="write", message="초안 작성 중")
    Run.objects.filter(pk=queued.pk).update(status=Run.Status.RUNNING)

    response = status(desk, queued)

    body = response.content.decode()
    assert "<html" not in body and "<title>" not in body
    region = one(response, "#run-status")
    assert region["hx-trigger"] == "load delay:100ms, every 12s"
    assert region["hx-get"].endswith("?after=2")
    soup = parse(response)
    assert [li["class"][1] for li in soup.select(".stages li")] == [
        "stage-done",
        "stage-done",
        "stage-current",
        "stage-todo",
        "stage-todo",
    ]
    assert one(soup, "progress")["value"] == "2"
    assert [e.get_text(" ", strip=True).split(" ", 1)[1] for e in soup.select(".events li")] == [
        "접수됨",
        "초안 작성 중",
    ]


def test_a_retry_shows_as_retrying_n_of_3(desk: Client, queued: Run) -> None:
    Run.objects.filter(pk=queued.pk).update(status=Run.Status.RUNNING)
    runs.event_add(run=queued, kind="retry", message="재시도 중 1/3")

    assert text(status(desk, queued), ".retry") == "재시도 중 1/3"


def test_the_status_url_without_htmx_sends_the_browser_to_the_page(desk: Client, queued: Run) -> None:
    response = desk.get(f"/desk/drafts/{queued.pk}/status/")

    assert response.status_code == 302 and response["Location"] == f"/desk/drafts/{queued.pk}/"


def test_a_finished_run_answers_without_a_trigger_so_polling_stops(desk: Client, done_run: Run) -> None:
    response = status(desk, done_run)

    region = one(response, "#run-status")
    assert response.status_code == 200  # not 286: ending by content works in htmx 2 and 4
    assert not region.has_attr("hx-trigger") and not region.has_attr("hx-get")
    assert region["data-status"] == "done"
    assert text(response, ".headline") == done_run.article.headline


def test_the_result_shows_verdict_count_body_claims_and_cost(desk: Client, done_run: Run) -> None:
    response = desk.get(f"/desk/drafts/{done_run.pk}/")

    article = done_run.article
    soup = parse(response)
    assert text(soup, ".result .badge") == "통과"
    assert one(soup, ".count").get_text() == f"{article.length}자"
    assert text(soup, ".result .body") == " ".join(article.body.split())
    rows = soup.select("table.claims tr.claim")
    assert len(rows) + len(soup.select("table.claims ul.folded li")) == article.issues.count()
    assert {r.select("td")[5].get_text() for r in rows} == {"코드", "LLM"}
    cost = text(soup, ".cost")
    assert (
        cost.startswith("초안 ")
        and "· 검증 " in cost
        and "· LLM 2회 · Haiku 4.5 (빠르고 저렴) · $0.0" in cost
    )
    assert cost.endswith("· 스타일 사회부 기본")
    assert one(soup, ".checks").has_attr("hx-disable") and one(soup, "article.result").has_attr("hx-disable")
    assert one(soup, "button.copy")["data-copy"] == f"result-headline-{article.pk} result-body-{article.pk}"
    assert one(soup, f"a[href='/desk/drafts/{done_run.pk}/download.docx']")


def test_a_cut_sentence_is_struck_in_the_diff_and_linked_to_the_claims_that_caused_it(
    desk: Client, finish_draft: Callable[..., Run]
) -> None:
    def script(fake: FakeAnthropic) -> None:
        submit(fake, body=BODY_WITH_HALLUCINATION)
        verify_flags(fake, sentence=9, claim="내년 1,500억원 계획")

    run = finish_draft(script)
    soup = parse(desk.get(f"/desk/drafts/{run.pk}/"))

    assert text(soup, ".result .badge") == "수정됨"
    deletion = one(soup, ".diff-verify del.diff-del")
    assert deletion.get_text() == HALLUCINATED_SENTENCE
    article = run.article
    assert deletion["id"] == f"a{article.pk}-s9"
    links = [a["href"] for a in deletion.find_next_sibling("sup").select("a")]
    flagged = article.issues.filter(sentence_index=9).exclude(status="confirmed")
    assert {"code", "llm"} == set(flagged.values_list("origin", flat=True))  # both checks caught it
    assert len(links) == flagged.count()
    for href in links:
        row = one(soup, href)
        assert row.select("td")[2].get_text(" ").split()[0] in ("근거", "불일치")
        assert one(row, f"a[href='#a{article.pk}-s9']")
    assert "1,500억원" not in text(soup, ".result .body")


def test_a_failed_run_shows_its_error_and_a_retry_button(desk: Client, queued: Run) -> None:
    runs.run_fail(run=queued, message="AI 서비스가 일시적으로 응답하지 않습니다.")

    response = status(desk, queued)

    region = one(response, "#run-status")
    assert not region.has_attr("hx-trigger")
    assert text(response, ".error-text") == "AI 서비스가 일시적으로 응답하지 않습니다."
    form = one(response, f"form[action='/desk/drafts/{queued.pk}/retry/']")
    assert form.find("input", attrs={"name": "csrfmiddlewaretoken"})
    assert text(form, "button") == "다시 시도"


def test_retry_creates_a_new_run_with_the_same_input(desk: Client, queued: Run) -> None:
    runs.run_fail(run=queued, message="실패")

    response = desk.post(f"/desk/drafts/{queued.pk}/retry/")

    retry = Run.objects.exclude(pk=queued.pk).get()
    assert response.status_code == 303 and response["Location"] == f"/desk/drafts/{retry.pk}/"
    assert retry.input == queued.input and retry.retry_of == queued and retry.status == "queued"


def test_only_a_failed_run_can_be_retried(desk: Client, queued: Run) -> None:
    response = desk.post(f"/desk/drafts/{queued.pk}/retry/", follow=True)

    assert Run.objects.count() == 1
    assert "실패한 작업만" in text(response, ".flash")


def test_a_retry_without_a_key_explains_instead_of_failing(desk: Client, reporter, queued: Run) -> None:
    runs.run_fail(run=queued, message="실패")
    reporter.set_anthropic_key("")
    reporter.save()

    response = desk.post(f"/desk/drafts/{queued.pk}/retry/", follow=True)

    assert Run.objects.count() == 1
    assert "API 키" in text(response, ".flash")


def test_my_drafts_lists_only_mine_newest_first(desk: Client, reporter, other_reporter, fake_llm) -> None:
    first = draft_create(reporter=reporter, press_release=PRESS_RELEASE)
    second = draft_create(reporter=reporter, press_release=PRESS_RELEASE)
    theirs = draft_create(reporter=other_reporter, press_release=PRESS_RELEASE)
    runs.run_fail(run=first, message="x")

    for response in (desk.get("/desk/drafts/"), desk.get("/desk/drafts/", **HTMX)):
        rows = parse(response).select("tr.draft-row")
        assert [int(r["data-run"]) for r in rows] == [second.pk, first.pk]
        assert theirs.pk not in [int(r["data-run"]) for r in rows]
        assert "실패" in rows[1].get_text()


def test_a_finished_draft_is_listed_with_headline_and_verdict(desk: Client, done_run: Run) -> None:
    row = one(desk.get("/desk/drafts/"), "tr.draft-row")

    assert done_run.article.headline in row.get_text()
    assert text(row, ".badge") == "통과"
    assert one(row, "a")["href"] == one(row, "a")["hx-get"] == f"/desk/drafts/{done_run.pk}/"


def test_every_hx_get_link_also_has_the_same_href(desk: Client, done_run: Run) -> None:
    for url in ("/desk/", "/desk/drafts/", f"/desk/drafts/{done_run.pk}/", "/desk/verify/", "/desk/profile/"):
        for link in parse(desk.get(url)).select("[hx-get]"):
            if link.name == "a":
                assert link["href"] == link["hx-get"], (url, link)

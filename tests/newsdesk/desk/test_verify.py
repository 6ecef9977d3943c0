"""/desk/verify/: a reporter's own article checked against its sources, at once and without a key."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from agents import tasks
from agents.models import LLMCall, Run
from tests.agents.draft_script import verify_pass
from tests.fakes.anthropic import FakeAnthropic
from tests.fixtures import suspects
from tests.fixtures.press import BODY, BODY_WITH_HALLUCINATION, HALLUCINATED_SENTENCE, PRESS_RELEASE
from tests.fixtures.suspects import suspect_guard  # noqa: F401 (a fixture)
from tests.newsdesk.desk.conftest import HTMX
from tests.newsdesk.desk.html import field_error, one, parse, text

pytestmark = pytest.mark.django_db


@pytest.fixture
def keyless(reporter, settings):
    settings.ANTHROPIC_API_KEY = ""
    reporter.set_anthropic_key("")
    reporter.save()
    return reporter


def check(client: Client, article: str = BODY_WITH_HALLUCINATION, sources: str = PRESS_RELEASE, **fields):
    return client.post("/desk/verify/", {"article": article, "sources": sources, **fields})


def test_the_page_and_its_partial_render(desk: Client) -> None:
    assert "<html" in desk.get("/desk/verify/").content.decode()
    partial = desk.get("/desk/verify/", **HTMX).content.decode()
    assert "<html" not in partial and 'name="article"' in partial


def test_without_a_key_the_code_guard_flags_an_unsupported_number_at_once(desk: Client, keyless) -> None:
    response = check(desk, with_model="on")

    soup = parse(response)
    assert not Run.objects.exists() and not LLMCall.objects.exists()
    assert text(soup, "#verify-result .badge") == "수정됨"
    mark = one(soup, "#verify-highlight mark.flagged")
    assert mark.get_text() == HALLUCINATED_SENTENCE and mark["id"] == "v-s9"
    assert "1,500억원" in [s.get_text() for s in mark.select("strong")]
    rows = [one(soup, a["href"]).get_text() for a in mark.find_next_sibling("sup").select("a")]
    assert any("1,500억원" in row and "근거 없음" in row for row in rows)
    assert HALLUCINATED_SENTENCE not in text(soup, "#verify-body")
    assert "코드 검사만" in text(soup, "#verify-result .notice")
    assert one(soup, "#id_article").get_text().strip() == BODY_WITH_HALLUCINATION  # the input is kept


def test_a_clean_article_passes(desk: Client, keyless) -> None:
    soup = parse(check(desk, article=BODY))

    assert text(soup, "#verify-result .badge") == "통과"
    assert not soup.select("#verify-highlight mark")
    assert text(soup, "#verify-body") == " ".join(BODY.split())


def test_several_sources_are_separated_by_a_dashed_line(desk: Client, keyless) -> None:
    sources = (
        "서울시는 예산 480억 원을 편성했다.\n---\n시는 내년까지 지원 규모를 1,500억원으로 늘릴 계획이다."
    )

    soup = parse(check(desk, article=HALLUCINATED_SENTENCE, sources=sources))

    assert text(soup, "#verify-result .badge") == "통과"


@pytest.mark.parametrize(
    ("fields", "field_id", "message"),
    [
        ({"article": " "}, "id_article", "검증할 기사 본문을 입력해 주세요."),
        ({"sources": ""}, "id_sources", "대조할 자료"),
        ({"article": "가" * 20_001}, "id_article", "20,000자"),
    ],
)
def test_missing_input_is_refused_next_to_its_field(
    desk: Client, fields: dict, field_id: str, message: str
) -> None:
    response = check(desk, **fields)

    assert message in field_error(response, field_id)
    assert not parse(response).select("#verify-result")


def test_with_a_key_the_model_check_is_queued_and_its_live_status_shown(desk: Client) -> None:
    response = check(desk, with_model="on", headline="내가 쓴 기사")

    run = Run.objects.get()
    assert run.input["mode"] == "verify" and run.input["headline"] == "내가 쓴 기사"
    soup = parse(response)
    assert text(soup, "#verify-result .badge") == "수정됨"  # the code guard's answer is already there
    live = one(soup, "#verify-live #run-status")
    assert live["hx-get"].startswith(f"/desk/drafts/{run.pk}/status/?after=")
    assert live["hx-trigger"] == "load delay:100ms, every 12s"
    assert [li.get_text() for li in soup.select("#verify-live .stages li")] == ["사실 확인", "완료"]


def test_the_model_check_result_page_shows_the_cut_linked_to_its_claims(
    desk: Client, fake_llm: FakeAnthropic
) -> None:
    check(desk, with_model="on")
    run = Run.objects.get()
    verify_pass(fake_llm, claims=[])
    tasks.draft_run.apply(args=[run.pk])

    soup = parse(desk.get(f"/desk/drafts/{run.pk}/status/", **HTMX))

    assert text(soup, ".cost").startswith("검증 ") and "LLM 1회" in text(soup, ".cost")
    assert one(soup, ".diff-verify del.diff-del").get_text() == HALLUCINATED_SENTENCE
    assert text(soup, ".result .badge") == "수정됨"


def test_a_source_file_is_read_by_the_worker_before_the_check(desk: Client, keyless, settings) -> None:
    settings.NEWSDESK_UPLOAD_WAIT_SECONDS = 0
    file = SimpleUploadedFile("자료.txt", PRESS_RELEASE.encode(), "text/plain")

    response = desk.post("/desk/verify/", {"article": BODY, "sources": "", "file": file})

    # No worker in this test: the file is still waiting, so the reporter is told to retry or paste.
    assert "시간이 걸리고" in field_error(response, "id_file")


@pytest.mark.usefixtures("suspect_guard")
def test_without_a_key_a_suspect_sentence_stays_in_the_checked_body_marked_to_check(
    desk: Client, keyless
) -> None:
    soup = parse(check(desk, article=suspects.BODY, sources=suspects.RELEASE))

    assert "확인 필요 1건" in text(soup, ".summary")
    assert suspects.CLAIM in text(soup, "#verify-highlight mark.suspect")
    assert not soup.select("#verify-highlight mark.flagged")
    assert suspects.SUSPECT_SENTENCE in text(soup, "#verify-body")
    row = one(soup, "tr.claim-suspect")
    assert text(row, ".needs-check") == "확인 필요" and "확인 필요" in text(row, ".claim-reason")

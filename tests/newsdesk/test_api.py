"""The JSON API contract through the real URL conf and middleware."""

from __future__ import annotations

import json

import pytest
from django.test import Client

from agents import tasks
from agents.models import Run
from newsdesk.services import token_issue
from styles.models import WritingStyle
from tests.agents.draft_script import submit, verify_pass
from tests.factories import ArticleFactory, RunFactory
from tests.fakes.anthropic import FakeAnthropic
from tests.fixtures.press import BODY_WITH_HALLUCINATION, PRESS_RELEASE

pytestmark = pytest.mark.django_db


@pytest.fixture
def api(reporter) -> Client:
    token = token_issue(reporter=reporter)
    return Client(HTTP_AUTHORIZATION=f"Bearer {token}")


def post(client: Client, path: str, data: object) -> object:
    return client.post(path, data=json.dumps(data), content_type="application/json")


def test_it_queues_a_draft_and_answers_202(api: Client, django_capture_on_commit_callbacks) -> None:
    with django_capture_on_commit_callbacks() as callbacks:
        response = post(
            api, "/api/drafts", {"press_release": PRESS_RELEASE, "length": 500, "keywords": ["청년"]}
        )

    assert response.status_code == 202
    body = response.json()
    assert body["status"] == "queued"
    run = Run.objects.get(pk=body["id"])
    assert run.input["length"] == 500 and run.channel == "api"
    assert len(callbacks) == 1  # the task is sent only once the row is committed


@pytest.mark.parametrize("text", ["", "   \n\t "])
def test_it_refuses_an_empty_press_release_with_422(api: Client, text: str) -> None:
    response = post(api, "/api/drafts", {"press_release": text})

    assert response.status_code == 422
    assert "보도자료" in response.json()["detail"]
    assert not Run.objects.exists()


def test_it_refuses_a_press_release_over_20000_characters(api: Client) -> None:
    response = post(api, "/api/drafts", {"press_release": "가" * 20_001})

    assert response.status_code == 422 and "20,000자" in response.json()["detail"]


@pytest.mark.parametrize(
    ("payload", "field"),
    [({"department": "연예부"}, "department"), ({"length": 5000}, "length"), ({"length": "길게"}, "length")],
)
def test_it_refuses_bad_fields_naming_them(api: Client, payload: dict, field: str) -> None:
    response = post(api, "/api/drafts", {"press_release": PRESS_RELEASE, **payload})

    assert response.status_code == 422 and response.json()["field"] == field


def test_it_refuses_malformed_json_with_400(api: Client) -> None:
    response = api.post("/api/drafts", data="{not json", content_type="application/json")

    assert response.status_code == 400


DEEP = '{"press_release": ' + "[" * 1500 + "]" * 1500 + "}"


@pytest.mark.parametrize(
    ("method", "path"), [("post", "/api/drafts"), ("post", "/api/verify"), ("put", "/api/me")]
)
def test_json_nested_1500_levels_deep_is_refused_with_400_not_500(
    api: Client, method: str, path: str
) -> None:
    response = getattr(api, method)(path, data=DEEP, content_type="application/json")

    assert response.status_code == 400
    assert not Run.objects.exists()


def test_a_json_body_over_djangos_memory_limit_is_refused_with_413(api: Client, settings) -> None:
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1000
    body = json.dumps({"press_release": "가" * 2000})

    response = api.post("/api/drafts", data=body, content_type="application/json")

    assert response.status_code == 413 and "너무 큽니다" in response.json()["detail"]


def test_without_an_api_key_it_answers_400_telling_how_to_register_one(
    reporter, api: Client, settings
) -> None:
    settings.ANTHROPIC_API_KEY = ""
    reporter.set_anthropic_key("")
    reporter.save()

    response = post(api, "/api/drafts", {"press_release": PRESS_RELEASE})

    assert response.status_code == 400
    assert "/set_apikey" in response.json()["detail"]
    assert not Run.objects.exists()


def test_it_requires_authentication(client: Client) -> None:
    assert client.get("/api/drafts").status_code == 401
    assert Client(HTTP_AUTHORIZATION="Bearer nd_wrong").get("/api/drafts").status_code == 401


def test_a_session_post_without_csrf_is_refused(reporter) -> None:
    browser = Client(enforce_csrf_checks=True)
    browser.force_login(reporter.user)

    response = post(browser, "/api/drafts", {"press_release": PRESS_RELEASE})

    assert response.status_code == 403
    assert not Run.objects.exists()


def test_another_reporters_draft_is_not_found(api: Client, other_reporter) -> None:
    theirs = RunFactory(reporter=other_reporter, kind="draft")

    assert api.get(f"/api/drafts/{theirs.pk}").status_code == 404
    assert api.get(f"/api/drafts/{theirs.pk}/events").status_code == 404
    assert post(api, f"/api/drafts/{theirs.pk}/edits", {"instruction": "제목 바꿔줘"}).status_code == 404


def test_a_finished_draft_reads_back_with_verification_and_usage(
    api: Client, fake_llm: FakeAnthropic
) -> None:
    submit(fake_llm, body=BODY_WITH_HALLUCINATION)
    verify_pass(fake_llm)
    run_id = post(api, "/api/drafts", {"press_release": PRESS_RELEASE}).json()["id"]
    tasks.draft_run.apply(args=[run_id])

    data = api.get(f"/api/drafts/{run_id}").json()

    assert data["status"] == "done" and data["stage"] == "done"
    assert data["verification"]["verdict"] == "revised"
    assert "1,500억원" in data["draft_body"] and "1,500억원" not in data["body"]
    assert {"claim", "status", "kind", "source", "origin"} <= set(data["verification"]["issues"][0])
    assert data["usage"]["llm_calls"] == 2 and data["usage"]["cost_usd"] > 0
    assert data["length"] == len(data["body"].replace("\n", ""))
    events = api.get(f"/api/drafts/{run_id}/events?after=1").json()["events"]
    assert events[0]["seq"] == 2 and events[-1]["kind"] == "done"
    listed = api.get("/api/drafts").json()["drafts"]
    assert listed[0]["id"] == run_id and listed[0]["verdict"] == "revised"


def test_a_draft_reads_back_with_its_lint_list_as_offsets_into_the_body(api: Client, reporter) -> None:

    body = "서울시는 3일 발표했다.\n\n업계 리스크가 커진 것으로 알려졌다."
    run = ArticleFactory(reporter=reporter, department="테크부", headline="제목", body=body, length=9).run

    lint = api.get(f"/api/drafts/{run.pk}").json()["lint"]

    assert [(hit["rule"], hit["text"]) for hit in lint] == [
        ("불필요한 외래어", "리스크"),
        ("출처 없는 전언", "것으로 알려졌"),
    ]
    assert all(body[hit["start"] : hit["end"]] == hit["text"] and hit["suggestion"] for hit in lint)
    assert set(lint[0]) == {"rule", "text", "start", "end", "suggestion"}


def test_an_edit_of_an_unfinished_draft_is_refused(api: Client) -> None:
    run_id = post(api, "/api/drafts", {"press_release": PRESS_RELEASE}).json()["id"]

    response = post(api, f"/api/drafts/{run_id}/edits", {"instruction": "제목 바꿔줘"})

    assert response.status_code == 409


def test_verify_only_flags_and_cuts_unsupported_facts_without_a_key(api: Client, reporter, settings) -> None:
    settings.ANTHROPIC_API_KEY = ""
    reporter.set_anthropic_key("")
    reporter.save()

    response = post(api, "/api/verify", {"article": BODY_WITH_HALLUCINATION, "sources": [PRESS_RELEASE]})

    assert response.status_code == 200
    data = response.json()
    assert data["verdict"] == "revised"
    assert "1,500억원" not in data["body"] and "480억 원" in data["body"]
    flagged = [i for i in data["issues"] if i["status"] == "not_found"]
    assert flagged and all(i["origin"] == "code" for i in flagged)


def test_verify_only_passes_a_faithful_article(api: Client) -> None:
    from tests.fixtures.press import BODY

    data = post(api, "/api/verify", {"article": BODY, "sources": [PRESS_RELEASE]}).json()

    assert data["verdict"] == "pass" and data["body"] == BODY


@pytest.mark.parametrize(
    "payload", [{"article": "", "sources": ["x"]}, {"article": "기사", "sources": []}, {"article": "기사"}]
)
def test_verify_only_refuses_missing_parts(api: Client, payload: dict) -> None:
    assert post(api, "/api/verify", payload).status_code == 422


def test_me_shows_only_the_last_four_characters_of_the_key(api: Client) -> None:
    data = api.get("/api/me").json()

    assert data["anthropic_api_key"] == "…0001"
    assert "sk-ant" not in json.dumps(data)


def test_me_updates_the_profile_and_the_key_is_write_only(api: Client, reporter) -> None:
    response = api.put(
        "/api/me",
        data=json.dumps(
            {"department": "경제", "keywords": ["금리", " 환율 "], "anthropic_api_key": "sk-ant-new-key-7777"}
        ),
        content_type="application/json",
    )

    assert response.status_code == 200
    assert (
        response.json().items()
        >= {
            "department": "경제부",
            "keywords": ["금리", "환율"],
            "anthropic_api_key": "…7777",
            "anthropic_key_status": "ok",
            "telegram_linked": False,
        }.items()
    )
    reporter.refresh_from_db()
    assert reporter.anthropic_key() == "sk-ant-new-key-7777"


def test_me_refuses_an_unknown_department(api: Client) -> None:
    response = api.put("/api/me", data=json.dumps({"department": "연예부"}), content_type="application/json")

    assert response.status_code == 422 and response.json()["field"] == "department"


def test_api_docs_are_for_staff_only(client: Client, admin_client: Client) -> None:
    assert client.get("/api/docs").status_code == 302
    assert admin_client.get("/api/docs").status_code == 200


def test_me_shows_the_model_its_choices_and_the_publisher_style(api: Client) -> None:
    data = api.get("/api/me").json()

    assert data["model"] == "claude-haiku-4-5-20251001" and data["model_is_default"] is True
    assert data["models"] == ["claude-haiku-4-5-20251001", "claude-sonnet-5"]
    assert data["publisher_style"] is None and data["style"] == "사회부 기본"


def test_me_sets_the_model_and_publisher_style_and_the_next_draft_uses_them(
    api: Client, reporter, fake_llm: FakeAnthropic
) -> None:
    WritingStyle.objects.create(
        scope="publisher",
        publisher="한겨레",
        guide={"lead": "한겨레식 리드", "structure": "구성", "tone": "문체", "forbidden": []},
    )

    response = api.put(
        "/api/me",
        data=json.dumps({"model": "claude-sonnet-5", "publisher_style": "한겨레"}),
        content_type="application/json",
    )

    assert response.status_code == 200
    assert response.json()["model"] == "claude-sonnet-5" and response.json()["publisher_style"] == "한겨레"
    submit(fake_llm)
    verify_pass(fake_llm)
    run_id = post(api, "/api/drafts", {"press_release": PRESS_RELEASE}).json()["id"]
    tasks.draft_run.apply(args=[run_id])
    assert fake_llm.requests[0].body["model"] == "claude-sonnet-5"
    assert "한겨레식 리드" in fake_llm.requests[0].last_user_text()
    detail = api.get(f"/api/drafts/{run_id}").json()
    assert detail["model"] == "claude-sonnet-5" and detail["style"] == "한겨레"


def test_me_puts_the_defaults_back_with_empty_strings(api: Client, reporter) -> None:
    reporter.llm_model = "claude-sonnet-5"
    reporter.save()

    data = api.put("/api/me", data=json.dumps({"model": ""}), content_type="application/json").json()

    assert data["model"] == "claude-haiku-4-5-20251001" and data["model_is_default"] is True


@pytest.mark.parametrize(
    ("payload", "field", "words"),
    [
        ({"model": "claude-opus-9"}, "model", "고를 수 없는 모델"),
        ({"publisher_style": "없는신문"}, "publisher_style", "스타일이 등록되지 않은 언론사"),
    ],
)
def test_me_refuses_a_model_or_style_that_is_not_offered(
    api: Client, reporter, payload: dict[str, str], field: str, words: str
) -> None:
    response = api.put("/api/me", data=json.dumps(payload), content_type="application/json")

    assert response.status_code == 422
    assert response.json()["field"] == field and words in response.json()["detail"]
    reporter.refresh_from_db()
    assert reporter.llm_model == "" and reporter.publisher_style == ""


def test_a_finished_draft_lists_each_sentence_with_its_source_spans_and_the_missing_facts(
    api: Client, fake_llm: FakeAnthropic
) -> None:
    submit(fake_llm, body=BODY_WITH_HALLUCINATION)
    verify_pass(fake_llm)
    run_id = post(api, "/api/drafts", {"press_release": PRESS_RELEASE}).json()["id"]
    tasks.draft_run.apply(args=[run_id])

    data = api.get(f"/api/drafts/{run_id}").json()

    assert data["sentences"][0]["text"].startswith("서울시가 청년 월세")
    assert all(s["spans"] for s in data["sentences"])  # the invented sentence was cut
    span = next(sp for s in data["sentences"] for sp in s["spans"] if "480억" in sp["text"])
    assert span["source"] == 0 and PRESS_RELEASE[span["start"] : span["end"]] == span["text"]
    assert {sp["kind"] for s in data["sentences"] for sp in s["spans"]} == {"press_release"}
    assert [f["source_text"][:7] for f in data["missing_facts"]] == ["지원 대상자는"]


def test_spans_saved_before_they_carried_a_kind_get_it_from_the_stored_sources(
    api: Client, fake_llm: FakeAnthropic
) -> None:
    submit(fake_llm)
    verify_pass(fake_llm)
    run_id = post(api, "/api/drafts", {"press_release": PRESS_RELEASE}).json()["id"]
    tasks.draft_run.apply(args=[run_id])
    article = Run.objects.get(pk=run_id).article
    article.source_material = [
        *article.source_material,
        {"kind": "article", "title": "연합뉴스 | 청년 월세", "text": "예산은 480억 원이다.", "url": "u"},
    ]
    article.provenance = [
        {"text": "예산은 480억 원이다.", "spans": [{"source": 1, "start": 0, "end": 12, "text": "x"}]}
    ]
    article.save()

    (sentence,) = api.get(f"/api/drafts/{run_id}").json()["sentences"]

    assert sentence["spans"][0]["kind"] == "article" and sentence["spans"][0]["outlet"] == "연합뉴스"


def test_a_missing_fact_is_added_by_an_edit_that_names_it(api: Client, fake_llm: FakeAnthropic) -> None:
    submit(fake_llm)
    verify_pass(fake_llm)
    run_id = post(api, "/api/drafts", {"press_release": PRESS_RELEASE}).json()["id"]
    tasks.draft_run.apply(args=[run_id])

    response = post(api, f"/api/drafts/{run_id}/missing_facts", {"fact": 1})

    assert response.status_code == 202
    edit = Run.objects.get(pk=response.json()["id"])
    assert edit.kind == Run.Kind.EDIT and "지원 대상자는 소득과 재산 기준" in edit.input["instruction"]
    assert post(api, f"/api/drafts/{run_id}/missing_facts", {"fact": 2}).status_code == 404


def test_another_reporters_missing_fact_is_not_found(api: Client, other_reporter) -> None:
    run = RunFactory(reporter=other_reporter)

    assert post(api, f"/api/drafts/{run.pk}/missing_facts", {"fact": 1}).status_code == 404


def test_a_draft_reads_back_with_the_embargo_of_its_release(api: Client, fake_llm: FakeAnthropic) -> None:
    submit(fake_llm)
    verify_pass(fake_llm)
    release = (
        "보도일시: 2026. 12. 1.(화) 조간(온라인 11. 30. 12:00)부터 보도해 주시기 바랍니다.\n" + PRESS_RELEASE
    )
    run_id = post(api, "/api/drafts", {"press_release": release}).json()["id"]
    tasks.draft_run.apply(args=[run_id])

    embargo = api.get(f"/api/drafts/{run_id}").json()["embargo"]

    assert embargo["until"] == "2026-11-30T12:00:00+09:00"
    assert embargo["text"].startswith("보도일시: 2026. 12. 1.(화) 조간")


def test_a_draft_without_an_embargo_line_reads_back_with_null(api: Client, reporter) -> None:
    run = ArticleFactory(reporter=reporter).run

    assert api.get(f"/api/drafts/{run.pk}").json()["embargo"] is None

"""Login, logout and the profile: department, keywords and a write-only Anthropic key."""

from __future__ import annotations

import pytest
from django.test import Client

from newsdesk.models import Reporter
from styles.models import WritingStyle
from tests.factories import PASSWORD, UserFactory
from tests.fakes.anthropic import FakeAnthropic
from tests.fakes.anthropic import text as text_block
from tests.newsdesk.desk.conftest import HTMX
from tests.newsdesk.desk.html import field_error, one, parse, text

pytestmark = pytest.mark.django_db
KEY = "sk-ant-test-kim-0001"


def test_the_login_page_is_korean_and_logs_a_reporter_into_the_desk(client: Client, reporter) -> None:
    page = client.get("/accounts/login/")
    response = client.post("/accounts/login/", {"username": "kim", "password": PASSWORD})

    assert page.status_code == 200 and "로그인" in text(page, "h1")
    assert response.status_code == 302 and response["Location"] == "/desk/"


def test_a_wrong_password_gets_a_korean_error_and_keeps_the_username(client: Client, reporter) -> None:
    response = client.post("/accounts/login/", {"username": "kim", "password": "wrong"})

    assert response.status_code == 200
    assert "비밀번호" in text(response, ".form-error")
    assert one(response, "#id_username")["value"] == "kim"


def test_logout_is_a_post_and_ends_the_session(desk: Client) -> None:
    assert desk.get("/accounts/logout/").status_code == 405  # a link or an image cannot log anyone out
    response = desk.post("/accounts/logout/")

    assert response.status_code == 302 and response["Location"] == "/accounts/login/"
    assert desk.get("/desk/").status_code == 302


def test_a_user_without_a_reporter_profile_is_told_so(client: Client) -> None:
    client.force_login(UserFactory(username="editor"))

    response = client.get("/desk/")

    assert response.status_code == 403 and "기자 프로필이 없는" in response.content.decode()


def test_the_profile_shows_only_the_last_four_characters_of_the_key(desk: Client) -> None:
    for response in (desk.get("/desk/profile/"), desk.get("/desk/profile/", **HTMX)):
        body = response.content.decode()
        assert KEY not in body and KEY[:-4] not in body
        assert text(response, ".masked-key") == "…0001"
        assert one(response, "#id_anthropic_api_key")["value"] == ""


def test_department_and_keywords_are_saved(desk: Client, reporter) -> None:
    response = desk.post(
        "/desk/profile/", {"department": "경제부", "keywords": "금리, 한국은행"}, follow=True
    )

    reporter.refresh_from_db()
    assert reporter.department == "경제부" and reporter.keywords == ["금리", "한국은행"]
    assert reporter.anthropic_key() == KEY  # a blank key field keeps the stored key
    assert "저장했습니다" in text(response, ".flash")


def test_a_new_key_replaces_the_old_one_and_is_never_echoed(desk: Client, reporter) -> None:
    new = "sk-ant-new-key-9876"

    response = desk.post(
        "/desk/profile/", {"department": "사회부", "keywords": "경찰", "anthropic_api_key": new}, follow=True
    )

    reporter.refresh_from_db()
    assert reporter.anthropic_key() == new
    assert new not in response.content.decode() and text(response, ".masked-key") == "…9876"


def test_a_malformed_key_is_refused_next_to_the_field_keeping_the_other_fields(
    desk: Client, reporter
) -> None:
    response = desk.post(
        "/desk/profile/",
        {"department": "정치부", "keywords": "국회, 대통령실", "anthropic_api_key": "not a key"},
    )

    assert "sk-" in field_error(response, "id_anthropic_api_key")
    soup = parse(response)
    assert one(soup, "#id_keywords")["value"] == "국회, 대통령실"
    assert one(soup, "#id_department").find("option", selected=True)["value"] == "정치부"
    assert one(soup, "#id_anthropic_api_key")["value"] == ""  # a typed key is not sent back either
    reporter.refresh_from_db()
    assert reporter.department == "사회부" and reporter.anthropic_key() == KEY


def test_empty_keywords_are_refused_in_korean(desk: Client) -> None:
    response = desk.post("/desk/profile/", {"department": "사회부", "keywords": " , "})

    assert "키워드를 하나 이상" in field_error(response, "id_keywords")


def test_the_key_can_be_removed(desk: Client, reporter) -> None:
    response = desk.post(
        "/desk/profile/", {"department": "사회부", "keywords": "경찰", "remove_key": "on"}, follow=True
    )

    reporter.refresh_from_db()
    assert not reporter.has_anthropic_key and "등록된 키 없음" in text(response, ".key-state")


def test_the_key_test_makes_one_cheap_call_and_reports_success(desk: Client, fake_llm: FakeAnthropic) -> None:
    fake_llm.reply(text_block("OK"))

    response = desk.post("/desk/profile/key-test/", **HTMX)

    assert text(response, ".key-test-ok") == "키가 정상적으로 응답했습니다."
    assert len(fake_llm.requests) == 1 and fake_llm.requests[0].api_key == KEY
    assert fake_llm.requests[0].body["max_tokens"] <= 10


def test_a_refused_key_is_reported_and_marked(desk: Client, reporter, fake_llm: FakeAnthropic) -> None:
    fake_llm.error(401, message="invalid x-api-key")

    response = desk.post("/desk/profile/key-test/", **HTMX)

    assert "거부되었습니다" in text(response, ".key-test-failed")
    reporter.refresh_from_db()
    assert reporter.anthropic_key_status == Reporter.KeyStatus.REFUSED


def test_the_key_test_without_a_key_says_so_and_works_without_htmx(desk: Client, reporter) -> None:
    reporter.set_anthropic_key("")
    reporter.save()

    response = desk.post("/desk/profile/key-test/", follow=True)

    assert "등록된 키가 없습니다" in text(response, ".flash")


def test_the_key_test_button_posts_by_htmx_into_its_result_box(desk: Client) -> None:
    form = one(desk.get("/desk/profile/"), "form[action='/desk/profile/key-test/']")

    assert form["hx-post"] == "/desk/profile/key-test/" and form["hx-target"] == "#key-test-result"


def test_the_profile_offers_the_models_and_curated_styles_and_saves_them(desk: Client, reporter) -> None:
    WritingStyle.objects.create(
        scope="publisher", publisher="한겨레", guide={"lead": "리드", "structure": "구성", "tone": "문체"}
    )
    soup = parse(desk.get("/desk/profile/"))
    assert [o["value"] for o in soup.select("#id_model option")] == [
        "",
        "claude-haiku-4-5-20251001",
        "claude-sonnet-5",
    ]
    assert [o["value"] for o in soup.select("#id_publisher_style option")] == ["", "한겨레"]

    response = desk.post(
        "/desk/profile/",
        {
            "department": "사회부",
            "keywords": "서울시",
            "model": "claude-sonnet-5",
            "publisher_style": "한겨레",
        },
        follow=True,
    )

    reporter.refresh_from_db()
    assert reporter.llm_model == "claude-sonnet-5" and reporter.publisher_style == "한겨레"
    assert "지금: Sonnet 5 (어려운 기사)" in text(response, "label[for=id_model]")
    assert "지금: 한겨레" in text(response, "label[for=id_publisher_style]")


def test_a_model_not_offered_is_refused_next_to_its_field(desk: Client, reporter) -> None:
    response = desk.post("/desk/profile/", {"department": "사회부", "keywords": "서울시", "model": "gpt-9"})

    assert "고를 수 없는 모델" in field_error(response, "id_model")
    reporter.refresh_from_db()
    assert reporter.llm_model == ""


def test_a_profile_form_without_the_choice_fields_leaves_them_alone(desk: Client, reporter) -> None:
    Reporter.objects.filter(pk=reporter.pk).update(llm_model="claude-sonnet-5")

    desk.post("/desk/profile/", {"department": "사회부", "keywords": "서울시"})

    reporter.refresh_from_db()
    assert reporter.llm_model == "claude-sonnet-5"

from __future__ import annotations

import importlib
from types import SimpleNamespace

import pytest
from django.apps import apps
from django.contrib.auth.models import Group, Permission
from django.db import connection
from django.test import Client
from django.urls import reverse

from agents.models import Run
from conversations.models import Message
from newsdesk.models import ApiToken, Reporter
from tests.factories import LLMCallFactory, ReporterFactory, RunFactory, UserFactory

pytestmark = pytest.mark.django_db

CANARY = "sk-ant-CANARY-1234"
EDITOR_PERMISSIONS = {
    "styles.view_writingstyle",
    "styles.change_writingstyle",
    "styles.add_writingstyle",
    "agents.view_article",
    "agents.view_verificationissue",
    "agents.change_verificationissue",
    "agents.view_publisher",
    "agents.change_publisher",
}
# Granted by styles 0004 (the lint rules arrived after the editors group).
LINT_RULE_PERMISSIONS = {f"styles.{action}_lintrule" for action in ("view", "add", "change", "delete")}
editors_migration = importlib.import_module("newsdesk.migrations.0002_editors_group")


def group_permissions() -> set[str]:
    return {
        f"{app}.{codename}"
        for app, codename in Group.objects.get(name="editors").permissions.values_list(
            "content_type__app_label", "codename"
        )
    }


@pytest.fixture
def editor(client: Client):
    user = UserFactory(username="editor", is_staff=True)
    user.groups.add(Group.objects.get(name="editors"))
    client.force_login(user)
    return user


@pytest.fixture
def canary_reporter() -> Reporter:
    reporter = ReporterFactory(user__username="park", telegram_id=777, anthropic_key=CANARY)
    ApiToken.objects.create(reporter=reporter, token_hash=ApiToken.hash("nd_x"), hint="nd_abcd")
    return reporter


# --- the editors group -------------------------------------------------------------------------


def test_the_editors_group_may_curate_styles_review_issues_and_keep_the_whitelist() -> None:
    assert group_permissions() == EDITOR_PERMISSIONS | LINT_RULE_PERMISSIONS


def test_the_editors_migration_can_run_again_and_be_reversed() -> None:
    schema_editor = SimpleNamespace(connection=connection)

    editors_migration.create_editors(apps, schema_editor)
    assert group_permissions() == EDITOR_PERMISSIONS | LINT_RULE_PERMISSIONS  # add() takes nothing away

    editors_migration.delete_editors(apps, schema_editor)
    assert not Group.objects.filter(name="editors").exists()

    editors_migration.create_editors(apps, schema_editor)
    assert group_permissions() == EDITOR_PERMISSIONS


def test_the_editors_migration_creates_permissions_that_do_not_exist_yet() -> None:
    Permission.objects.filter(content_type__app_label__in=["styles", "agents"]).delete()

    editors_migration.create_editors(apps, SimpleNamespace(connection=connection))

    assert group_permissions() == EDITOR_PERMISSIONS


@pytest.mark.parametrize(
    "url_name",
    [
        "admin:newsdesk_reporter_changelist",
        "admin:newsdesk_apitoken_changelist",
        "admin:conversations_message_changelist",
        "admin:agents_llmcall_changelist",
        "admin:agents_run_changelist",
        "admin:newsdesk_loginlockout_changelist",
    ],
)
def test_an_editor_is_refused_reporters_tokens_conversations_and_usage(
    client: Client, editor, url_name: str
) -> None:
    assert client.get(reverse(url_name)).status_code == 403


def test_an_editor_cannot_open_a_reporters_page(client: Client, editor, canary_reporter: Reporter) -> None:
    url = reverse("admin:newsdesk_reporter_change", args=[canary_reporter.pk])

    assert client.get(url).status_code == 403


@pytest.mark.parametrize(
    "url_name",
    [
        "admin:styles_writingstyle_changelist",
        "admin:agents_article_changelist",
        "admin:agents_verificationissue_changelist",
        "admin:agents_publisher_changelist",
    ],
)
def test_an_editor_opens_styles_articles_issues_and_publishers(client: Client, editor, url_name: str) -> None:
    assert client.get(reverse(url_name)).status_code == 200


def test_the_admin_index_shows_an_editor_only_their_sections(client: Client, editor) -> None:
    content = client.get(reverse("admin:index")).content.decode()

    assert "작성 스타일" in content and "검증 이슈" in content
    for hidden in (
        "newsdesk_reporter",
        "newsdesk_apitoken",
        "conversations_message",
        "agents_llmcall",
        "agents_run",
    ):
        assert reverse(f"admin:{hidden}_changelist") not in content


# --- the key is write-only ---------------------------------------------------------------------


def assert_no_key(content: bytes, reporter: Reporter) -> None:
    text = content.decode()
    assert "CANARY" not in text
    assert reporter.anthropic_key_encrypted not in text
    assert reporter.anthropic_key_encrypted[:20] not in text


def test_no_admin_page_ever_shows_the_key_or_its_stored_token(
    admin_client: Client, canary_reporter: Reporter
) -> None:
    Message.objects.create(reporter=canary_reporter, role="user", content="안녕하세요")
    run = RunFactory(reporter=canary_reporter, kind=Run.Kind.DRAFT)
    LLMCallFactory(run=run, reporter=canary_reporter, purpose="writing", model="m")
    pk = canary_reporter.pk
    pages = [
        reverse("admin:newsdesk_reporter_changelist"),
        reverse("admin:newsdesk_reporter_changelist") + "?q=canary",
        reverse("admin:newsdesk_reporter_change", args=[pk]),
        reverse("admin:newsdesk_reporter_history", args=[pk]),
        reverse("admin:newsdesk_reporter_delete", args=[pk]),
        reverse("admin:newsdesk_apitoken_changelist"),
        reverse("admin:conversations_message_changelist"),
        reverse("admin:agents_run_change", args=[run.pk]),
        reverse("admin:agents_llmcall_changelist"),
        reverse("admin:index"),
    ]

    for page in pages:
        response = admin_client.get(page)
        assert response.status_code == 200, page
        assert_no_key(response.content, canary_reporter)


def test_the_reporter_page_shows_only_the_last_four_characters(
    admin_client: Client, canary_reporter: Reporter
) -> None:
    response = admin_client.get(reverse("admin:newsdesk_reporter_change", args=[canary_reporter.pk]))

    assert "…1234 (정상)" in response.content.decode()
    assert "새 API 키" in response.content.decode()


def reporter_data(reporter: Reporter, **overrides: object) -> dict[str, object]:
    data: dict[str, object] = {
        "user": reporter.user_id,
        "display_name": "",
        "telegram_id": reporter.telegram_id or "",
        "department": reporter.department,
        "keywords": '["서울시"]',
        "registration_step": "",
        "new_api_key": "",
    }
    data.update(overrides)
    return data


def test_a_new_key_typed_in_the_admin_is_stored_encrypted(
    admin_client: Client, canary_reporter: Reporter
) -> None:
    url = reverse("admin:newsdesk_reporter_change", args=[canary_reporter.pk])

    response = admin_client.post(url, reporter_data(canary_reporter, new_api_key=" sk-ant-NEW-KEY-9876 "))

    assert response.status_code == 302
    canary_reporter.refresh_from_db()
    assert canary_reporter.anthropic_key() == "sk-ant-NEW-KEY-9876"
    assert canary_reporter.masked_key == "…9876"
    assert "NEW-KEY" not in canary_reporter.anthropic_key_encrypted
    page = admin_client.get(url).content.decode()
    assert "NEW-KEY" not in page and "…9876" in page


def test_a_typed_key_is_not_echoed_back_when_the_form_has_errors(
    admin_client: Client, canary_reporter: Reporter
) -> None:
    url = reverse("admin:newsdesk_reporter_change", args=[canary_reporter.pk])

    response = admin_client.post(
        url, reporter_data(canary_reporter, telegram_id="abc", new_api_key=CANARY + "-NEW")
    )

    assert response.status_code == 200
    assert response.context["adminform"].form.errors["telegram_id"]
    assert_no_key(response.content, canary_reporter)


def test_leaving_the_key_field_empty_keeps_the_key(admin_client: Client, canary_reporter: Reporter) -> None:
    url = reverse("admin:newsdesk_reporter_change", args=[canary_reporter.pk])

    response = admin_client.post(url, reporter_data(canary_reporter, display_name="김기자"))

    assert response.status_code == 302
    canary_reporter.refresh_from_db()
    assert (canary_reporter.display_name, canary_reporter.anthropic_key()) == ("김기자", CANARY)


def test_the_delete_box_removes_the_key(admin_client: Client, canary_reporter: Reporter) -> None:
    url = reverse("admin:newsdesk_reporter_change", args=[canary_reporter.pk])

    response = admin_client.post(url, reporter_data(canary_reporter, clear_api_key="on"))

    assert response.status_code == 302
    canary_reporter.refresh_from_db()
    assert (canary_reporter.has_anthropic_key, canary_reporter.anthropic_key_status) == (False, "none")


def test_a_key_cannot_be_replaced_and_deleted_at_once(
    admin_client: Client, canary_reporter: Reporter
) -> None:
    url = reverse("admin:newsdesk_reporter_change", args=[canary_reporter.pk])

    response = admin_client.post(
        url, reporter_data(canary_reporter, new_api_key="sk-ant-x", clear_api_key="on")
    )

    assert response.status_code == 200
    canary_reporter.refresh_from_db()
    assert canary_reporter.anthropic_key() == CANARY


def test_reporters_cannot_be_found_by_their_key(admin_client: Client, canary_reporter: Reporter) -> None:
    url = reverse("admin:newsdesk_reporter_changelist")

    for term in ("CANARY", "1234", canary_reporter.anthropic_key_encrypted[:12]):
        assert list(admin_client.get(url, {"q": term}).context["cl"].result_list) == [], term


def test_reporters_are_found_by_telegram_id(admin_client: Client, canary_reporter: Reporter) -> None:
    ReporterFactory(user__username="other")

    response = admin_client.get(reverse("admin:newsdesk_reporter_changelist"), {"q": "777"})

    assert [r.pk for r in response.context["cl"].result_list] == [canary_reporter.pk]


# --- API tokens and conversations --------------------------------------------------------------


def test_tokens_are_issued_by_the_command_not_the_admin(
    admin_client: Client, canary_reporter: Reporter
) -> None:
    assert admin_client.get(reverse("admin:newsdesk_apitoken_add")).status_code == 403
    token = canary_reporter.api_tokens.get()
    change = admin_client.get(reverse("admin:newsdesk_apitoken_change", args=[token.pk]))
    assert token.token_hash not in change.content.decode()


def test_a_token_can_be_revoked(admin_client: Client, canary_reporter: Reporter) -> None:
    token = canary_reporter.api_tokens.get()

    response = admin_client.post(reverse("admin:newsdesk_apitoken_delete", args=[token.pk]), {"post": "yes"})

    assert response.status_code == 302
    assert not ApiToken.objects.exists()


def test_conversations_are_for_superusers_only(
    client: Client, admin_client: Client, canary_reporter: Reporter
) -> None:
    message = Message.objects.create(reporter=canary_reporter, role="user", content="제보 내용입니다")
    staff = UserFactory(username="ops", is_staff=True)
    staff.user_permissions.add(*Permission.objects.filter(content_type__app_label="conversations"))
    client.force_login(staff)

    assert client.get(reverse("admin:conversations_message_changelist")).status_code == 403
    assert client.get(reverse("admin:conversations_message_change", args=[message.pk])).status_code == 403
    assert (
        "제보 내용입니다"
        in admin_client.get(reverse("admin:conversations_message_changelist")).content.decode()
    )
    assert admin_client.get(reverse("admin:conversations_message_add")).status_code == 403
    change_url = reverse("admin:conversations_message_change", args=[message.pk])
    assert admin_client.post(change_url, {"content": "고침"}).status_code == 403


def test_a_superuser_can_still_delete_a_reporter_with_conversations_and_runs(
    admin_client: Client, canary_reporter: Reporter
) -> None:
    Message.objects.create(reporter=canary_reporter, role="user", content="안녕")
    run = RunFactory(reporter=canary_reporter, kind=Run.Kind.DRAFT)
    LLMCallFactory(run=run, reporter=canary_reporter, purpose="writing", model="m")

    url = reverse("admin:newsdesk_reporter_delete", args=[canary_reporter.pk])
    response = admin_client.post(url, {"post": "yes"})

    assert response.status_code == 302
    assert not Reporter.objects.filter(pk=canary_reporter.pk).exists()


def test_a_reporters_page_shows_their_model_style_and_todays_cost_per_model(admin_client: Client) -> None:
    reporter = ReporterFactory(llm_model="claude-sonnet-5", publisher_style="한겨레")
    for model, cost in [("claude-sonnet-5", "0.0200"), ("claude-haiku-4-5-20251001", "0.0010")] * 2:
        LLMCallFactory(reporter=reporter, purpose="draft", model=model, cost_usd=cost, status="ok")
    LLMCallFactory(reporter=ReporterFactory(), purpose="draft", model="claude-sonnet-5", cost_usd="9")

    page = admin_client.get(reverse("admin:newsdesk_reporter_change", args=[reporter.pk])).content.decode()

    assert "Sonnet 5 (어려운 기사): $0.0400 (2회) · Haiku 4.5 (빠르고 저렴): $0.0020 (2회)" in page
    assert "한겨레" in page and "$9" not in page


def test_the_daily_usage_page_splits_each_reporters_day_by_model(admin_client: Client) -> None:
    reporter = ReporterFactory(display_name="박기자")
    for model in ("claude-sonnet-5", "claude-haiku-4-5-20251001"):
        LLMCallFactory(reporter=reporter, purpose="draft", model=model, cost_usd="0.0100", status="ok")

    page = admin_client.get(reverse("admin:agents_llmcall_daily")).content.decode()

    assert "<td>Sonnet 5 (어려운 기사)</td>" in page and "<td>Haiku 4.5 (빠르고 저렴)</td>" in page

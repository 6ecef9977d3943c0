from __future__ import annotations

from decimal import Decimal

import pytest
from django.contrib.auth.models import Group, Permission
from django.test import Client
from django.urls import reverse

from agents.admin import PublisherForm
from agents.models import Article, LLMCall, Publisher, Run, VerificationIssue
from newsdesk.models import Reporter
from tests.factories import (
    ArticleFactory,
    LLMCallFactory,
    ReporterFactory,
    RunFactory,
    UserFactory,
    VerificationIssueFactory,
)

pytestmark = pytest.mark.django_db

ISSUES_URL = reverse("admin:agents_verificationissue_changelist")
RUNS_URL = reverse("admin:agents_run_changelist")


@pytest.fixture
def editor(client: Client):
    user = UserFactory(username="editor", is_staff=True)
    user.groups.add(Group.objects.get(name="editors"))
    client.force_login(user)
    return user


def make_article(
    reporter: Reporter, *, issues: int = 0, headline: str = "서울시 예산 12조 원 편성"
) -> Article:
    article = ArticleFactory(
        reporter=reporter,
        department="사회부",
        headline=headline,
        draft_body="초안 본문",
        body="최종 본문",
        verdict=Article.Verdict.REVISED,
        length=5,
    )
    for n in range(issues):
        VerificationIssueFactory(
            article=article, claim=f"예산은 {n}조 원이다", status="not_found", kind="number", origin="code"
        )
    return article


def make_run(reporter: Reporter, *, calls: int) -> Run:
    run = RunFactory(reporter=reporter, kind=Run.Kind.DRAFT, status=Run.Status.DONE)
    for _ in range(calls):
        LLMCallFactory(
            run=run,
            reporter=reporter,
            purpose="writing",
            model="claude-haiku-4-5-20251001",
            input_tokens=100,
            output_tokens=20,
            cache_read_input_tokens=3,
            cache_creation_input_tokens=1,
            cost_usd=Decimal("0.0015"),
            status=LLMCall.Status.OK,
        )
    return run


# --- verification issues -----------------------------------------------------------------------


@pytest.mark.parametrize(("action", "state"), [("accept", "accepted"), ("dismiss", "dismissed")])
def test_an_editor_reviews_the_selected_issues_from_the_changelist(
    client: Client, editor, reporter: Reporter, action: str, state: str
) -> None:
    first, second, untouched = make_article(reporter, issues=3).issues.all()

    response = client.post(ISSUES_URL, {"action": action, "_selected_action": [first.pk, second.pk]})

    assert response.status_code == 302
    for issue in (first, second):
        issue.refresh_from_db()
        assert (issue.review_state, issue.reviewed_by) == (state, editor)
        assert issue.reviewed_at is not None
    untouched.refresh_from_db()
    assert untouched.review_state == "open"


def test_the_issue_changelist_offers_the_review_actions_with_korean_labels(
    client: Client, editor, reporter: Reporter
) -> None:
    make_article(reporter, issues=1)

    content = client.get(ISSUES_URL).content.decode()

    assert "선택한 검증 이슈 수용" in content
    assert "선택한 검증 이슈 기각" in content
    assert "부서" in content  # the article department column and filter


def test_the_issue_changelist_filters_by_the_article_department(client: Client, editor) -> None:
    make_article(ReporterFactory(department="사회부"), issues=1)
    economy = make_article(ReporterFactory(department="경제부"), issues=1)
    Article.objects.filter(pk=economy.pk).update(department="경제부")

    response = client.get(ISSUES_URL, {"article__department": "경제부"})

    shown = list(response.context["cl"].result_list)
    assert [issue.article_id for issue in shown] == [economy.pk]


def test_the_issue_changelist_shows_and_filters_by_rule_family_and_the_suspect_status(
    client: Client, editor, reporter: Reporter
) -> None:
    article = make_article(reporter, issues=1)
    suspect = VerificationIssueFactory(
        article=article, claim="30.4%", status="suspect", kind="number", rule="bind:other-subject"
    )
    VerificationIssueFactory(article=article, claim="20.1%", status="contradicted", rule="change:reversed")

    by_rule = client.get(ISSUES_URL, {"rule": "bind:other-subject"})
    by_status = client.get(ISSUES_URL, {"status__exact": "suspect"})

    assert [i.pk for i in by_rule.context["cl"].result_list] == [suspect.pk]
    assert [i.pk for i in by_status.context["cl"].result_list] == [suspect.pk]
    content = by_rule.content.decode()
    assert "규칙" in content and "bind:other-subject" in content
    assert "의심" in content  # the suspect status in the status filter, with its Korean label
    assert "?rule=change%3Areversed" in content  # the other family is offered in the rule filter


def test_an_editor_can_change_only_the_review_state_of_an_issue(
    client: Client, editor, reporter: Reporter
) -> None:
    (issue,) = make_article(reporter, issues=1).issues.all()
    url = reverse("admin:agents_verificationissue_change", args=[issue.pk])

    response = client.post(url, {"review_state": "dismissed", "claim": "바꾼 주장", "status": "confirmed"})

    assert response.status_code == 302
    issue.refresh_from_db()
    assert (issue.review_state, issue.reviewed_by, issue.claim, issue.status) == (
        "dismissed",
        editor,
        "예산은 0조 원이다",
        "not_found",
    )
    assert issue.reviewed_at is not None


def test_a_reviewed_issue_cannot_be_put_back_to_open(client: Client, editor, reporter: Reporter) -> None:
    (issue,) = make_article(reporter, issues=1).issues.all()
    VerificationIssue.objects.filter(pk=issue.pk).update(review_state="accepted")
    url = reverse("admin:agents_verificationissue_change", args=[issue.pk])

    response = client.post(url, {"review_state": "open"})

    assert response.status_code == 200
    assert "검토 대기" in response.context["adminform"].form.errors["review_state"][0]
    issue.refresh_from_db()
    assert issue.review_state == "accepted"


def test_issues_cannot_be_added_by_hand(admin_client: Client) -> None:
    assert admin_client.get(reverse("admin:agents_verificationissue_add")).status_code == 403


# --- articles ----------------------------------------------------------------------------------


def test_an_editor_reviews_issues_inline_on_the_article_page(
    client: Client, editor, reporter: Reporter
) -> None:
    article = make_article(reporter, issues=2)
    first, second = article.issues.all()
    data = {
        "headline": "바꾼 제목",
        "issues-TOTAL_FORMS": "2",
        "issues-INITIAL_FORMS": "2",
        "issues-MIN_NUM_FORMS": "0",
        "issues-MAX_NUM_FORMS": "1000",
        "issues-0-id": first.pk,
        "issues-0-article": article.pk,
        "issues-0-review_state": "accepted",
        "issues-1-id": second.pk,
        "issues-1-article": article.pk,
        "issues-1-review_state": "open",
    }

    response = client.post(reverse("admin:agents_article_change", args=[article.pk]), data)

    assert response.status_code == 302
    first.refresh_from_db()
    second.refresh_from_db()
    assert (first.review_state, first.reviewed_by) == ("accepted", editor)
    assert (second.review_state, second.reviewed_by) == ("open", None)
    article.refresh_from_db()
    assert article.headline == "서울시 예산 12조 원 편성"  # article fields are read-only


def test_the_article_page_shows_the_article_read_only_with_korean_labels(
    client: Client, editor, reporter: Reporter
) -> None:
    article = make_article(reporter, issues=1)

    response = client.get(reverse("admin:agents_article_change", args=[article.pk]))

    content = response.content.decode()
    assert response.status_code == 200
    assert "최종 본문" in content and "초안 본문" in content
    assert 'name="headline"' not in content
    assert 'name="issues-0-review_state"' in content
    assert 'name="issues-0-claim"' not in content


def test_articles_cannot_be_added_by_hand(admin_client: Client) -> None:
    assert admin_client.get(reverse("admin:agents_article_add")).status_code == 403


def test_the_article_changelist_filters_by_verdict_and_searches_headlines(
    client: Client, editor, reporter: Reporter
) -> None:
    wanted = make_article(reporter, headline="한강 교량 점검 결과")
    make_article(reporter, headline="지하철 요금 인상")
    url = reverse("admin:agents_article_changelist")

    assert [a.pk for a in client.get(url, {"q": "한강"}).context["cl"].result_list] == [wanted.pk]
    assert list(client.get(url, {"verdict__exact": "pass"}).context["cl"].result_list) == []


# --- runs and LLM calls ------------------------------------------------------------------------


def test_the_run_changelist_costs_the_same_queries_for_one_run_or_ten(
    admin_client: Client, reporter: Reporter, django_assert_max_num_queries
) -> None:
    make_run(reporter, calls=2)
    admin_client.get(RUNS_URL)  # warm the session and content-type caches
    with django_assert_max_num_queries(100) as one:
        admin_client.get(RUNS_URL)
    for n in range(9):
        make_run(ReporterFactory(user__username=f"r{n}"), calls=3)

    with django_assert_max_num_queries(len(one.captured_queries)):
        response = admin_client.get(RUNS_URL)

    assert len(response.context["cl"].result_list) == 10


def test_the_run_changelist_totals_each_runs_llm_usage(admin_client: Client, reporter: Reporter) -> None:
    run = make_run(reporter, calls=2)
    idle = make_run(reporter, calls=0)

    rows = {row.pk: row for row in admin_client.get(RUNS_URL).context["cl"].result_list}

    assert (rows[run.pk].llm_call_count, rows[run.pk].total_tokens, rows[run.pk].total_cost) == (
        2,
        248,
        Decimal("0.003"),
    )
    assert (rows[idle.pk].llm_call_count, rows[idle.pk].total_tokens) == (0, None)


def test_a_run_page_is_read_only_and_lists_its_events_and_calls(
    admin_client: Client, reporter: Reporter
) -> None:
    run = make_run(reporter, calls=1)
    run.add_event("stage", "기사 작성 중")
    url = reverse("admin:agents_run_change", args=[run.pk])

    response = admin_client.get(url)

    content = response.content.decode()
    assert "기사 작성 중" in content
    assert "캐시 읽기 토큰" in content
    assert admin_client.post(url, {"stage": "done"}).status_code == 403
    assert admin_client.get(reverse("admin:agents_run_add")).status_code == 403


def test_only_superusers_may_delete_runs(client: Client, admin_client: Client, reporter: Reporter) -> None:
    run = make_run(reporter, calls=1)
    staff = UserFactory(username="ops", is_staff=True)
    staff.user_permissions.add(*Permission.objects.filter(codename__in=["view_run", "delete_run"]))
    client.force_login(staff)
    url = reverse("admin:agents_run_delete", args=[run.pk])

    assert client.post(url, {"post": "yes"}).status_code == 403
    assert admin_client.post(url, {"post": "yes"}).status_code == 302
    assert not Run.objects.filter(pk=run.pk).exists()
    assert not LLMCall.objects.exists()


def test_the_llm_call_changelist_filters_by_purpose(admin_client: Client, reporter: Reporter) -> None:
    make_run(reporter, calls=2)
    LLMCallFactory(reporter=reporter, purpose="router", model="m", status=LLMCall.Status.ERROR)
    url = reverse("admin:agents_llmcall_changelist")

    shown = admin_client.get(url, {"purpose": "router"}).context["cl"].result_list

    assert [call.purpose for call in shown] == ["router"]
    assert admin_client.get(reverse("admin:agents_llmcall_add")).status_code == 403


# --- publishers --------------------------------------------------------------------------------


def publisher_data(**overrides: object) -> dict[str, object]:
    data: dict[str, object] = {
        "name": "조선일보",
        "domain": "chosun.com",
        "category": "종합일간지",
        "exclude_subdomains": "",
        "active": True,
        "position": 0,
    }
    data.update(overrides)
    return data


def test_excluded_hosts_are_typed_one_per_line_or_comma_separated() -> None:
    instance = Publisher.objects.get(name="조선일보")
    form = PublisherForm(
        publisher_data(exclude_subdomains="it.chosun.com, biz.chosun.com\n\nIT.Chosun.com."),
        instance=instance,
    )

    assert form.is_valid(), form.errors
    assert form.save().exclude_subdomains == ["it.chosun.com", "biz.chosun.com"]


def test_the_excluded_hosts_are_shown_one_per_line() -> None:
    form = PublisherForm(
        instance=Publisher(name="x", domain="chosun.com", exclude_subdomains=["a.chosun.com", "b.chosun.com"])
    )

    assert "a.chosun.com\nb.chosun.com" in str(form["exclude_subdomains"])


@pytest.mark.parametrize("hosts", ["https://it.chosun.com/news", "it chosun.com!", "-bad.chosun.com"])
def test_it_rejects_an_excluded_host_that_is_not_a_host_name(hosts: str) -> None:
    form = PublisherForm(publisher_data(name="새 언론", exclude_subdomains=hosts))

    assert not form.is_valid()
    assert "호스트 이름이 아닙니다" in form.errors["exclude_subdomains"][0]


def test_it_rejects_an_excluded_host_outside_the_publishers_domain() -> None:
    form = PublisherForm(publisher_data(name="새 언론", exclude_subdomains="news.donga.com"))

    assert not form.is_valid()
    assert "chosun.com의 하위 호스트가 아닙니다" in form.errors["exclude_subdomains"][0]


def test_an_editor_switches_publishers_off_and_reorders_them_from_the_changelist(
    client: Client, editor
) -> None:
    chosun = Publisher.objects.get(name="조선일보")
    others = list(Publisher.objects.exclude(pk=chosun.pk).values_list("pk", "position"))
    rows = [(chosun.pk, False, 99), *[(pk, True, position) for pk, position in others]]
    data: dict[str, object] = {
        "form-TOTAL_FORMS": str(len(rows)),
        "form-INITIAL_FORMS": str(len(rows)),
        "form-MIN_NUM_FORMS": "0",
        "form-MAX_NUM_FORMS": "1000",
        "_save": "저장",
    }
    for i, (pk, active, position) in enumerate(rows):
        data[f"form-{i}-id"] = pk
        data[f"form-{i}-position"] = position
        if active:
            data[f"form-{i}-active"] = "on"

    response = client.post(reverse("admin:agents_publisher_changelist"), data)

    assert response.status_code == 302
    chosun.refresh_from_db()
    assert (chosun.active, chosun.position) == (False, 99)


def test_the_naver_usage_counter_is_read_only(admin_client: Client) -> None:
    assert admin_client.get(reverse("admin:agents_naverusage_changelist")).status_code == 200
    assert admin_client.get(reverse("admin:agents_naverusage_add")).status_code == 403


def test_an_editor_reads_why_an_issue_was_flagged_and_the_formula_behind_a_derived_figure(
    client: Client, editor, reporter: Reporter
) -> None:
    (issue,) = make_article(reporter, issues=1).issues.all()
    VerificationIssue.objects.filter(pk=issue.pk).update(
        reason="자료의 같은 항목과 값이 다름", formula="1,480억원 − 1,250억원 = 230억원"
    )

    page = client.get(reverse("admin:agents_verificationissue_change", args=[issue.pk])).content.decode()

    assert "자료의 같은 항목과 값이 다름" in page and "1,480억원 − 1,250억원 = 230억원" in page

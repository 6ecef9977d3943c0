"""/desk/monitor/: the latest check and briefing, the buttons that start them with live progress,
one run's page and its polled status partial, and the reporter's schedules."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

import pytest
import time_machine
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver
from django.utils import timezone

from agents import tasks
from agents.models import MonitorResult, Run
from agents.monitoring import schedules
from agents.work import runs
from tests.agents.monitoring.world import World, answer_analysis, answer_filter, naver_dns
from tests.factories import MonitorItemFactory, MonitorResultFactory, RunFactory
from tests.fakes.anthropic import FakeAnthropic
from tests.fakes.naver import FakeNaver
from tests.fakes.pages import FakePages
from tests.newsdesk.desk.conftest import HTMX
from tests.newsdesk.desk.html import one, parse, text
from tests.newsdesk.desk.test_xss import PAYLOADS, assert_inert

pytestmark = pytest.mark.django_db
KST = ZoneInfo("Asia/Seoul")
NOON = datetime(2026, 3, 2, 12, 0, tzinfo=KST)
NAVER = "https://n.news.naver.com/mnews/article/001/{n}"

# (url name, method, path); {id} is a check run of reporter "kim".
WITH_ID = [
    ("monitor_run", "get", "/desk/monitor/runs/{id}/"),
    ("monitor_run_status", "get", "/desk/monitor/runs/{id}/status/"),
]
WITHOUT_ID = [
    ("monitor", "get", "/desk/monitor/"),
    ("monitor_check", "post", "/desk/monitor/check/"),
    ("monitor_report", "post", "/desk/monitor/report/"),
    ("monitor_schedule_add", "post", "/desk/monitor/schedules/add/"),
    ("monitor_schedule_remove", "post", "/desk/monitor/schedules/remove/"),
]
POSTS = [row for row in WITHOUT_ID if row[1] == "post"]


# --- building results -------------------------------------------------------------------------
def finished(reporter: Any, kind: str, items: list[dict[str, Any]], **figures: Any) -> Run:
    """A done check/report run with its figures and items, as the pipelines store them."""
    now = timezone.now()
    run = RunFactory(
        reporter=reporter,
        kind=kind,
        status="done",
        stage="done",
        input={"department": "사회부", "keywords": ["서울시"]},
        started_at=now - timedelta(seconds=9),
        finished_at=now,
    )
    MonitorResultFactory(
        run=run,
        window_start=now - timedelta(hours=3),
        window_end=now,
        day=now.astimezone(KST).date() if kind == "report" else None,
        department="사회부",
        analysed=len(items),
        **figures,
    )
    for position, fields in enumerate(items):
        defaults = {
            "category": "important",
            "title": f"기사 {position}",
            "publisher": "연합뉴스",
            "url": NAVER.format(n=position + 1),
            "pub_time": now - timedelta(minutes=10 + position),
            "summary": f"요약 {position}",
            "reason": f"이유 {position}",
        }
        MonitorItemFactory(run=run, position=position, **{**defaults, **fields})
    runs.event_add(run=run, kind="done", message="완료")
    return run


@pytest.fixture
def noon() -> Iterator[None]:
    with time_machine.travel(NOON, tick=True):
        yield


@pytest.fixture
def check_run(reporter: Any) -> Run:
    return finished(reporter, "check", [{"title": "서울시, 예산 발표"}])


def flat(response_or_soup: Any, selector: str) -> str:
    """The text as read on screen: inline markup (<strong>) adds no space."""
    return " ".join(one(response_or_soup, selector).get_text().split())


def status(client: Client, run: Run) -> Any:
    return client.get(f"/desk/monitor/runs/{run.pk}/status/", **HTMX)


def monitor_url_names() -> set[str]:
    include = next(
        p for p in get_resolver().url_patterns if isinstance(p, URLResolver) and p.namespace == "desk"
    )
    return {p.name for p in include.url_patterns if isinstance(p, URLPattern) and p.name}


# --- permissions ------------------------------------------------------------------------------
def test_the_tables_here_cover_every_monitor_url() -> None:
    names = {name for name in monitor_url_names() if name.startswith("monitor")}

    assert names == {name for name, _, _ in WITH_ID + WITHOUT_ID}


@pytest.mark.parametrize(("name", "method", "path"), WITH_ID + WITHOUT_ID)
@pytest.mark.parametrize("headers", [{}, HTMX], ids=["page", "htmx"])
def test_anonymous_visitors_are_sent_to_the_login_page_from_every_monitor_url(
    client: Client, check_run: Run, name: str, method: str, path: str, headers: dict
) -> None:
    response = getattr(client, method)(path.format(id=check_run.pk), **headers)

    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/login/?next=")
    assert Run.objects.count() == 1


@pytest.mark.parametrize(("name", "method", "path"), WITH_ID)
@pytest.mark.parametrize("headers", [{}, HTMX], ids=["page", "htmx"])
def test_another_reporters_run_is_not_found_on_its_page_and_status(
    other_desk: Client, check_run: Run, name: str, method: str, path: str, headers: dict
) -> None:
    response = other_desk.get(path.format(id=check_run.pk), **headers)

    assert response.status_code == 404
    assert "서울시, 예산 발표" not in response.content.decode()


@pytest.mark.parametrize("kind", ["draft", "edit", "chat"])
@pytest.mark.parametrize(("name", "method", "path"), WITH_ID)
def test_a_run_that_is_not_a_check_or_report_is_not_found_on_the_monitor_urls(
    desk: Client, reporter: Any, kind: str, name: str, method: str, path: str
) -> None:
    run = RunFactory(reporter=reporter, kind=kind, status="done")

    assert desk.get(path.format(id=run.pk), **HTMX).status_code == 404


def test_a_run_id_that_does_not_exist_is_not_found(desk: Client) -> None:
    assert desk.get("/desk/monitor/runs/999999/").status_code == 404


@pytest.mark.parametrize(("name", "method", "path"), POSTS)
@pytest.mark.parametrize("headers", [{}, HTMX], ids=["form", "htmx"])
def test_a_monitor_post_without_a_csrf_token_is_refused_and_changes_nothing(
    reporter: Any, name: str, method: str, path: str, headers: dict
) -> None:
    schedules.schedule_add(reporter=reporter, command="check", time="09:00")
    browser = Client(enforce_csrf_checks=True)
    browser.force_login(reporter.user)

    response = browser.post(path, {"command": "check", "time": "09:00"}, **headers)

    assert response.status_code == 403
    assert not Run.objects.exists()
    assert schedules.schedule_list(reporter=reporter)["check"] == ["09:00"]


def test_the_buttons_post_with_the_pages_csrf_header(reporter: Any) -> None:
    browser = Client(enforce_csrf_checks=True)
    browser.force_login(reporter.user)
    page = browser.get("/desk/monitor/")
    token = json.loads(one(page, "body")["hx-headers"])["X-CSRFToken"]

    response = browser.post("/desk/monitor/check/", HTTP_X_CSRFTOKEN=token, **HTMX)

    assert response.status_code == 200 and Run.objects.filter(kind="check").exists()
    for form in parse(page).select("#monitor-actions form"):
        assert form.find("input", attrs={"name": "csrfmiddlewaretoken"})  # the no-JS post


def test_the_monitor_page_forbids_inline_scripts(desk: Client) -> None:
    csp = desk.get("/desk/monitor/")["Content-Security-Policy"]

    assert "script-src 'self';" in csp and "unsafe-inline" not in csp


# --- the buttons ------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("path", "kind"), [("/desk/monitor/check/", "check"), ("/desk/monitor/report/", "report")]
)
def test_a_button_queues_a_web_run_and_redraws_the_page_with_its_live_progress(
    desk: Client, path: str, kind: str, django_capture_on_commit_callbacks: Any
) -> None:
    with django_capture_on_commit_callbacks() as sent:
        response = desk.post(path, **HTMX)

    run = Run.objects.get()
    assert (run.kind, run.channel, run.status) == (kind, "web", "queued")
    assert len(sent) == 1  # the Celery task, sent once the run is committed
    assert response.status_code == 200
    assert response["HX-Retarget"] == "#main" and response["HX-Reswap"] == "innerHTML"
    region = one(response, f"#monitor-{kind}")
    assert region["hx-get"] == f"/desk/monitor/runs/{run.pk}/status/?after=1"  # a long poll past "queued"
    assert region["hx-trigger"] == "load delay:100ms, every 12s" and region["hx-swap"] == "outerHTML"
    assert "대기 중" in text(region, ".elapsed")
    assert [li.get_text() for li in region.select(".stages li")] == [
        "뉴스 검색",
        "관련 기사 선별",
        "본문 수집",
        "분석",
        "완료",
    ]
    assert "접수됨" in text(region, ".events")


def test_a_button_without_javascript_posts_and_comes_back_to_the_page(desk: Client) -> None:
    response = desk.post("/desk/monitor/check/")

    assert response.status_code == 303 and response["Location"] == "/desk/monitor/"
    run = Run.objects.get()
    assert one(desk.get("/desk/monitor/"), "#monitor-check")["data-run"] == str(run.pk)


@pytest.mark.parametrize("second", ["/desk/monitor/check/", "/desk/monitor/report/"])
def test_a_second_click_while_a_job_runs_says_it_is_already_running_and_starts_nothing(
    desk: Client, second: str
) -> None:
    desk.post("/desk/monitor/check/", **HTMX)

    response = desk.post(second, **HTMX)

    assert response.status_code == 200  # htmx swaps only successful answers
    assert "<html" not in response.content.decode()
    assert one(response, "#monitor-actions")
    assert "이미 실행 중" in text(response, "#monitor-actions [role=alert]")
    assert Run.objects.count() == 1


def test_a_refusal_without_javascript_shows_the_page_with_the_message_by_the_buttons(desk: Client) -> None:
    desk.post("/desk/monitor/report/")

    response = desk.post("/desk/monitor/check/")

    assert response.status_code == 200 and "<html" in response.content.decode()
    assert "이미 실행 중" in text(response, "#monitor-actions [role=alert]")
    assert Run.objects.count() == 1


def test_a_check_without_keywords_tells_how_to_set_them_and_starts_nothing(
    desk: Client, reporter: Any
) -> None:
    reporter.keywords = []
    reporter.save()

    response = desk.post("/desk/monitor/check/", **HTMX)

    alert = one(response, "#monitor-actions [role=alert]")
    assert "키워드" in alert.get_text() and "/desk/profile/" in alert.get_text()
    assert one(alert, "a")["href"] == "/desk/profile/"
    assert not Run.objects.exists()


def test_a_briefing_without_a_key_says_so_and_starts_nothing(
    desk: Client, reporter: Any, settings: Any
) -> None:
    settings.ANTHROPIC_API_KEY = ""
    reporter.set_anthropic_key("")
    reporter.save()

    response = desk.post("/desk/monitor/report/", **HTMX)

    assert "키" in text(response, "#monitor-actions [role=alert]")
    assert not Run.objects.exists()


def test_get_on_a_button_url_is_not_allowed(desk: Client) -> None:
    assert desk.get("/desk/monitor/check/").status_code == 405
    assert not Run.objects.exists()


# --- live progress ----------------------------------------------------------------------------
@pytest.fixture
def world(fake_naver: FakeNaver, pages: FakePages) -> Iterator[World]:
    with naver_dns():
        yield World(fake_naver, pages)


def test_the_status_partial_polls_while_the_check_runs_and_stops_with_its_results(
    desk: Client, reporter: Any, world: World, fake_llm: FakeAnthropic
) -> None:
    hit = world.article("서울시", "[단독] 서울시, 공무원 뇌물 수사", minutes_ago=10)
    dull = world.article("경찰", "경찰 체육대회 개최", minutes_ago=20)
    answer_filter(fake_llm)
    answer_analysis(fake_llm, report={hit.title: "exclusive"}, skip={dull.title: "s3: 행사"})
    desk.post("/desk/monitor/check/", **HTMX)
    run = Run.objects.get()

    queued = status(desk, run)
    tasks.monitor_check.apply(args=[run.pk])
    ended = status(desk, run)

    assert "<html" not in queued.content.decode()
    assert one(queued, "#monitor-check")["hx-trigger"] == "load delay:100ms, every 12s"
    region = one(ended, "#monitor-check")
    assert ended.status_code == 200  # not 286: ending by content works in htmx 2 and 4
    assert not region.has_attr("hx-trigger") and not region.has_attr("hx-get")
    assert region["data-status"] == "done"
    item = one(region, ".monitor-item")
    assert text(item, ".tag") == "[단독]" and text(item, ".item-title") == "서울시, 공무원 뇌물 수사"
    assert one(item, "a.item-title")["href"] == hit.link
    assert text(region, ".monitor-collapsed summary") == "스킵 1건"
    assert "경찰 체육대회 개최" in text(region, ".monitor-collapsed")
    assert "주요 1건 / 전체 2건" in flat(region, ".monitor-summary")


def test_the_progress_shows_the_monitoring_stage_and_retries(desk: Client, reporter: Any) -> None:
    run = RunFactory(reporter=reporter, kind="check", status="running")
    runs.stage_set(run=run, stage="search", message="네이버 뉴스 검색 중")
    runs.stage_set(run=run, stage="scrape", message="본문 수집 중 (3건)")
    runs.event_add(run=run, kind="retry", message="재시도 중 1/3")

    response = status(desk, run)

    soup = parse(response)
    assert [li["class"][1] for li in soup.select(".stages li")] == [
        "stage-done",
        "stage-done",
        "stage-current",
        "stage-todo",
        "stage-todo",
    ]
    assert one(soup, "progress")["value"] == "2"
    assert text(soup, ".retry") == "재시도 중 1/3"
    assert "본문 수집 중 (3건)" in text(soup, ".events")
    assert "진행 중" in text(soup, ".elapsed")


def test_a_failed_run_shows_its_error_and_stops_polling(desk: Client, reporter: Any) -> None:
    run = RunFactory(reporter=reporter, kind="report", status="running")
    runs.run_fail(run=run, message="네이버 검색 한도를 모두 썼습니다.")

    region = one(status(desk, run), "#monitor-report")

    assert not region.has_attr("hx-trigger")
    assert text(region, ".error-text") == "네이버 검색 한도를 모두 썼습니다."
    assert not region.select("form")  # no retry here: the buttons start a new run


def test_the_status_url_without_htmx_sends_the_browser_to_the_run_page(desk: Client, check_run: Run) -> None:
    response = desk.get(f"/desk/monitor/runs/{check_run.pk}/status/")

    assert response.status_code == 302 and response["Location"] == f"/desk/monitor/runs/{check_run.pk}/"


def test_a_run_page_shows_that_run_alone(desk: Client, reporter: Any, check_run: Run) -> None:
    newer = finished(reporter, "check", [{"title": "더 새로운 기사"}])

    response = desk.get(f"/desk/monitor/runs/{check_run.pk}/")

    assert response.status_code == 200
    assert text(response, ".monitor-item .item-title") == "서울시, 예산 발표"
    assert "더 새로운 기사" not in response.content.decode() and newer.pk != check_run.pk
    assert f"#{check_run.pk}" in text(response, "h1")


# --- results ----------------------------------------------------------------------------------
def test_check_items_show_tag_publisher_time_summary_reason_and_a_safe_link(
    desk: Client, reporter: Any, noon: None
) -> None:
    finished(
        reporter,
        "check",
        [
            {
                "category": "exclusive",
                "title": "[단독] 경찰, 구청장 소환",
                "pub_time": NOON - timedelta(minutes=45),
                "summary": "경찰이 구청장을 소환했다.",
                "reason": "수사 국면 변화",
                "source_count": 3,
            },
            {
                "title": "어제 나온 기사",
                "publisher": "조선일보",
                "pub_time": NOON - timedelta(days=1, hours=1),
                "url": "",
                "originallink": "https://www.chosun.com/a/1",
                "body_scraped": False,
            },
        ],
    )

    soup = parse(desk.get("/desk/monitor/"))

    first, second = soup.select("#monitor-check .monitor-item")
    assert text(first, ".item-head") == "[단독] [연합뉴스 등 다수] 경찰, 구청장 소환 11:15"
    link = one(first, "a.item-title")
    assert link["href"] == NAVER.format(n=1) and link["rel"] == ["noopener", "noreferrer"]
    assert one(first, "time")["datetime"] == "2026-03-02T11:15:00+09:00"
    assert text(first, ".item-summary") == "경찰이 구청장을 소환했다."
    assert text(first, ".item-reason") == "→ 수사 국면 변화"
    assert text(second, "time") == "3/1 11:00"  # another day: with the date
    assert one(second, "a.item-title")["href"] == "https://www.chosun.com/a/1"
    assert not second.select(".tag") and "검색 요약만으로" in text(second, ".hint")


def test_the_window_and_counts_are_one_line(desk: Client, reporter: Any, noon: None) -> None:
    finished(
        reporter,
        "check",
        [{}, {"category": "skip"}, {"category": "skip"}],
        filtered_out=4,
    )

    line = flat(desk.get("/desk/monitor/"), "#monitor-check .monitor-summary")

    assert line.startswith(
        "검색 범위 09:00 ~ 12:00 · 주요 1건 / 전체 7건 · 스킵 2건 · 관련성이 낮아 미리 제외 4건"
    )


def test_report_updates_are_tagged_modified_or_added_and_unchanged_items_are_collapsed(
    desk: Client, reporter: Any, noon: None
) -> None:
    run = finished(
        reporter,
        "report",
        [
            {"title": "고친 기사", "action": "modified"},
            {"title": "[단독] 새 기사", "action": "added", "category": "exclusive"},
            {"title": "이미 보고한 기사", "action": "unchanged"},
        ],
    )
    MonitorResult.objects.filter(run=run).update(scenario="B")

    region = one(desk.get("/desk/monitor/"), "#monitor-report")

    heads = [text(li, ".item-head") for li in region.select(".monitor-item")]
    assert heads == ["[수정] [연합뉴스] 고친 기사 11:50", "[단독] [신규] [연합뉴스] 새 기사 11:49"]
    collapsed = one(region, "details.monitor-collapsed")
    assert not collapsed.has_attr("open")
    assert text(collapsed, "summary") == "기보고 1건" and "이미 보고한 기사" in collapsed.get_text()
    assert "사회부 · 2026-03-02 업데이트" in flat(region, ".monitor-summary")
    assert "총 3건 (수정 1건, 추가 1건, 기보고 1건)" in flat(region, ".monitor-summary")


def test_skipped_check_items_are_collapsed_with_their_reasons(desk: Client, reporter: Any) -> None:
    finished(reporter, "check", [{"category": "skip", "title": "행사 기사", "reason": "s3: 단순 행사"}])

    region = one(desk.get("/desk/monitor/"), "#monitor-check")

    assert not region.select(".monitor-item")
    assert "새로 보고할 기사가 없습니다" in region.get_text()
    collapsed = one(region, "details.monitor-collapsed")
    assert not collapsed.has_attr("open") and text(collapsed, "summary") == "스킵 1건"
    assert "행사 기사" in collapsed.get_text() and "→ s3: 단순 행사" in collapsed.get_text()


def test_hostile_titles_summaries_reasons_and_links_render_inert(desk: Client, reporter: Any) -> None:
    hostile = [
        {
            "title": payload,
            "publisher": payload[:50],
            "summary": payload,
            "reason": payload,
            "url": "javascript:xss()",
            "category": category,
        }
        for payload in PAYLOADS
        for category in ("important", "skip")
    ]
    run = finished(reporter, "check", hostile)

    for response in (
        desk.get("/desk/monitor/"),
        desk.get(f"/desk/monitor/runs/{run.pk}/"),
        status(desk, run),
    ):
        assert_inert(response.content.decode())
        soup = parse(response)
        assert not soup.select(".monitor-result a[href^=javascript], .monitor-result a[href^=data]")
        assert soup.select_one(".monitor-result")["hx-disable"] is not None
    page = parse(desk.get("/desk/monitor/")).get_text()
    assert PAYLOADS[0] in page and '<div hx-get="/xss" hx-trigger="load">로딩</div>' in page  # as text


def test_the_page_shows_only_my_latest_runs_of_the_last_five_days(
    desk: Client, reporter: Any, other_reporter: Any
) -> None:
    with time_machine.travel(timezone.now() - timedelta(days=6)):
        finished(reporter, "report", [{"title": "엿새 전 브리핑"}])
    finished(reporter, "check", [{"title": "예전 체크"}])
    latest = finished(reporter, "check", [{"title": "최신 체크"}])
    finished(other_reporter, "report", [{"title": "남의 브리핑"}])

    soup = parse(desk.get("/desk/monitor/"))

    assert one(soup, "#monitor-check")["data-run"] == str(latest.pk)
    assert "최신 체크" in soup.get_text()
    for hidden in ("예전 체크", "엿새 전 브리핑", "남의 브리핑"):
        assert hidden not in soup.get_text()
    assert "실행한 적이 없습니다" in text(soup, "#section-report")


def test_a_run_under_way_keeps_the_last_good_result_collapsed_below(
    desk: Client, reporter: Any, check_run: Run
) -> None:
    running = RunFactory(reporter=reporter, kind="check", status="running")

    section = one(desk.get("/desk/monitor/"), "#section-check")

    assert one(section, "#monitor-check")["data-run"] == str(running.pk)
    previous = one(section, "details.monitor-previous")
    assert not previous.has_attr("open") and "서울시, 예산 발표" in previous.get_text()


def test_an_expired_result_says_so(desk: Client, reporter: Any) -> None:
    with time_machine.travel(timezone.now() - timedelta(days=6)):
        run = finished(reporter, "check", [{"title": "오래된 기사"}])

    response = desk.get(f"/desk/monitor/runs/{run.pk}/")

    assert "보관 기간" in text(response, ".monitor-result") and "오래된 기사" not in response.content.decode()


def test_the_department_and_keywords_are_shown_with_a_link_to_the_profile(desk: Client) -> None:
    line = one(desk.get("/desk/monitor/"), ".monitor-profile")

    assert "사회부" in line.get_text() and "서울시, 경찰" in line.get_text()
    assert one(line, "a")["href"] == "/desk/profile/"


@pytest.mark.parametrize("path", ["/desk/monitor/", "/desk/monitor/runs/{id}/"])
def test_a_monitor_page_is_a_whole_document_or_its_main_region_for_htmx(
    desk: Client, check_run: Run, path: str
) -> None:
    url = path.format(id=check_run.pk)

    whole = desk.get(url)
    region = desk.get(url, **HTMX)

    assert whole["Cache-Control"].startswith("max-age=0") and "<html" in whole.content.decode()
    assert parse(whole).select_one("header.topbar nav")
    body = region.content.decode()
    assert "<html" not in body and "topbar" not in body and body.lstrip().startswith("<title>")
    for link in parse(whole).select("main a[hx-get]"):
        assert link["href"] == link["hx-get"]


def test_the_navigation_links_to_the_monitoring_page(desk: Client) -> None:
    link = one(desk.get("/desk/"), "nav a[href='/desk/monitor/']")

    assert link.get_text() == "모니터링" and link["hx-get"] == "/desk/monitor/"


def test_the_monitoring_page_with_full_results_weighs_under_150_kb(desk: Client, reporter: Any) -> None:
    items = [{"title": f"기사 제목 {n} " * 4, "summary": "요약 문장입니다. " * 12} for n in range(15)]
    finished(reporter, "check", items + [{"category": "skip"}] * 20)
    finished(reporter, "report", items)
    for time in ("08:00", "12:00", "17:30"):
        schedules.schedule_add(reporter=reporter, command="check", time=time)

    response = desk.get("/desk/monitor/")

    soup = parse(response)
    assets = [link["href"] for link in soup.select("link[rel=stylesheet]")]
    assets += [script["src"] for script in soup.select("script[src]")]
    total = len(response.content)
    for path in assets:
        asset = desk.get(path)
        assert asset.status_code == 200, path
        total += len(b"".join(asset.streaming_content) if asset.streaming else asset.content)
    print(f"\n/desk/monitor/ with a full check, briefing and schedules: {total / 1024:.1f} KB (HTML+CSS+JS)")
    assert len(assets) == 3 and total <= 150 * 1024, total


# --- schedules --------------------------------------------------------------------------------
def schedule_box(response: Any) -> Any:
    return one(response, "#monitor-schedules")


def test_adding_a_time_lists_it_with_a_remove_button(desk: Client, reporter: Any) -> None:
    response = desk.post("/desk/monitor/schedules/add/", {"command": "report", "time": "8:30"}, **HTMX)

    box = schedule_box(response)
    assert "<html" not in response.content.decode()
    assert schedules.schedule_list(reporter=reporter)["report"] == ["08:30"]
    assert text(box, ".schedule-result") == "자동 브리핑 08:30 예약을 추가했습니다."
    entry = one(box, "li[data-command=report][data-time='08:30']")
    form = one(entry, "form")
    assert form["hx-post"] == form["action"] == "/desk/monitor/schedules/remove/"
    assert one(form, "input[name=csrfmiddlewaretoken]") and one(form, "button")["aria-label"].endswith(
        "예약 해제"
    )
    assert one(box, "#id_schedule_time").get("value", "") == ""
    assert "08:30" in text(desk.get("/desk/monitor/"), "#monitor-schedules")


def test_removing_a_time_takes_it_off_the_list(desk: Client, reporter: Any) -> None:
    schedules.schedule_add(reporter=reporter, command="check", time="09:00")
    schedules.schedule_add(reporter=reporter, command="check", time="12:00")

    response = desk.post("/desk/monitor/schedules/remove/", {"command": "check", "time": "09:00"}, **HTMX)

    assert schedules.schedule_list(reporter=reporter)["check"] == ["12:00"]
    box = schedule_box(response)
    assert text(box, ".schedule-result") == "자동 타사 체크 09:00 예약을 해제했습니다."
    assert [li["data-time"] for li in box.select("li[data-command=check]")] == ["12:00"]


@pytest.mark.parametrize("typed", ["25:00", "9시", "", "09:00; DROP"])
def test_an_invalid_time_shows_the_services_message_keeps_the_input_and_changes_nothing(
    desk: Client, reporter: Any, typed: str
) -> None:
    response = desk.post("/desk/monitor/schedules/add/", {"command": "check", "time": typed}, **HTMX)

    box = schedule_box(response)
    assert "시각 형식이 올바르지 않습니다" in text(box, ".schedule-result.schedule-error")
    assert one(box, "#id_schedule_time").get("value", "") == typed
    assert schedules.schedule_list(reporter=reporter) == {"check": [], "report": []}


def test_an_unknown_command_is_refused_by_the_service(desk: Client, reporter: Any) -> None:
    response = desk.post("/desk/monitor/schedules/add/", {"command": "purge", "time": "09:00"}, **HTMX)

    assert "check 또는 report" in text(schedule_box(response), ".schedule-error")
    assert schedules.schedule_list(reporter=reporter) == {"check": [], "report": []}


def test_a_time_already_set_changes_nothing_and_says_so(desk: Client, reporter: Any) -> None:
    schedules.schedule_add(reporter=reporter, command="check", time="09:00")

    response = desk.post("/desk/monitor/schedules/add/", {"command": "check", "time": "09:00"}, **HTMX)

    assert "바뀐 것은 없습니다" in text(schedule_box(response), ".schedule-result.schedule-same")
    assert schedules.schedule_list(reporter=reporter)["check"] == ["09:00"]


def test_schedule_changes_without_javascript_come_back_as_flash_messages(desk: Client, reporter: Any) -> None:
    added = desk.post("/desk/monitor/schedules/add/", {"command": "check", "time": "07:00"}, follow=True)
    refused = desk.post("/desk/monitor/schedules/add/", {"command": "check", "time": "7시"}, follow=True)

    assert added.redirect_chain == [("/desk/monitor/", 303)]
    assert "07:00 예약을 추가했습니다" in text(added, ".flash .flash-success")
    assert "시각 형식이 올바르지 않습니다" in text(refused, ".flash .flash-error")
    assert schedules.schedule_list(reporter=reporter)["check"] == ["07:00"]


def test_another_reporters_schedules_are_neither_shown_nor_removable(
    desk: Client, reporter: Any, other_reporter: Any
) -> None:
    schedules.schedule_add(reporter=other_reporter, command="report", time="06:15")

    page = desk.get("/desk/monitor/")
    desk.post("/desk/monitor/schedules/remove/", {"command": "report", "time": "06:15"}, **HTMX)

    assert "06:15" not in text(page, "#monitor-schedules")
    assert schedules.schedule_list(reporter=other_reporter)["report"] == ["06:15"]


def test_a_grouped_item_shows_the_other_outlets_of_its_event(desk, reporter) -> None:

    run = RunFactory(reporter=reporter, kind="check", status="done", stage="done")
    now = timezone.now()
    MonitorResultFactory(run=run, window_start=now - timedelta(hours=1), window_end=now, department="사회부")
    MonitorItemFactory(
        run=run,
        category="important",
        title="서울시, 청년 월세 확대",
        publisher="연합뉴스",
        also_reported=[
            {"publisher": "뉴시스", "title": "t", "url": "u", "pub_time": "2026-11-24T09:15:00+09:00"}
        ],
    )

    page = desk.get(f"/desk/monitor/runs/{run.pk}/").content.decode()

    assert "같은 소식: 뉴시스" in page

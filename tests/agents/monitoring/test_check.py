"""The /check pipeline through its Celery task, against fake Naver, fake pages and a fake model."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from agents.models import LLMCall, MonitorItem, MonitorResult, Run
from agents.monitoring.common import MAX_WINDOW, WINDOW_OVERLAP
from tests.agents.monitoring.world import (
    World,
    answer_analysis,
    answer_filter,
    article_list,
    naver_dns,
    run_check,
)
from tests.factories import MonitorItemFactory
from tests.fakes.anthropic import FakeAnthropic, tool_use
from tests.fakes.naver import FakeNaver
from tests.fakes.pages import FakePages

pytestmark = pytest.mark.django_db


@pytest.fixture
def world(fake_naver: FakeNaver, pages: FakePages) -> Iterator[World]:
    with naver_dns():
        yield World(fake_naver, pages)


def test_a_check_reports_new_articles_newest_first_with_their_own_links_and_moves_the_window(
    reporter: Any, world: World, fake_llm: FakeAnthropic
) -> None:
    older = world.article("서울시", "서울시, 전세사기 피해자 긴급 주거 지원 발표", minutes_ago=40)
    newer = world.article("경찰", "[단독] 경찰, 서울시 공무원 뇌물 혐의 압수수색", minutes_ago=10)
    dull = world.article("서울시", "서울시 봄꽃 축제 개막", minutes_ago=20)
    answer_filter(fake_llm)
    answer_analysis(
        fake_llm,
        report={older.title: "important", newer.title: "exclusive"},
        skip={dull.title: "s3: 생활 트렌드"},
    )

    run = run_check(reporter)

    assert run.status == Run.Status.DONE, run.error
    items = list(MonitorItem.objects.filter(run=run).order_by("position"))
    assert [(i.title, i.category) for i in items] == [
        (newer.title, "exclusive"),
        (older.title, "important"),
        (dull.title, "skip"),
    ]
    assert [i.url for i in items] == [newer.link, older.link, dull.link]
    assert items[0].publisher == "연합뉴스" and items[0].body_scraped
    result = MonitorResult.objects.get(run=run)
    assert reporter.last_check_at == result.window_end
    assert result.window_end - result.window_start == MAX_WINDOW  # first check: 3 h
    assert LLMCall.objects.filter(run=run).count() == 2
    assert [r.forced_tool for r in fake_llm.requests] == ["filter_news", "submit_analysis"]
    assert sorted(world.naver.queries()) == ["경찰", "서울시"]


def test_a_check_soon_after_the_last_one_looks_back_only_to_it_plus_a_small_overlap(
    reporter: Any, world: World, fake_llm: FakeAnthropic
) -> None:
    reporter.last_check_at = last = timezone.now() - timedelta(minutes=30)
    reporter.save()
    inside = world.article("서울시", "서울시, 공공임대 공급 계획 발표", minutes_ago=20)
    world.article("서울시", "서울시 한 시간 전 기사", minutes_ago=60)
    answer_filter(fake_llm)
    answer_analysis(fake_llm, report={inside.title: "important"})

    run = run_check(reporter)

    result = MonitorResult.objects.get(run=run)
    assert result.window_start == last - WINDOW_OVERLAP
    assert list(article_list(fake_llm.requests[1]).values()) == [inside.title]


def test_the_window_never_reaches_back_more_than_three_hours(
    reporter: Any, world: World, fake_llm: FakeAnthropic
) -> None:
    reporter.last_check_at = timezone.now() - timedelta(days=2)
    reporter.save()
    world.article("서울시", "서울시 네 시간 전 기사", minutes_ago=240)

    run = run_check(reporter)

    assert run.status == Run.Status.DONE
    result = MonitorResult.objects.get(run=run)
    assert result.window_end - result.window_start == MAX_WINDOW
    assert result.searched == 0 and not fake_llm.requests  # nothing in the window: no model call
    assert run.events.last().message == "완료 · 새 기사 없음"
    assert reporter.last_check_at == result.window_end  # a successful empty check moves the window too


def test_outlets_off_the_whitelist_and_photo_or_video_items_never_reach_the_model(
    reporter: Any, world: World, fake_llm: FakeAnthropic
) -> None:
    kept = world.article("서울시", "서울시, 재개발 규제 완화안 확정")
    world.article("서울시", "서울시 소식", outlet="www.unknown-daily.example")
    world.article("서울시", "[포토] 서울시청 앞 광장")
    world.article("경찰", "[영상] 경찰 출동 현장")
    world.article("경찰", "IT조선 경찰 기사", outlet="it.chosun.com")
    answer_filter(fake_llm)
    answer_analysis(fake_llm, report={kept.title: "important"})

    run = run_check(reporter)

    assert set(article_list(fake_llm.requests[1]).values()) == {kept.title}
    result = MonitorResult.objects.get(run=run)
    assert (result.searched, result.candidates) == (5, 1)


def test_articles_analysed_by_an_earlier_check_are_not_analysed_again(
    reporter: Any, world: World, fake_llm: FakeAnthropic
) -> None:
    first = world.article("서울시", "서울시, 첫 번째 기사", minutes_ago=10)
    answer_filter(fake_llm)
    answer_analysis(fake_llm, skip={first.title: "s3: 단순 통계"})
    run_check(reporter)
    later = world.article("서울시", "서울시, 새로 나온 기사", minutes_ago=1)
    answer_filter(fake_llm)
    answer_analysis(fake_llm, report={later.title: "important"})

    run_check(reporter)

    assert set(article_list(fake_llm.requests[-1]).values()) == {later.title}


def test_the_model_sees_72_hours_of_reported_and_skipped_history_and_nothing_older(
    reporter: Any, world: World, fake_llm: FakeAnthropic
) -> None:
    first = world.article("서울시", "서울시, 시장 기자회견", minutes_ago=10)
    skipped = world.article("경찰", "경찰, 교통 단속 통계 발표", minutes_ago=12)
    answer_filter(fake_llm)
    answer_analysis(fake_llm, report={first.title: "important"}, skip={skipped.title: "s3: 단순 통계"})
    earlier = run_check(reporter)
    old = MonitorItemFactory(
        run=earlier,
        category="important",
        title="오래된",
        topic_cluster="오래된 사안",
    )
    MonitorItem.objects.filter(pk=old.pk).update(created_at=timezone.now() - timedelta(hours=73))
    new = world.article("서울시", "서울시, 후속 조치 발표", minutes_ago=1)
    answer_filter(fake_llm)
    answer_analysis(fake_llm, report={new.title: "important"})

    run_check(reporter)

    prompt = fake_llm.requests[-1].last_user_text()
    history = prompt.split("<report_history>")[1].split("</report_history>")[0]
    skips = prompt.split("<skip_history>")[1].split("</skip_history>")[0]
    assert f"{first.title} 요약 문장." in history and "사안 " in history
    assert "s3: 단순 통계" in skips
    assert "오래된 사안" not in prompt


def test_back_mapping_trusts_the_title_when_the_model_attaches_the_wrong_numbers(
    reporter: Any, world: World, fake_llm: FakeAnthropic
) -> None:
    a = world.article("서울시", "서울시, 지하철 요금 인상 확정", minutes_ago=5)
    b = world.article("서울시", "서울시, 한강 수상택시 운항 중단", minutes_ago=6)
    answer_filter(fake_llm)

    def swapped(request: Any) -> list[dict[str, Any]]:
        listing = article_list(request)
        wrong = {title: n for n, title in listing.items()}
        return [
            tool_use(
                "submit_analysis",
                {
                    "results": [
                        # each summary goes with its title, but the numbers point at the other article
                        {
                            "category": "important",
                            "topic_cluster": "요금",
                            "source_indices": [wrong[b.title]],
                            "merged_indices": [],
                            "title": "[속보] " + a.title,
                            "summary": "요금 요약",
                            "reason": "r",
                        },
                        {
                            "category": "important",
                            "topic_cluster": "택시",
                            "source_indices": [wrong[a.title]],
                            "merged_indices": [],
                            "title": b.title,
                            "summary": "택시 요약",
                            "reason": "r",
                        },
                    ],
                    "skipped": [],
                },
            )
        ]

    fake_llm.respond_with(swapped, expect="submit_analysis")

    run = run_check(reporter)

    by_summary = {i.summary: i for i in MonitorItem.objects.filter(run=run)}
    assert (by_summary["요금 요약"].title, by_summary["요금 요약"].url) == (a.title, a.link)
    assert (by_summary["택시 요약"].title, by_summary["택시 요약"].url) == (b.title, b.link)


def test_an_item_whose_title_names_no_listed_article_gets_no_link_rather_than_a_wrong_one(
    reporter: Any, world: World, fake_llm: FakeAnthropic
) -> None:
    a = world.article("서울시", "서울시, 지하철 요금 인상 확정", minutes_ago=5)
    answer_filter(fake_llm)
    fake_llm.tool(
        "submit_analysis",
        {
            "results": [
                {
                    "category": "important",
                    "topic_cluster": "x",
                    "source_indices": [1],
                    "merged_indices": [],
                    "title": "국회, 특별법 본회의 통과",
                    "summary": "국회가 특별법을 통과시켰다.",
                    "reason": "r",
                }
            ],
            "skipped": [],
        },
    )

    run = run_check(reporter)

    item = MonitorItem.objects.get(run=run)
    assert item.title == "국회, 특별법 본회의 통과" and item.summary == "국회가 특별법을 통과시켰다."
    assert item.url == "" and item.publisher == ""
    assert a.link not in item.url


def test_a_page_that_cannot_be_scraped_is_analysed_from_its_description_and_flagged(
    reporter: Any, world: World, fake_llm: FakeAnthropic
) -> None:
    broken = world.article(
        "서울시", "서울시, 긴급 재난 문자 발송", page=False, description="서울시가 긴급 재난 문자를 보냈다"
    )
    answer_filter(fake_llm)
    answer_analysis(fake_llm, report={broken.title: "important"})

    run = run_check(reporter)

    item = MonitorItem.objects.get(run=run)
    assert item.body_scraped is False
    assert (
        "요약(본문을 가져오지 못함): 서울시가 긴급 재난 문자를 보냈다"
        in fake_llm.requests[1].last_user_text()
    )
    assert MonitorResult.objects.get(run=run).not_scraped == 1
    assert run.events.filter(kind="warning", message__contains="검색 요약만으로").exists()


def test_the_body_follows_v1_naver_rules_and_is_capped_at_800_characters(
    reporter: Any, world: World, fake_llm: FakeAnthropic
) -> None:
    a = world.article("서울시", "서울시, 청년 월세 지원 확대")
    answer_filter(fake_llm)
    answer_analysis(fake_llm, report={a.title: "important"})

    run_check(reporter)

    prompt = fake_llm.requests[1].last_user_text()
    body = prompt.split("본문(1~3문단): ", 1)[1].split("\n", 1)[0]
    assert len(body) <= 800 and body.startswith(a.paragraphs[0][:50])
    assert "연합뉴스 자료사진" not in body and "▶" not in body  # caption and marker lines skipped


def test_an_exclusive_tag_in_the_title_makes_the_item_exclusive_whatever_the_model_says(
    reporter: Any, world: World, fake_llm: FakeAnthropic
) -> None:
    a = world.article("경찰", "(단독) 경찰, 구청장 소환 통보")
    answer_filter(fake_llm)
    answer_analysis(fake_llm, report={a.title: "important"})

    run = run_check(reporter)

    assert MonitorItem.objects.get(run=run).category == "exclusive"


def test_prefilter_drops_count_in_the_total_and_only_survivors_are_scraped(
    reporter: Any, world: World, fake_llm: FakeAnthropic, pages: FakePages
) -> None:
    keep = world.article("서울시", "서울시, 재난안전 예산 증액")
    drop = world.article("서울시", "서울시 맛집 추천")
    answer_filter(fake_llm, keep=lambda title: title == keep.title)
    answer_analysis(fake_llm, report={keep.title: "important"})

    run = run_check(reporter)

    assert MonitorResult.objects.get(run=run).filtered_out == 1
    assert run.events.last().message == "완료 · 주요 1건 / 전체 2건"
    scraped = pages.paths_requested()
    assert any(keep.link.endswith(p) for p in scraped) and not any(drop.link.endswith(p) for p in scraped)


def test_without_keywords_the_request_is_refused_with_how_to_set_them(reporter: Any) -> None:
    from agents.monitoring.services import check_request
    from agents.services import InputError

    reporter.keywords = []
    reporter.save()

    with pytest.raises(InputError) as refused:
        check_request(reporter=reporter, channel="web")

    assert "/set_keyword" in refused.value.user_message and "프로필" in refused.value.user_message
    assert not Run.objects.exists()


def test_a_scheduled_check_without_keywords_fails_with_the_same_message(reporter: Any) -> None:
    from agents import tasks
    from agents.monitoring.services import scheduled_fire

    reporter.keywords = []
    reporter.save()
    run = scheduled_fire(reporter_id=reporter.pk, command="check")
    tasks.monitor_check.apply(args=[run.pk])
    run.refresh_from_db()

    assert run.status == Run.Status.FAILED and "/set_keyword" in run.error
    assert run.channel == "schedule"


@pytest.mark.parametrize(
    ("script", "code", "words"),
    [
        (lambda naver: naver.fail(429), "naver_quota", "한도"),
        (lambda naver: naver.fail(500, times=2), "naver_unavailable", "일시적으로"),
        (lambda naver: naver.fail(401), "naver_credentials", "거부"),
    ],
    ids=["quota", "server-errors", "bad-credentials"],
)
def test_naver_failures_fail_the_run_in_korean_and_keep_the_window(
    reporter: Any, world: World, fake_llm: FakeAnthropic, script: Any, code: str, words: str
) -> None:
    reporter.keywords = ["서울시"]
    reporter.save()
    world.article("서울시", "서울시 기사")
    script(world.naver)

    run = run_check(reporter)

    assert run.status == Run.Status.FAILED and run.error_code == code and words in run.error
    assert reporter.last_check_at is None
    assert not MonitorItem.objects.exists() and not fake_llm.requests


def test_naver_timeouts_fail_the_run_and_keep_the_window(
    reporter: Any, world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    from agents.sources import naver

    monkeypatch.setattr(naver, "TIMEOUT_SECONDS", 0.2)
    reporter.keywords = ["서울시"]
    reporter.last_check_at = before = timezone.now() - timedelta(hours=1)
    reporter.save()
    world.naver.stall(1.0, times=2)

    run = run_check(reporter)

    assert run.status == Run.Status.FAILED and run.error_code == "naver_unavailable"
    assert reporter.last_check_at == before


def test_missing_naver_credentials_fail_the_run_with_a_clear_message(
    reporter: Any, world: World, settings: Any
) -> None:
    settings.NAVER_CLIENT_ID = ""

    run = run_check(reporter)

    assert run.status == Run.Status.FAILED and "NAVER_CLIENT_ID" in run.error


def test_out_of_range_numbers_are_reasked_once_and_the_corrected_answer_is_used(
    reporter: Any, world: World, fake_llm: FakeAnthropic
) -> None:
    a = world.article("서울시", "서울시, 버스 노선 개편")
    answer_filter(fake_llm)
    bad = {
        "category": "important",
        "topic_cluster": "x",
        "source_indices": [7],
        "merged_indices": [],
        "title": a.title,
        "summary": "s",
        "reason": "r",
    }
    fake_llm.tool("submit_analysis", {"results": [bad], "skipped": []})
    answer_analysis(fake_llm, report={a.title: "important"})

    run = run_check(reporter)

    assert run.status == Run.Status.DONE
    reask = fake_llm.requests[2].last_user_text()
    assert "1부터 1까지" in reask and "[7]" in reask


def test_a_model_that_keeps_answering_badly_fails_the_run_after_bounded_retries_with_every_call_recorded(
    reporter: Any, world: World, fake_llm: FakeAnthropic
) -> None:
    world.article("서울시", "서울시, 버스 노선 개편")
    answer_filter(fake_llm)
    for _ in range(4):  # two attempts, each a call plus one re-ask
        fake_llm.tool("submit_analysis", {"results": "{not json", "skipped": []})

    run = run_check(reporter)

    assert run.status == Run.Status.FAILED and run.error_code == "bad_output"
    assert "형식" in run.error
    assert LLMCall.objects.filter(run=run).count() == 5
    assert reporter.last_check_at is None and not MonitorItem.objects.exists()


def test_an_empty_analysis_of_a_non_empty_list_is_not_accepted(
    reporter: Any, world: World, fake_llm: FakeAnthropic
) -> None:
    a = world.article("서울시", "서울시, 버스 노선 개편")
    answer_filter(fake_llm)
    fake_llm.tool("submit_analysis", {"results": [], "skipped": []})
    answer_analysis(fake_llm, skip={a.title: "s2: 지난 사실"})

    run = run_check(reporter)

    assert run.status == Run.Status.DONE
    assert list(MonitorItem.objects.filter(run=run).values_list("category", flat=True)) == ["skip"]


def test_the_prefilter_knows_the_department_and_keeps_the_reporters_keywords_in_play(
    reporter: Any, world: World, fake_llm: FakeAnthropic
) -> None:
    a = world.article("서울시", "서울시, 버스 노선 개편")
    answer_filter(fake_llm)
    answer_analysis(fake_llm, report={a.title: "important"})

    run_check(reporter)

    system = fake_llm.requests[0].system_text
    assert "사회부" in system and "경찰·검찰 수사" in system and "서울시, 경찰" in system
    assert "<keywords>서울시, 경찰</keywords>" in fake_llm.requests[1].last_user_text()


def test_merged_articles_count_as_sources_and_are_not_listed_again_as_skipped(
    reporter: Any, world: World, fake_llm: FakeAnthropic
) -> None:
    main = world.article("서울시", "서울시, 전세사기 특별법 후속 대책 발표")
    # Worded apart enough that the code grouping leaves it to the model to merge.
    copy = world.article("서울시", "피해 임차인 돕는 새 지원책 나와", outlet="www.donga.com")
    answer_filter(fake_llm)
    answer_analysis(
        fake_llm,
        report={main.title: "important"},
        merged={main.title: [copy.title]},
        skip={copy.title: "묶임"},
    )

    run = run_check(reporter)

    (reported,) = MonitorItem.objects.filter(run=run)
    assert reported.category == "important" and reported.title == main.title
    assert reported.source_count == 2 and set(reported.source_urls) == {main.link, copy.link}


def test_results_of_one_event_reach_the_model_once_and_the_item_lists_the_other_outlets(
    reporter: Any, world: World, fake_llm: FakeAnthropic
) -> None:
    first = world.article("서울시", "서울시, 청년 월세 지원 2만 가구로 확대", minutes_ago=30)
    later = world.article(
        "서울시",
        "청년 월세 20만원 지원 대상 2만가구로 늘린다…서울시",
        minutes_ago=10,
        outlet="www.newsis.com",
    )
    exclusive = world.article("서울시", "[단독] 서울시 청년 월세 지원 예산 절반 못 써", minutes_ago=5)
    answer_filter(fake_llm)
    answer_analysis(fake_llm, report={first.title: "important", exclusive.title: "exclusive"})

    run = run_check(reporter)

    listed = article_list(fake_llm.requests[-1])
    assert sorted(listed.values()) == sorted([first.title, exclusive.title])
    items = {i.title: i for i in MonitorItem.objects.filter(run=run)}
    assert [o["url"] for o in items[first.title].also_reported] == [later.link]
    assert items[first.title].url == first.link and items[exclusive.title].also_reported == []

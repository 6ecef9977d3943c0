from __future__ import annotations

import pickle
import socket
import time
from datetime import datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

import pytest
import time_machine

from agents.models import NaverUsage
from agents.sources import naver
from agents.sources.naver import NaverError, NewsItem, search_news, search_one
from tests.fakes.naver import FakeNaver, item, items_between

pytestmark = pytest.mark.django_db
KST = ZoneInfo("Asia/Seoul")


@pytest.fixture(autouse=True)
def pauses(monkeypatch: pytest.MonkeyPatch) -> list[float]:
    """Pauses the client asked for, without sleeping through them."""
    recorded: list[float] = []
    monkeypatch.setattr(naver, "_sleep", recorded.append)
    return recorded


def today_usage() -> NaverUsage:
    return NaverUsage.objects.get(day=datetime.now(KST).date())


# --- the request --------------------------------------------------------------------------------
def test_a_keyword_is_searched_by_date_100_at_a_time_with_the_server_keys(fake_naver: FakeNaver) -> None:
    fake_naver.add("반도체", items_between("반도체", 3))

    search_news(keywords=["반도체"])

    (request,) = fake_naver.requests
    assert (request.query, request.sort, request.display, request.start) == ("반도체", "date", 100, 1)
    assert request.headers["x-naver-client-id"] == fake_naver.client_id
    assert request.headers["x-naver-client-secret"] == fake_naver.client_secret


def test_the_base_url_is_read_from_settings_on_every_call(fake_naver: FakeNaver, settings: Any) -> None:
    other = FakeNaver()
    try:
        other.add("반도체", items_between("반도체", 1))
        settings.NAVER_API_BASE_URL = other.base_url

        assert len(search_news(keywords=["반도체"])) == 1
        assert fake_naver.requests == [] and len(other.requests) == 1
    finally:
        other.close()


# --- parsing ------------------------------------------------------------------------------------
def test_bold_tags_are_stripped_and_entities_unescaped_in_titles_and_descriptions(
    fake_naver: FakeNaver,
) -> None:
    fake_naver.add(
        "삼성",
        [
            item(
                '삼성 "반도체" 투자 & 고용 <확대>',
                "https://www.yna.co.kr/1",
                description="삼성이 '평택'에 투자",
            )
        ],
    )

    raw = fake_naver.results["삼성"][0]
    assert raw["title"].startswith("<b>삼성</b> &quot;")  # the fake looks like Naver
    (found,) = search_news(keywords=["삼성"])
    assert found.title == '삼성 "반도체" 투자 & 고용 <확대>'
    assert found.description == "삼성이 '평택'에 투자"


def test_pub_date_becomes_an_aware_datetime_in_seoul_time(fake_naver: FakeNaver) -> None:
    entry = item("기사", "https://www.yna.co.kr/1")
    entry["pubDate"] = "Mon, 02 Mar 2026 00:15:00 +0000"
    fake_naver.add("기사", [entry])

    (found,) = search_news(keywords=["기사"])

    assert found.pub_date == datetime(2026, 3, 2, 9, 15, tzinfo=KST)
    assert found.pub_date.utcoffset() == timedelta(hours=9)


def test_an_item_with_an_unreadable_pub_date_is_skipped(fake_naver: FakeNaver) -> None:
    broken = item("깨진 날짜", "https://www.yna.co.kr/broken")
    broken["pubDate"] = "yesterday-ish"
    fake_naver.add("날짜", [item("멀쩡한 날짜", "https://www.yna.co.kr/ok")])
    fake_naver.results["날짜"].append(broken)

    assert [found.title for found in search_news(keywords=["날짜"])] == ["멀쩡한 날짜"]


def test_items_keep_both_links_as_naver_sent_them(fake_naver: FakeNaver) -> None:
    fake_naver.add(
        "링크", [item("링크", "https://www.hani.co.kr/a/1", link="https://n.news.naver.com/mnews/x")]
    )

    (found,) = search_news(keywords=["링크"])

    assert found == NewsItem(
        title="링크",
        description="",
        originallink="https://www.hani.co.kr/a/1",
        link="https://n.news.naver.com/mnews/x",
        pub_date=found.pub_date,
    )


# --- paging and the time window -----------------------------------------------------------------
def test_a_full_first_page_leads_to_a_second_page_and_never_a_third(fake_naver: FakeNaver) -> None:
    fake_naver.add("경제", items_between("경제", 250))

    found = search_news(keywords=["경제"])

    assert [request.start for request in fake_naver.requests] == [1, 101]
    assert len(found) == 200


def test_a_short_first_page_is_the_only_call(fake_naver: FakeNaver) -> None:
    fake_naver.add("경제", items_between("경제", 50))

    assert len(search_news(keywords=["경제"])) == 50
    assert len(fake_naver.requests) == 1


def test_paging_stops_once_a_page_reaches_back_past_the_window(fake_naver: FakeNaver) -> None:
    fake_naver.add("사회", items_between("사회", 150))  # one item a minute
    since = datetime.now(KST) - timedelta(minutes=30, seconds=30)

    found = search_news(keywords=["사회"], since=since)

    assert len(fake_naver.requests) == 1  # the first page already reaches back 99 minutes
    assert len(found) == 31
    assert all(entry.pub_date >= since for entry in found)


def test_items_older_than_since_are_left_out(fake_naver: FakeNaver) -> None:
    fake_naver.add(
        "정치",
        [
            item("새 기사", "https://a.kr/1", minutes_ago=5),
            item("옛 기사", "https://a.kr/2", minutes_ago=300),
        ],
    )

    found = search_news(keywords=["정치"], since=datetime.now(KST) - timedelta(hours=3))

    assert [entry.title for entry in found] == ["새 기사"]


def test_a_naive_since_is_refused(fake_naver: FakeNaver) -> None:
    with pytest.raises(ValueError, match="aware"):
        search_news(keywords=["정치"], since=datetime(2026, 3, 2, 9, 0))  # noqa: DTZ001


# --- batching -----------------------------------------------------------------------------------
def test_keywords_go_in_batches_of_three_with_half_a_second_between_batches(
    fake_naver: FakeNaver, pauses: list[float]
) -> None:
    keywords = [f"키워드{n}" for n in range(7)]
    for keyword in keywords:
        fake_naver.add(keyword, items_between(keyword, 2))

    search_news(keywords=keywords)

    assert pauses == [0.5, 0.5]  # 3 batches, no pause after the last one
    assert sorted(fake_naver.queries()) == sorted(keywords)


def test_the_three_keywords_of_a_batch_are_searched_at_the_same_time(fake_naver: FakeNaver) -> None:
    fake_naver.latency = 0.3
    for keyword in ("가", "나", "다"):
        fake_naver.add(keyword, items_between(keyword, 2))

    started = time.monotonic()
    search_news(keywords=["가", "나", "다"])
    elapsed = time.monotonic() - started

    assert elapsed < 0.75  # three sequential calls would take at least 0.9 s


def test_the_pause_between_batches_really_lasts_half_a_second(
    fake_naver: FakeNaver, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(naver, "_sleep", time.sleep)
    for keyword in ("가", "나", "다", "라"):
        fake_naver.add(keyword, items_between(keyword, 2))

    search_news(keywords=["가", "나", "다", "라"])

    first_batch_end = max(request.at for request in fake_naver.requests[:3])
    (fourth,) = fake_naver.calls_for("라")
    assert fourth.at - first_batch_end >= 0.45


def test_empty_and_blank_keywords_make_no_call(fake_naver: FakeNaver) -> None:
    assert search_news(keywords=[]) == []
    assert search_news(keywords=["  ", ""]) == []
    assert fake_naver.requests == []


# --- merging ------------------------------------------------------------------------------------
def test_the_same_article_found_by_two_keywords_is_kept_once_from_the_first_keyword(
    fake_naver: FakeNaver,
) -> None:
    fake_naver.add("반도체", [item("반도체 기사", "https://www.yna.co.kr/same", minutes_ago=3)])
    fake_naver.add("삼성", [item("삼성 기사", "https://www.yna.co.kr/same", minutes_ago=3)])

    found = search_news(keywords=["반도체", "삼성"])

    assert [entry.title for entry in found] == ["반도체 기사"]


def test_items_without_originallink_are_deduplicated_by_their_naver_link(fake_naver: FakeNaver) -> None:
    fake_naver.add("가", [item("가 기사", "", link="https://n.news.naver.com/x/1")])
    fake_naver.add("나", [item("나 기사", "", link="https://n.news.naver.com/x/1")])
    fake_naver.add("다", [item("다 기사", "", link="https://n.news.naver.com/x/2")])

    assert [entry.title for entry in search_news(keywords=["가", "나", "다"])] == ["가 기사", "다 기사"]


def test_results_are_newest_first_and_capped_at_300(fake_naver: FakeNaver) -> None:
    for n, keyword in enumerate(("가", "나", "다", "라")):
        fake_naver.add(keyword, items_between(keyword, 100, first_minutes_ago=n * 0.25))

    found = search_news(keywords=["가", "나", "다", "라"])

    assert len(found) == 300
    assert [entry.pub_date for entry in found] == sorted((entry.pub_date for entry in found), reverse=True)


def test_max_results_caps_the_merged_list(fake_naver: FakeNaver) -> None:
    fake_naver.add("가", items_between("가", 40))

    assert len(search_news(keywords=["가"], max_results=10)) == 10


# --- credentials --------------------------------------------------------------------------------
def test_missing_keys_raise_a_korean_credentials_error_without_calling_naver(
    fake_naver: FakeNaver, settings: Any
) -> None:
    settings.NAVER_CLIENT_SECRET = ""

    with pytest.raises(NaverError) as caught:
        search_news(keywords=["가"])

    assert caught.value.code == "credentials"
    assert "네이버" in caught.value.user_message and "설정되어 있지 않습니다" in caught.value.user_message
    assert fake_naver.requests == []


def test_a_401_is_a_credentials_error(fake_naver: FakeNaver, settings: Any) -> None:
    settings.NAVER_CLIENT_ID = "wrong-id"

    with pytest.raises(NaverError) as caught:
        search_news(keywords=["가"])

    assert caught.value.code == "credentials"
    assert len(fake_naver.requests) == 1  # no retry


# --- the daily quota ----------------------------------------------------------------------------
def test_a_429_stops_at_once_marks_the_day_exhausted_and_says_try_tomorrow(fake_naver: FakeNaver) -> None:
    fake_naver.add("가", items_between("가", 150))
    fake_naver.fail(429)

    with pytest.raises(NaverError) as caught:
        search_news(keywords=["가"])

    assert caught.value.code == "quota"
    assert "내일" in caught.value.user_message
    assert len(fake_naver.requests) == 1
    assert today_usage().exhausted is True


def test_a_429_in_the_first_batch_means_no_later_batch_is_searched(
    fake_naver: FakeNaver, pauses: list[float]
) -> None:
    fake_naver.fail(429)

    with pytest.raises(NaverError):
        search_news(keywords=["가", "나", "다", "라", "마"])

    assert len(fake_naver.requests) == 3  # the first batch was already in flight, nothing after
    assert pauses == []


def test_after_a_429_the_next_search_is_refused_without_calling_naver(fake_naver: FakeNaver) -> None:
    fake_naver.fail(429)
    with pytest.raises(NaverError):
        search_news(keywords=["가"])

    with pytest.raises(NaverError) as caught:
        search_one(query="나")

    assert caught.value.code == "quota"
    assert len(fake_naver.requests) == 1


def test_every_call_is_counted_under_the_kst_date(fake_naver: FakeNaver) -> None:
    # 15:30 UTC on March 1st is already March 2nd in Seoul.
    with time_machine.travel(datetime(2026, 3, 1, 15, 30, tzinfo=ZoneInfo("UTC")), tick=True):
        fake_naver.add("가", items_between("가", 150))
        search_news(keywords=["가"])

    usage = NaverUsage.objects.get()
    assert str(usage.day) == "2026-03-02"
    assert usage.calls == 2


def test_calls_are_refused_from_24500_a_day_on(fake_naver: FakeNaver) -> None:
    NaverUsage.objects.create(day=datetime.now(KST).date(), calls=24_499)
    fake_naver.add("가", items_between("가", 5))

    assert len(search_news(keywords=["가"])) == 5  # call number 24,500 is still made
    with pytest.raises(NaverError) as caught:
        search_news(keywords=["가"])

    assert caught.value.code == "quota"
    assert len(fake_naver.requests) == 1
    assert today_usage().calls == 24_500


def test_a_new_kst_day_starts_with_a_fresh_quota(fake_naver: FakeNaver) -> None:
    yesterday = datetime.now(KST).date() - timedelta(days=1)
    NaverUsage.objects.create(day=yesterday, calls=24_500, exhausted=True)
    fake_naver.add("가", items_between("가", 1))

    assert len(search_news(keywords=["가"])) == 1


# --- transient failures -------------------------------------------------------------------------
def test_a_500_is_retried_once_and_the_retry_result_is_used(fake_naver: FakeNaver) -> None:
    fake_naver.add("가", items_between("가", 3))
    fake_naver.fail(500)

    assert len(search_news(keywords=["가"])) == 3
    assert len(fake_naver.requests) == 2
    assert today_usage().calls == 2  # the retry is a call too


def test_two_500s_in_a_row_make_naver_unavailable(fake_naver: FakeNaver) -> None:
    fake_naver.fail(500, times=2)

    with pytest.raises(NaverError) as caught:
        search_news(keywords=["가"])

    assert caught.value.code == "unavailable"
    assert "잠시 후" in caught.value.user_message
    assert len(fake_naver.requests) == 2


def test_a_timeout_is_retried_once(fake_naver: FakeNaver, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(naver, "TIMEOUT_SECONDS", 0.2)
    fake_naver.add("가", items_between("가", 2))
    fake_naver.stall(1.0)

    assert len(search_news(keywords=["가"])) == 2
    assert len(fake_naver.requests) == 2


def test_two_timeouts_make_naver_unavailable(fake_naver: FakeNaver, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(naver, "TIMEOUT_SECONDS", 0.2)
    fake_naver.stall(1.0, times=2)

    with pytest.raises(NaverError) as caught:
        search_news(keywords=["가"])

    assert caught.value.code == "unavailable"


def test_a_refused_connection_is_retried_then_unavailable(fake_naver: FakeNaver, settings: Any) -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        closed_port = probe.getsockname()[1]
    settings.NAVER_API_BASE_URL = f"http://127.0.0.1:{closed_port}"

    with pytest.raises(NaverError) as caught:
        search_news(keywords=["가"])

    assert caught.value.code == "unavailable"
    assert today_usage().calls == 2


def test_a_400_is_a_bad_request_error_without_retry(fake_naver: FakeNaver) -> None:
    fake_naver.fail(400)

    with pytest.raises(NaverError) as caught:
        search_news(keywords=["가"])

    assert caught.value.code == "bad_request"
    assert len(fake_naver.requests) == 1


def test_a_naver_error_survives_pickling_for_celery() -> None:
    error = NaverError("quota", naver.NAVER_QUOTA_EXHAUSTED, "HTTP 429")

    copy = pickle.loads(pickle.dumps(error))  # noqa: S301 - our own bytes

    assert (copy.code, copy.user_message, str(copy)) == ("quota", error.user_message, str(error))


# --- search_one ---------------------------------------------------------------------------------
def test_search_one_makes_a_single_date_sorted_call_of_the_requested_size(fake_naver: FakeNaver) -> None:
    fake_naver.add("전세", items_between("전세", 150))

    found = search_one(query="전세", display=20)

    (request,) = fake_naver.requests
    assert (request.query, request.display, request.start, request.sort) == ("전세", 20, 1, "date")
    assert len(found) == 20
    assert found[0].pub_date > found[-1].pub_date


def test_search_one_applies_the_window(fake_naver: FakeNaver) -> None:
    fake_naver.add("전세", items_between("전세", 50, step_minutes=10))

    found = search_one(query="전세", since=datetime.now(KST) - timedelta(minutes=95))

    assert len(found) == 10
    assert len(fake_naver.requests) == 1


def test_search_one_shares_the_quota_rules(fake_naver: FakeNaver) -> None:
    fake_naver.fail(429)

    with pytest.raises(NaverError) as caught:
        search_one(query="전세")

    assert caught.value.code == "quota"
    assert today_usage().exhausted is True

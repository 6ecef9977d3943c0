from __future__ import annotations

from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

import pytest

from agents.models import Publisher
from agents.sources import publishers
from agents.sources.naver import NewsItem
from agents.sources.publishers import clear_cache, filter_by_publisher, publisher_for_url

pytestmark = pytest.mark.django_db


def news(
    originallink: str, link: str = "https://n.news.naver.com/mnews/article/001/1", title: str = ""
) -> NewsItem:
    return NewsItem(
        title=title or originallink,
        description="",
        originallink=originallink,
        link=link,
        pub_date=datetime(2026, 3, 2, 9, 0, tzinfo=ZoneInfo("Asia/Seoul")),
    )


# v1's whitelist rules, one by one, against the 27 seeded outlets.
@pytest.mark.parametrize(
    ("url", "expected"),
    [
        ("https://www.chosun.com/national/2026/03/02/X/", "조선일보"),
        ("https://chosun.com/a", "조선일보"),
        ("https://news.chosun.com/site/data/html_dir/1.html", "조선일보"),
        ("https://sports.news.chosun.com/a", "조선일보"),  # deep subdomain
        ("https://it.chosun.com/news/articleView.html?idxno=1", None),  # exclude_subdomains
        ("https://notchosun.com/a", None),  # dot boundary
        ("https://chosun.com.evil.example/a", None),
        ("https://www.donga.com/news/article/all/1", "동아일보"),
        ("HTTPS://WWW.DONGA.COM/news/1", "동아일보"),  # host is lower-cased
        ("https://news.kbs.co.kr/news/pc/view/view.do?ncd=1", "KBS"),  # entry domain is a subdomain
        ("https://m.news.kbs.co.kr/a", "KBS"),
        ("https://kbs.co.kr/a", None),  # the bare parent does not match a subdomain entry
        ("https://www.kbs.co.kr/a", None),
        ("https://imnews.imbc.com/news/2026/1.html", "MBC"),
        ("https://www.yna.co.kr:443/view/AKR1", "연합뉴스"),  # ports do not matter
        ("http://www.hani.co.kr/arti/1.html", "한겨레"),
        ("https://www.unknown-outlet.co.kr/a", None),
        ("not-a-url", None),  # no scheme: urlparse finds no host
        ("www.chosun.com/a", None),
        ("", None),
        ("https://", None),
        ("http://[broken/a", None),
    ],
)
def test_publisher_for_url_follows_v1s_matching_rules(url: str, expected: str | None) -> None:
    assert publisher_for_url(url) == expected


def test_every_seeded_outlet_is_found_by_its_own_domain() -> None:
    rows = list(Publisher.objects.filter(active=True))
    assert len(rows) == 27
    for row in rows:
        assert publisher_for_url(f"https://{row.domain}/article/1") == row.name


def test_an_inactive_outlet_is_not_matched() -> None:
    Publisher.objects.filter(name="연합뉴스").update(active=False)

    assert publisher_for_url("https://www.yna.co.kr/view/1") is None


def test_the_first_outlet_by_position_wins() -> None:
    Publisher.objects.create(name="조선스포츠", domain="sports.chosun.com", position=99)
    assert publisher_for_url("https://sports.chosun.com/a") == "조선일보"

    Publisher.objects.filter(name="조선스포츠").update(position=0)
    clear_cache()
    assert publisher_for_url("https://sports.chosun.com/a") == "조선스포츠"


def test_an_excluded_host_can_still_belong_to_another_outlet() -> None:
    Publisher.objects.create(name="IT조선", domain="it.chosun.com", position=50)

    assert publisher_for_url("https://it.chosun.com/a") == "IT조선"


def test_rows_are_cached_until_cleared(django_assert_num_queries: Any) -> None:
    with django_assert_num_queries(1):
        for _ in range(10):
            publisher_for_url("https://www.chosun.com/a")
    Publisher.objects.filter(name="조선일보").update(active=False)

    assert publisher_for_url("https://www.chosun.com/a") == "조선일보"  # still the cached rows
    clear_cache()
    assert publisher_for_url("https://www.chosun.com/a") is None


def test_the_cache_expires_so_admin_edits_apply_without_a_restart(monkeypatch: pytest.MonkeyPatch) -> None:
    assert publisher_for_url("https://www.chosun.com/a") == "조선일보"
    Publisher.objects.filter(name="조선일보").update(active=False)
    monkeypatch.setattr(publishers, "CACHE_SECONDS", 0.0)

    assert publisher_for_url("https://www.chosun.com/a") is None


def test_filter_keeps_whitelisted_items_in_order_with_their_publisher() -> None:
    items = [
        news("https://www.hani.co.kr/1"),
        news("https://blog.example.com/2"),
        news("https://www.yna.co.kr/3"),
        news("https://www.chosun.com/4"),
    ]

    kept = filter_by_publisher(items)

    assert [(item.originallink, name) for item, name in kept] == [
        ("https://www.hani.co.kr/1", "한겨레"),
        ("https://www.yna.co.kr/3", "연합뉴스"),
        ("https://www.chosun.com/4", "조선일보"),
    ]
    assert kept[0][0] is items[0]  # the same objects, not copies


def test_filter_matches_on_originallink_never_on_the_naver_link() -> None:
    naver_only = news("", link="https://www.chosun.com/also-on-naver")
    outlet_unknown = news("https://www.unknown.kr/1", link="https://www.chosun.com/1")

    assert filter_by_publisher([naver_only, outlet_unknown]) == []


def test_filter_drops_malformed_urls_and_keeps_valid_ones() -> None:
    valid = news("https://www.donga.com/1")

    assert filter_by_publisher([news("not-a-url"), valid]) == [(valid, "동아일보")]


def test_filter_of_nothing_is_nothing() -> None:
    assert filter_by_publisher([]) == []

"""Telegram HTML for /check and /report results: v1's formats, the 4096 limit, escaping."""

from __future__ import annotations

from datetime import date, datetime, timedelta
from html.parser import HTMLParser
from zoneinfo import ZoneInfo

from agents.models import MonitorItem, MonitorResult, Run
from agents.monitoring.selectors import MonitorView
from newsdesk.telegram import formatters as f

KST = ZoneInfo("Asia/Seoul")
NOON = datetime(2026, 3, 2, 12, 0, tzinfo=KST)


def item(title: str = "경찰, 구청장 소환", **fields: object) -> MonitorItem:
    defaults: dict[str, object] = {
        "kind": "check",
        "category": "important",
        "action": "",
        "topic_cluster": "",
        "publisher": "연합뉴스",
        "url": "https://n.news.naver.com/mnews/article/001/1",
        "pub_time": NOON - timedelta(minutes=30),
        "summary": "경찰이 2일 구청장을 소환했다.",
        "reason": "수사 국면 변화",
        "source_count": 1,
        "body_scraped": True,
    }
    return MonitorItem(title=title, **{**defaults, **fields})


def view(
    kind: str = "check", *, items=(), skipped=(), unchanged=(), scenario="", filtered=0, analysed=5
) -> MonitorView:
    run = Run(kind=kind, input={"department": "사회부"})
    result = MonitorResult(
        window_start=NOON - timedelta(hours=3),
        window_end=NOON,
        day=NOON.date() if kind == "report" else None,
        department="사회부",
        scenario=scenario,
        filtered_out=filtered,
        analysed=analysed,
    )
    return MonitorView(
        run=run, result=result, items=list(items), skipped=list(skipped), unchanged=list(unchanged)
    )


class TagBalance(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.open: list[str] = []
        self.ok = True

    def handle_starttag(self, tag: str, attrs: object) -> None:
        self.open.append(tag)

    def handle_endtag(self, tag: str) -> None:
        if not self.open or self.open.pop() != tag:
            self.ok = False


def well_formed(message: str) -> bool:
    parser = TagBalance()
    parser.feed(message)
    parser.close()
    return parser.ok and not parser.open


def test_the_check_header_names_the_window_and_the_counts() -> None:
    messages = f.check_messages(view(items=[item()], skipped=[item("b", category="skip")], filtered=3))

    assert messages[0] == "🔍 <b>타사 체크</b> (09:00 ~ 12:00)\n주요 <b>1</b>건 / 전체 5건"


def test_a_window_across_midnight_shows_dates() -> None:
    label = f.window_label(datetime(2026, 3, 1, 23, 0, tzinfo=KST), datetime(2026, 3, 2, 1, 0, tzinfo=KST))

    assert label == "2026-03-01 23:00 ~ 2026-03-02 01:00"


def test_each_reported_article_is_one_message_newest_first_then_the_skipped_list() -> None:
    old = item("오래된 기사", pub_time=NOON - timedelta(hours=2))
    new = item("새 기사", pub_time=NOON - timedelta(minutes=5), category="exclusive")
    skip = item("스킵 기사", category="skip", reason="s3: 단순 통계", topic_cluster="통계")

    _header, first, second, skipped = f.check_messages(view(items=[old, new], skipped=[skip]))

    assert first.startswith(
        '<b><a href="https://n.news.naver.com/mnews/article/001/1">● [단독] [연합뉴스] 새 기사 (11:55)'
    )
    assert "오래된 기사 (10:00)" in second
    assert (
        "<blockquote expandable>경찰이 2일 구청장을 소환했다.\n-> <i>수사 국면 변화</i></blockquote>" in first
    )
    assert skipped.startswith("<b>스킵 1건</b>\n<blockquote expandable>- <a href=")
    assert "[연합뉴스] 스킵 기사 (11:30)</a> → s3: 단순 통계" in skipped


def test_nothing_analysed_gives_the_no_new_articles_message() -> None:
    assert f.check_messages(view(analysed=0)) == [
        "🔍 <b>타사 체크</b> (09:00 ~ 12:00)\n시간 범위 안에 새로운 기사가 없습니다."
    ]


def test_an_exclusive_tag_is_not_doubled_and_merged_sources_say_so() -> None:
    message = f.article_message(item("[단독] 검찰, 압수수색", category="exclusive", source_count=3), mark="●")

    assert "● [단독] [연합뉴스 등 다수] 검찰, 압수수색" in message
    assert message.count("[단독]") == 1


def test_article_text_is_escaped_and_the_link_quoted() -> None:
    message = f.article_message(
        item('<script>alert("x")</script> & 제목', url='https://e.com/a?b=1&c="2"', summary="A<B & C>D"),
        mark="●",
    )

    assert "<script>" not in message and "&lt;script&gt;" in message and "&amp; 제목" in message
    assert 'href="https://e.com/a?b=1&amp;c=&quot;2&quot;"' in message
    assert "A&lt;B &amp; C&gt;D" in message
    assert well_formed(message)


def test_a_huge_article_is_shortened_inside_its_text_never_inside_a_tag() -> None:
    big = item("제목 " * 400, summary="<요약> & " * 2000, reason="이유 & " * 1000)

    message = f.article_message(big, mark="●")

    assert len(message) <= f.LIMIT
    assert message.endswith("</i></blockquote>") and well_formed(message)
    assert "…" in message


def test_a_page_analysed_from_its_description_is_flagged() -> None:
    assert f.NOT_SCRAPED_NOTE in f.article_message(item(body_scraped=False), mark="●")
    assert f.NOT_SCRAPED_NOTE not in f.article_message(item(), mark="●")


def test_a_long_skipped_list_is_split_between_items_with_closed_blockquotes() -> None:
    skips = [
        item(
            f"스킵 기사 {n} " + "긴 제목 " * 30,
            category="skip",
            topic_cluster=f"사안 {n}",
            reason="이유 " * 100,
        )
        for n in range(60)
    ]

    messages = f.skipped_messages(skips, prefiltered=4)

    assert len(messages) >= 2
    assert messages[0].startswith(
        "<b>스킵 60건</b> (관련성이 낮아 미리 제외한 4건 외)\n<blockquote expandable>"
    )
    assert all(m.startswith("<blockquote expandable>") for m in messages[1:])
    assert all(len(m) <= f.LIMIT and well_formed(m) for m in messages)
    assert sum(m.count("스킵 기사 ") for m in messages) == 60  # every item, none cut


def test_skipped_items_of_one_topic_are_listed_once() -> None:
    skips = [
        item("a", category="skip", topic_cluster="같은 사안"),
        item("b", category="skip", topic_cluster="같은 사안"),
        item("c", category="skip", topic_cluster=""),
        item("d", category="skip", topic_cluster=""),
    ]

    (message,) = f.skipped_messages(skips)

    assert "스킵 3건" in message and "] b " not in message and "] d " in message


def test_report_scenario_a_lists_the_briefing_without_change_tags() -> None:
    messages = f.report_messages(view("report", items=[item(action="")], scenario="A"))

    assert messages[0] == "📋 <b>사회부 주요 뉴스</b> (2026-03-02)\n주요 <b>1</b>건"
    assert messages[1].startswith('<b><a href="https://n.news.naver.com/mnews/article/001/1">■ [연합뉴스]')


def test_report_scenario_b_tags_changes_and_collapses_what_was_already_reported() -> None:
    changed = [item("수정된 기사", action="modified", category="exclusive"), item("새 기사", action="added")]
    same = [item(f"기보고 {n}", action="unchanged") for n in range(2)]

    header, *articles, collapsed = f.report_messages(
        view("report", items=changed, unchanged=same, scenario="B")
    )

    assert header == "📋 <b>사회부 주요 뉴스</b> (2026-03-02)\n총 <b>4</b>건 (수정 1건, 추가 1건)"
    assert (
        "■ [단독] [수정] [연합뉴스] 수정된 기사" in articles[0]
        and "■ [신규] [연합뉴스] 새 기사" in articles[1]
    )
    assert collapsed.startswith("<b>기보고 2건</b>\n<blockquote expandable>")


def test_report_scenario_b_without_changes_says_so() -> None:
    messages = f.report_messages(view("report", unchanged=[item(action="unchanged")], scenario="B"))

    assert "(변경 없음)" in messages[0] and "기보고 1건" in messages[1]


def test_a_report_that_found_nothing_says_no_related_news() -> None:
    assert f.report_messages(view("report", scenario="B", analysed=0)) == [
        "📋 <b>사회부 주요 뉴스</b> (2026-03-02)\n새로 확인된 관련 뉴스가 없습니다."
    ]


def test_a_long_unchanged_list_is_split_under_the_limit() -> None:
    same = [item("기보고 " + "아주 긴 제목 " * 20, action="unchanged") for _ in range(80)]

    messages = f.unchanged_messages(same)

    assert len(messages) >= 2 and all(len(m) <= f.LIMIT and well_formed(m) for m in messages)


def test_an_article_from_another_day_shows_its_date() -> None:
    assert f.time_label(datetime(2026, 3, 1, 23, 50, tzinfo=KST), date(2026, 3, 2)) == "3/1 23:50"
    assert f.time_label(datetime(2026, 3, 2, 0, 10, tzinfo=KST), date(2026, 3, 2)) == "00:10"


def test_banner_and_failure_messages() -> None:
    assert f.scheduled_banner("check") == "━" * 20 + "\n⏰ 자동 타사체크"
    assert (
        f.run_failed_message("report", "키 <오류>", scheduled=True) == "[자동 브리핑] 실패: 키 &lt;오류&gt;"
    )
    assert f.run_failed_message("check", "한도 초과") == "타사 체크 실패: 한도 초과"


def test_an_item_of_an_event_several_outlets_reported_names_the_others_with_their_times() -> None:
    item = MonitorItem(
        kind="check",
        category="important",
        title="서울시, 청년 월세 지원 2만 가구로 확대",
        publisher="연합뉴스",
        url="https://n.news.naver.com/mnews/article/001/1",
        pub_time=datetime(2026, 11, 24, 9, 2, tzinfo=ZoneInfo("Asia/Seoul")),
        summary="요약",
        reason="이유",
        also_reported=[
            {"publisher": "뉴시스", "title": "t", "url": "u", "pub_time": "2026-11-24T09:15:00+09:00"},
            {"publisher": "서울신문", "title": "t", "url": "u", "pub_time": "2026-11-24T10:40:00+09:00"},
        ],
    )

    message = f.article_message(item, mark=f.CHECK_MARK, day=date(2026, 11, 24))

    assert "같은 소식: 뉴시스 09:15 · 서울신문 10:40" in message
    assert f.also_reported_line(MonitorItem(title="x")) == ""

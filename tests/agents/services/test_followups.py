"""Follow-up drafts: one per item at a time, the reporter's own items only, chat text sorted."""

from __future__ import annotations

from typing import Any

import pytest

from agents.models import Run
from agents.services import InputError, follow_up_create, follow_up_from_chat
from tests.fixtures.followup import ADDRESS, OUTLET, SUMMARY, TITLE, competitor_item
from tests.fixtures.press import PRESS_RELEASE

pytestmark = pytest.mark.django_db


def test_the_run_keeps_what_monitoring_stored_so_a_purge_cannot_lose_it(reporter: Any) -> None:
    item = competitor_item(reporter, url="https://n.news.naver.com/mnews/article/469/1")

    item_id = item.pk
    run = follow_up_create(reporter=reporter, item_id=item_id, channel=Run.Channel.API)
    item.delete()

    assert Run.objects.get(pk=run.pk).input["follow_up"] == {
        "item": item_id,
        "title": TITLE,
        "outlet": OUTLET,
        "url": ADDRESS,
        "scrape_url": "https://n.news.naver.com/mnews/article/469/1",
        "summary": SUMMARY,
    }


def test_another_reporters_item_is_not_found(reporter: Any, other_reporter: Any) -> None:
    theirs = competitor_item(other_reporter)

    with pytest.raises(InputError) as refused:
        follow_up_create(reporter=reporter, item_id=theirs.pk, channel=Run.Channel.API)

    assert refused.value.status == 404 and not Run.objects.filter(kind="draft").exists()


def test_once_the_first_follow_up_has_finished_the_item_can_be_followed_up_again(reporter: Any) -> None:
    item = competitor_item(reporter)
    first = follow_up_create(reporter=reporter, item_id=item.pk, channel=Run.Channel.API)
    Run.objects.filter(pk=first.pk).update(status=Run.Status.DONE)

    second = follow_up_create(reporter=reporter, item_id=item.pk, channel=Run.Channel.API)

    assert second.pk != first.pk


def test_a_release_sent_in_the_chat_is_material_and_a_short_request_an_instruction(reporter: Any) -> None:
    item, other = competitor_item(reporter), competitor_item(reporter)

    with_release = follow_up_from_chat(
        reporter=reporter, item_id=item.pk, text=PRESS_RELEASE, channel=Run.Channel.TELEGRAM
    )
    with_words = follow_up_from_chat(
        reporter=reporter, item_id=other.pk, text="피해자 반응 넣어서 짧게", channel=Run.Channel.TELEGRAM
    )

    assert with_release.input["press_release"] == PRESS_RELEASE.strip()
    assert (
        with_words.input["instruction"] == "피해자 반응 넣어서 짧게" and not with_words.input["press_release"]
    )

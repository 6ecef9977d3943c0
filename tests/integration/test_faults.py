"""Faults, with real processes: the broker killed and restarted while work arrives, worker pool
children and the worker itself SIGKILLed mid-draft, the database cut under the workers, and one of
three workers killed. Every accepted item must end exactly once with exactly one reply.

Each test starts its own redis-server on a free port (never the shared one) and cuts the
database only at a loopback proxy. Recovery settings are shortened (harness.FAST_RECOVERY).
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from django.db import connection
from django.test import Client

from agents.models import Article, Run
from agents.services import draft_create
from agents.tasks import sweep_stalled_runs
from conftest import TEST_FERNET_KEY
from newsdesk.models import Reporter, TelegramDelivery, TelegramUpdate
from newsdesk.services import token_issue
from newsdesk.telegram import queue
from newsdesk.telegram.delivery import result_messages
from tests.factories import ReporterFactory
from tests.fakes.telegram import FakeTelegram, text_update
from tests.fixtures.press import PRESS_RELEASE
from tests.integration.harness import (
    FAST_RECOVERY,
    RedisServer,
    SteadyAnthropic,
    TcpProxy,
    Worker,
    wait_until,
)

pytestmark = [
    pytest.mark.integration,
    pytest.mark.xdist_group("worker"),
    pytest.mark.django_db(transaction=True),
]


def worker_env(
    broker: str, llm: SteadyAnthropic, tmp_path: Path, *, db_port: int | None = None
) -> dict[str, str]:
    from django.conf import settings

    db = connection.settings_dict
    host, port = db["HOST"] or "127.0.0.1", db_port or db["PORT"] or 5432
    if db_port:
        host = "127.0.0.1"
    return {
        **os.environ,
        **FAST_RECOVERY,
        "DATABASE_URL": f"postgres://{db['USER']}@{host}:{port}/{db['NAME']}",
        "DJANGO_CONN_MAX_AGE": "0",
        "CELERY_BROKER_URL": broker,
        "ANTHROPIC_BASE_URL": llm.base_url,
        "ANTHROPIC_API_KEY": "",
        "NEWSDESK_ENCRYPTION_KEYS": TEST_FERNET_KEY,
        "NEWSDESK_VAR_DIR": str(tmp_path / "var"),
        "TELEGRAM_BOT_TOKEN": settings.TELEGRAM_BOT_TOKEN,
        "TELEGRAM_API_BASE_URL": settings.TELEGRAM_API_BASE_URL,
        "TELEGRAM_FILE_BASE_URL": settings.TELEGRAM_FILE_BASE_URL,
    }


def sweep() -> None:
    """What beat does every NEWSDESK_SWEEP_SECONDS; the test plays beat."""
    sweep_stalled_runs()
    queue.sweep()


def swept(check: Callable[[], object]) -> Callable[[], bool]:
    """A wait condition that plays beat's sweeper on every poll."""

    def poll() -> bool:
        sweep()
        return bool(check())

    return poll


def chat_reporters(count: int, first_chat: int) -> list[Reporter]:
    return [
        ReporterFactory(user=None, telegram_id=first_chat + i, anthropic_key=f"sk-ant-test-fault-{i:04d}")
        for i in range(count)
    ]


def telegram_drafts(reporters: list[Reporter]) -> list[Run]:
    channel = Run.Channel.TELEGRAM
    return [draft_create(reporter=r, press_release=PRESS_RELEASE, channel=channel) for r in reporters]


def post_json(client: Client, path: str, body: object) -> Any:
    return client.post(path, json.dumps(body), content_type="application/json")


def all_finished(runs: list[Run]) -> bool:
    finished = Run.objects.filter(pk__in=[r.pk for r in runs], status__in=["done", "failed"])
    return finished.count() == len(runs)


def assert_each_draft_once_with_one_reply(runs: list[Run], fake_telegram: FakeTelegram) -> None:
    for run in runs:
        run.refresh_from_db()
        assert run.status == Run.Status.DONE, (run.pk, run.error)
        assert Article.objects.filter(run=run).count() == 1
        delivered = TelegramDelivery.objects.filter(run=run, delivered_at__isnull=False)
        wait_until(swept(delivered.exists), timeout=60, what=f"the result of run {run.pk} to be delivered")
        sent = fake_telegram.sent_texts(run.reporter.telegram_id)
        assert len(sent) == len(result_messages(run)), (run.pk, sent)


def test_redis_killed_and_restarted_while_updates_and_drafts_arrive_loses_and_doubles_nothing(
    redis: RedisServer, web_broker: None, fake_telegram: FakeTelegram, webhook_secret: str, tmp_path: Path
) -> None:
    llm = SteadyAnthropic()
    worker = Worker(worker_env(redis.url(), llm, tmp_path), tmp_path / "worker.log")
    chats = chat_reporters(12, 7100)
    drafters = chat_reporters(4, 7200)
    api = Client(HTTP_AUTHORIZATION=f"Bearer {token_issue(reporter=drafters[0])}")
    webhook = Client(HTTP_X_TELEGRAM_BOT_API_SECRET_TOKEN=webhook_secret)
    worker.start()
    try:
        redis.kill()  # the broker dies; work keeps arriving
        updates = [text_update(chat_id=r.telegram_id, text="/help") for r in chats]
        answers = [post_json(webhook, "/telegram/webhook/", u) for u in [*updates, updates[0]]]
        api_draft = post_json(api, "/api/drafts", {"press_release": PRESS_RELEASE})
        runs = telegram_drafts(drafters[1:])
        assert {a.status_code for a in answers} == {200} and api_draft.status_code == 202
        assert api_draft.json()["status"] == "queued"
        redis.start()  # same port: the relay and the sweeper send what the broker never saw or lost
        runs.append(Run.objects.get(pk=api_draft.json()["id"]))

        wait_until(swept(lambda: all_finished(runs)), timeout=90, what="every draft to finish")
        unprocessed = TelegramUpdate.objects.filter(processed_at__isnull=True)
        wait_until(swept(lambda: not unprocessed.exists()), timeout=60, what="every update to be processed")
        assert_each_draft_once_with_one_reply(runs[:-1], fake_telegram)
    finally:
        worker.stop()
        llm.close()
    assert TelegramUpdate.objects.count() == len(chats)
    for reporter in chats:
        assert len(fake_telegram.sent_texts(reporter.telegram_id)) == 1
    assert Article.objects.filter(run=runs[-1]).count() == 1


def test_pool_children_and_the_worker_killed_mid_draft_finish_every_draft_once(
    redis: RedisServer, web_broker: None, fake_telegram: FakeTelegram, tmp_path: Path
) -> None:
    llm = SteadyAnthropic(delay=1.0)
    env = worker_env(redis.url(), llm, tmp_path)
    worker = Worker(env, tmp_path / "worker.log", concurrency=3)
    worker.start()
    try:
        runs = telegram_drafts(chat_reporters(6, 7300))
        for _ in range(2):
            seen = len(llm.requests)
            wait_until(lambda seen=seen: len(llm.requests) > seen, timeout=30, what="a draft in flight")
            assert worker.kill_children() > 0
        wait_until(lambda: bool(worker.children()), timeout=30, what="new pool children")
        worker.kill()
        worker = Worker(env, tmp_path / "worker2.log", concurrency=3)
        worker.start()
        wait_until(swept(lambda: all_finished(runs)), timeout=120, what="every draft to finish")
        assert_each_draft_once_with_one_reply(runs, fake_telegram)
    finally:
        worker.stop()
        llm.close()


def test_the_database_cut_under_the_workers_mid_draft_loses_and_doubles_nothing(
    redis: RedisServer, web_broker: None, fake_telegram: FakeTelegram, tmp_path: Path
) -> None:
    db = connection.settings_dict
    proxy = TcpProxy(db["HOST"] or "127.0.0.1", int(db["PORT"] or 5432))
    llm = SteadyAnthropic(delay=1.0)
    worker = Worker(worker_env(redis.url(), llm, tmp_path, db_port=proxy.port), tmp_path / "worker.log")
    worker.start()
    try:
        runs = telegram_drafts(chat_reporters(4, 7400))
        wait_until(lambda: len(llm.requests) > 0, timeout=30, what="a draft in flight")
        proxy.cut()  # every worker connection drops and none can be opened for five seconds
        time.sleep(5)
        proxy.restore()
        wait_until(swept(lambda: all_finished(runs)), timeout=120, what="every draft to finish")
        assert_each_draft_once_with_one_reply(runs, fake_telegram)
    finally:
        worker.stop()
        proxy.close()
        llm.close()


def test_three_llm_workers_under_distinct_names_one_killed_every_run_finishes_once(
    redis: RedisServer, web_broker: None, fake_telegram: FakeTelegram, tmp_path: Path
) -> None:
    llm = SteadyAnthropic(delay=1.0)
    env = worker_env(redis.url(), llm, tmp_path)
    threads = {"queues": "llm", "pool": "threads", "concurrency": 4}
    workers = [Worker(env, tmp_path / f"llm{i}.log", **threads) for i in range(3)]  # type: ignore[arg-type]
    io = Worker(env, tmp_path / "io.log", queues="io", concurrency=1)
    assert len({w.name for w in workers}) == 3
    try:
        for process in [*workers, io]:
            process.start()
        runs = telegram_drafts(chat_reporters(9, 7500))
        wait_until(lambda: len(llm.requests) >= 3, timeout=30, what="drafts in flight")
        workers[0].kill()
        wait_until(swept(lambda: all_finished(runs)), timeout=120, what="every draft to finish")
        assert_each_draft_once_with_one_reply(runs, fake_telegram)
    finally:
        for process in [*workers, io]:
            process.stop()
        llm.close()


def test_a_worker_killed_right_after_replying_to_an_update_does_not_reply_twice(
    redis: RedisServer, web_broker: None, fake_telegram: FakeTelegram, webhook_secret: str, tmp_path: Path
) -> None:
    llm = SteadyAnthropic()
    env = worker_env(redis.url(), llm, tmp_path)
    worker = Worker(env, tmp_path / "worker.log", concurrency=1)
    [reporter] = chat_reporters(1, 7600)
    chat = reporter.telegram_id
    webhook = Client(HTTP_X_TELEGRAM_BOT_API_SECRET_TOKEN=webhook_secret)
    fake_telegram.stall("sendMessage", 30)  # Telegram shows the reply; its answer comes too late
    worker.start()
    try:
        answer = post_json(webhook, "/telegram/webhook/", text_update(chat_id=chat, text="/status"))
        assert answer.status_code == 200
        wait_until(lambda: bool(fake_telegram.sent_texts(chat)), timeout=60, what="the reply at Telegram")
        worker.kill()  # between Telegram showing the reply and the update being marked processed
        update = TelegramUpdate.objects.get()
        assert update.processed_at is None and update.attempts == 1
        worker = Worker(env, tmp_path / "worker2.log", concurrency=1)
        worker.start()
        handled = TelegramUpdate.objects.filter(pk=update.pk, processed_at__isnull=False)
        wait_until(swept(handled.exists), timeout=90, what="the redelivered update to be handled")
    finally:
        worker.stop()
        llm.close()
    assert len(fake_telegram.sent_texts(chat)) == 1
    update.refresh_from_db()
    assert update.attempts == 2 and update.replies == [{"state": "sending", "ids": []}]

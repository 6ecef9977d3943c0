"""Faults under a stream of updates, with real worker processes: the database cut under the workers
is healed by the tasks themselves (no sweeper plays here), and with the requeue
rule at two seconds a burst with redeliveries still answers every chat exactly once.

Smaller than bench/faults.py's scenarios E and F (which print the figures), so CI can run them.
"""

from __future__ import annotations

import random
import time
from pathlib import Path

import pytest
from django.db import connection

from newsdesk.telegram.webhook import receive_update
from tests.fakes.telegram import FakeTelegram, text_update
from tests.integration.harness import RedisServer, SteadyAnthropic, TcpProxy, Worker, wait_until
from tests.integration.test_faults import chat_reporters, swept, worker_env

pytestmark = [
    pytest.mark.integration,
    pytest.mark.xdist_group("worker"),
    pytest.mark.django_db(transaction=True),
]
THREADS = {"queues": "llm", "pool": "threads", "concurrency": 4}


def each_replied_once(fake_telegram: FakeTelegram, chats: list[int]) -> dict[str, list[int]]:
    counts = {chat: len(fake_telegram.sent_texts(chat)) for chat in chats}
    return {
        "lost": [chat for chat, n in counts.items() if n == 0],
        "twice": [chat for chat, n in counts.items() if n > 1],
    }


def test_updates_arriving_across_a_database_cut_are_answered_by_their_own_retries_exactly_once(
    redis: RedisServer, web_broker: None, fake_telegram: FakeTelegram, tmp_path: Path
) -> None:
    db = connection.settings_dict
    proxy = TcpProxy(db["HOST"] or "127.0.0.1", int(db["PORT"] or 5432))
    worker = Worker(
        worker_env(redis.url(), SteadyAnthropic(), tmp_path, db_port=proxy.port), tmp_path / "w.log"
    )
    worker.start()
    chats = [r.telegram_id for r in chat_reporters(30, 7700)]
    try:
        for n, chat in enumerate(chats):  # 10 a second; the workers lose the database at the 10th
            if n == 10:
                proxy.cut()
            receive_update(text_update(chat_id=chat, text="/help"))
            time.sleep(0.1)
        time.sleep(3)
        proxy.restore()
        # No sweeper here (and heartbeats stale only after minutes): only the tasks' own retries
        # can answer what failed during the cut. The time it takes is bench/faults.py's (F).
        wait_until(
            lambda: not each_replied_once(fake_telegram, chats)["lost"], timeout=60, what="every reply"
        )
        time.sleep(2)  # a duplicate would come now
    finally:
        worker.stop()
        proxy.close()
    assert each_replied_once(fake_telegram, chats) == {"lost": [], "twice": []}
    assert "database unreachable" in worker.log.read_text(errors="replace")


def test_with_the_requeue_rule_at_two_seconds_a_burst_with_redeliveries_answers_each_chat_once(
    redis: RedisServer, web_broker: None, fake_telegram: FakeTelegram, tmp_path: Path, settings
) -> None:
    settings.NEWSDESK_REQUEUE_AFTER_SECONDS = 2
    env = {**worker_env(redis.url(), SteadyAnthropic(), tmp_path), "NEWSDESK_REQUEUE_AFTER_SECONDS": "2"}
    worker = Worker(env, tmp_path / "w.log", **THREADS)  # type: ignore[arg-type]
    worker.start()
    chats = [r.telegram_id for r in chat_reporters(150, 7800)]
    updates = [text_update(chat_id=chat, text="/help") for chat in chats]
    rng = random.Random(25)
    try:
        for n, update in enumerate(updates):  # a backlog forms: the sweeper keeps taking rows back
            receive_update(update)
            if n > 10 and rng.random() < 0.3:  # Telegram redelivers an update not yet answered
                receive_update(updates[n - rng.randint(1, 10)])
        wait_until(
            swept(lambda: not each_replied_once(fake_telegram, chats)["lost"]),
            timeout=180,
            what="every chat answered",
        )
        time.sleep(3)
    finally:
        worker.stop()
    assert each_replied_once(fake_telegram, chats) == {"lost": [], "twice": []}

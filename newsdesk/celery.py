from __future__ import annotations

import os

from celery import Celery
from celery.signals import task_postrun, task_prerun, worker_init, worker_ready, worker_shutdown
from kombu.transport import TRANSPORT_ALIASES

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "newsdesk.settings")
# `filesystem://` (the embedded default) names our transport, which never hands a worker a
# half-written message (newsdesk.broker says why kombu's own can).
TRANSPORT_ALIASES["filesystem"] = "newsdesk.broker:Transport"

app = Celery("newsdesk")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks(["agents", "conversations", "newsdesk.telegram"])


def use_broker(url: str) -> None:
    """Points this process at another broker (tests, benches)."""
    app.conf.broker_url = url  # type: ignore[misc]  # settable at run time, as Celery documents


@task_prerun.connect
@task_postrun.connect
def _close_stale_connections(task: object = None, **_: object) -> None:
    # Long-lived workers outlive database restarts; drop connections that went bad. A task
    # applied in the caller's thread (tests) shares the caller's connection: leave it alone.
    from django.db import close_old_connections

    if getattr(getattr(task, "request", None), "is_eager", False):
        return
    close_old_connections()


@worker_init.connect
def _refuse_unknown_models(**_: object) -> None:
    # `celery worker` runs no Django system checks: refuse to start on a model the runs would fail on.
    from django.core.exceptions import ImproperlyConfigured

    from agents.llm import catalog

    if problems := catalog.problems():
        raise ImproperlyConfigured("; ".join(problems))


@worker_init.connect
def _preload_worker_libraries(sender: object = None, **_: object) -> None:
    # Importing pymupdf costs ~0.5 s and ~130 MB; done once in the io worker's parent, its prefork
    # children share it instead of paying it on their first upload. The llm worker (threads)
    # parses only the rare Telegram attachment, and loads MuPDF lazily then.
    queues = getattr(sender, "app", app).amqp.queues.consume_from
    if "io" in queues:
        import pymupdf  # noqa: F401
    if "llm" in queues:
        # The SDK loads lazily (the web process never needs it); a worker that calls the model
        # loads it once at start instead of in its first 32 tasks at the same time.
        from agents.llm import client as llm

        llm.preload_sdk()


@worker_ready.connect
def _start_outbox_relay(**_: object) -> None:
    # Every worker runs a relay: on PostgreSQL one of them leads and publishes what the web
    # process records as soon as it is committed; elsewhere they send what the recording process
    # could not. Several on several machines are fine (each message is leased, and tasks claim
    # their rows).
    from agents.work import relay

    relay.start_relay()


@worker_ready.connect
def _start_heartbeat(sender: object = None, **_: object) -> None:
    # /healthz and the desk read these beats to tell a live consumer of each queue from a dead one.
    from newsdesk import workers

    consumer_app = getattr(sender, "app", app)  # the signal's sender is the worker's Consumer
    queues = sorted(consumer_app.amqp.queues.consume_from)
    workers.start_heartbeat(node=str(getattr(sender, "hostname", "")), queues=queues)


@worker_shutdown.connect
def _stop_heartbeat(**_: object) -> None:
    from newsdesk import workers

    workers.stop_heartbeat()
